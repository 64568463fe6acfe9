// The game page: one game played over the socket (REST when the socket is down), surviving
// reloads and dropped connections; a new deal is started over the same socket and takes the
// page's place when its layout is the table's. Its parts: play/screen.js (markup, the game bar),
// play/dialogs.js (menu, No more moves, New deal, the questions, results), ../table.js (the cards),
// ../protocol.js (the move queue), ../socket.js (the connection).

import { api, ApiError, layoutNamed } from '../api.js';
import { LiveSocket } from '../socket.js';
import { MoveQueue } from '../protocol.js';
import { Table } from '../table.js';
import { bindKeys } from '../input.js';
import { closeDialog, dialogOpen } from '../dialog.js';
import { clock, elapsedNow, cardName } from '../format.js';
import { _, fill, serverText } from '../i18n.js';
import * as sound from '../sound.js';
import { signInFirst, noGame, gameScreen, showScores } from './play/screen.js';
import { gameDialogs } from './play/dialogs.js';

// A run counts on the boards unless it is a custom deal or a hint was taken.
const ranked = (v) => v.mode !== 'custom' && !v.assisted;

// How long a new deal asked for over the socket may take before it is started by REST instead.
const NEW_DEAL_WAIT_MS = 4000;

export async function mount(root, ctx) {
  if (!ctx.user) {
    root.innerHTML = signInFirst();
    return null;
  }
  let view = ctx.takeGame();
  if (!view && !ctx.hasGame) {
    root.innerHTML = noGame();
    return null;
  }
  if (!view) {
    try {
      view = await api('games/current');
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
      ctx.hasGame = false;
      root.innerHTML = noGame();
      return null;
    }
  }
  const layout = await layoutNamed(view.layout);
  document.body.classList.add('playing');
  root.innerHTML = gameScreen();
  const $ = (sel) => root.querySelector(sel);
  const announce = (text) => { $('[data-testid=announce]').textContent = text; };
  let receivedAt = performance.now();
  let dropFrom = null;
  let sentVia = 'ws';
  let finishedShown = false;
  let socket = null;
  let newDealWait = null; // the timer of a new deal asked for over the socket
  let asked = null; // and what was asked
  let newDealWaitMs = NEW_DEAL_WAIT_MS;

  const rest = async (move) => {
    try {
      const body = await api(`games/${view.id}/moves`, { method: 'POST', body: move });
      queue.receive({ type: 'view', game: body, hint: body.hint, replayed: body.replayed });
    } catch (e) {
      if (e instanceof ApiError && e.body && e.body.code) queue.receive({ type: 'error', ...e.body });
      else if (e instanceof ApiError && e.status < 500) queue.receive({ type: 'error', code: 'invalid', detail: e.message });
      else setTimeout(() => { if (queue.inflight === move) transmit(move); }, 1000);
    }
  };
  const transmit = (move) => {
    if (socket && socket.send(move)) { sentVia = 'ws'; return; }
    sentVia = 'rest';
    rest(move);
  };

  const table = new Table($('.table-wrap'), layout, {
    onCard: (p, opts = {}) => playCard(p, opts),
    onStock: () => act('draw'),
    onUndo: () => act('undo'),
  });

  const queue = new MoveQueue({
    transmit,
    onView: (v, extra) => show(v, extra),
    onRefused: (move, detail) => {
      if (move.action === 'play') table.shake(move.position);
      else if (move.action === 'draw') table.shake('stock');
      sound.play('shake');
      announce(serverText(detail, _('That move is not allowed')));
    },
    onError: (detail) => announce(serverText(detail, _('The server could not take that move.'))),
    onNewError: (detail) => {
      clearTimeout(newDealWait);
      const text = serverText(detail, _('Could not start the deal.'));
      ctx.notice(text);
      announce(text);
    },
  });

  let gone = false;
  function show(v, extra = {}) {
    if (gone) return;
    if (extra.started && !startedHere(v)) return;
    const prev = view;
    view = v;
    receivedAt = performance.now();
    table.render(v, { dropFrom });
    dropFrom = null;
    showScores(root, v);
    tick();
    if (prev && prev.id === v.id && prev.seq < v.seq && !extra.resynced) {
      if (v.waste !== prev.waste && v.waste) {
        sound.play(v.stock_left < prev.stock_left ? 'draw' : 'play');
        announce(fill(_('Waste: %(card)s'), { card: cardName(v.waste) }));
      } else if (v.moves > prev.moves) sound.play('undo');
    }
    if (extra.hint) {
      const m = extra.hint.move;
      table.hint(m ? (m.action === 'draw' ? 'stock' : m.position) : null);
      announce(m ? (m.action === 'draw' ? _('Hint: draw from the stock') : fill(_('Hint: play the %(card)s'), { card: cardName(v.positions[m.position].card) })) : extra.hint.certain === false ? _('No certain hint in time: try again in a moment') : _('No move helps any more'));
    }
    if (v.status === 'won' || v.status === 'lost') finish(v);
    else if (v.paused) dialogs.pauseMenu();
    else if (v.status === 'stuck') dialogs.stuckDialog();
    else if (dialogOpen('pause') || dialogOpen('stuck')) closeDialog();
  }

  function tick() {
    if (gone) return;
    $('[data-testid=time]').textContent = clock(elapsedNow(view, receivedAt, performance.now()));
  }
  let timer = setInterval(tick, 250);

  // The socket now plays the new game (its view is `v`). On this table's layout the page carries
  // on with it in place; on another layout a page is built for it (its socket opens to the new
  // game, this one closes). True when this page shows it.
  function startedHere(v) {
    clearTimeout(newDealWait);
    if (v.layout !== layout.name) {
      ctx.openGame(v);
      return false;
    }
    socket.retarget(`/ws/games/${v.id}/`);
    ctx.hasGame = true;
    ctx.notice('');
    finishedShown = false;
    clearInterval(timer);
    timer = setInterval(tick, 250);
    closeDialog();
    announce(_('New deal'));
    return true;
  }

  // A new deal: over the open socket when nothing is in flight; by REST when the socket is down,
  // a move is awaited, or no answer comes in time (starting again resigns whatever is unfinished,
  // so a second start is harmless).
  async function startDeal(body) {
    if (queue.starting) return;
    if (socket.open && queue.beginNew()) {
      if (socket.send({ type: 'new', ...body })) {
        asked = body;
        newDealWait = setTimeout(startByRest, newDealWaitMs);
        return;
      }
      queue.abandonNew();
    }
    await ctx.startGame(body);
  }

  function startByRest() {
    clearTimeout(newDealWait);
    if (gone || !queue.starting) return;
    queue.abandonNew();
    ctx.startGame(asked);
  }

  function playCard(p, opts = {}) {
    const v = view;
    if (queue.starting || v.paused || v.status === 'won' || v.status === 'lost') return;
    const pos = v.positions[p];
    if (pos.removed) return;
    // Obvious misfits shake at once; the server stays the judge of everything else.
    if (!queue.busy && !v.playable.includes(p)) {
      table.shake(p);
      sound.play('shake');
      announce(pos.card ? fill(pos.free ? _('The %(card)s does not fit') : _('The %(card)s is covered'), { card: cardName(pos.card) }) : _('That card is face down'));
      return;
    }
    dropFrom = opts.dropFrom || null;
    queue.push('play', p);
  }

  function act(action) {
    const v = view;
    if (queue.starting || v.status === 'won' || v.status === 'lost') return;
    if (action === 'draw' && !queue.busy && (v.stock_left === 0 || v.paused)) {
      table.shake('stock');
      sound.play('shake');
      announce(_('The stock is empty'));
      return;
    }
    if (action === 'undo' && !queue.busy && !v.can_undo) { announce(_('Nothing to undo')); return; }
    if (v.paused && action !== 'resume' && action !== 'resign') return;
    if (action === 'hint' && ranked(v) && !queue.busy) { dialogs.hintFirst(); return; }
    if (action === 'restart' && v.moves > 0) { dialogs.restartFirst(); return; }
    queue.push(action);
  }

  function focusTable() {
    if (!gone) table.roving(true);
  }

  const dialogs = gameDialogs({
    view: () => view,
    act,
    push: (action) => queue.push(action),
    focusTable,
    startDeal: (body) => startDeal(body),
    ctx,
    layout,
  });

  async function finish(v) {
    if (finishedShown) return;
    finishedShown = true;
    ctx.hasGame = false;
    clearInterval(timer);
    tick();
    // A new deal started meanwhile (N during the bounce) has the table now.
    const over = () => gone || view.id !== v.id;
    if (v.status === 'won') {
      sound.play('win');
      announce(_('You cleared the peaks!'));
      await table.bounce();
      if (over()) return;
    }
    let stats = v.result && v.result.stats;
    if (!stats) {
      try { stats = (await api('me/stats')).overall; } catch { stats = null; }
      if (over()) return;
    }
    dialogs.results(v, stats);
  }

  const unbind = bindKeys((action) => {
    if (action === 'draw') act('draw');
    else if (['left', 'right', 'up', 'down'].includes(action)) table.move(action);
    else if (action === 'activate') {
      if (table.focusId === null) table.move('right');
      else if (table.focusId === 'stock') act('draw');
      else playCard(table.focusId);
    } else if (action === 'undo') act('undo');
    else if (action === 'hint') act('hint');
    else if (action === 'new') dialogs.newDeal();
    else if (action === 'pause') { if (!view.paused && view.status !== 'won' && view.status !== 'lost') act('pause'); }
  });

  root.querySelector('.topbar').addEventListener('click', (e) => {
    if (e.target.closest('[data-act=pause]')) act('pause');
  });
  root.querySelector('.controls').addEventListener('click', (e) => {
    const b = e.target.closest('[data-act]');
    if (!b) return;
    if (b.dataset.act === 'new') dialogs.newDeal();
    else act(b.dataset.act);
  });

  socket = new LiveSocket(`/ws/games/${view.id}/`, {
    onMessage: (m) => queue.receive(m),
    onOpen: () => { $('[data-testid=connection]').hidden = true; },
    onClose: () => {
      $('[data-testid=connection]').hidden = false;
      // The answer to a move sent over the socket may be lost: send it again (same seq) by REST.
      if (queue.inflight && sentVia === 'ws') transmit(queue.inflight);
      // So may the answer to a new deal: start it by REST.
      if (queue.starting) startByRest();
    },
  });
  // For the browser tests: the game, the socket, and how long a new deal is awaited on it.
  window.__tpGame = { drop: () => socket.drop(), view: () => view, socketPath: () => socket.path, patience: (ms) => { newDealWaitMs = ms; } };
  queue.accept(view);
  if (!performance.getEntriesByName('tp-first-card').length) performance.mark('tp-first-card');
  table.roving(true); // the keyboard starts on the table (after Continue, a reload, a new deal)

  return () => {
    gone = true;
    clearInterval(timer);
    clearTimeout(newDealWait);
    unbind();
    socket.close();
    table.destroy();
    closeDialog();
    document.body.classList.remove('playing');
    delete window.__tpGame;
  };
}
