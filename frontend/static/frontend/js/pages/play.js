// The game page: top bar, table, controls and dialogs around one game, played over the socket
// (REST when the socket is down), surviving reloads and dropped connections. A new deal is
// started over the same socket and takes the page's place when its layout is the table's.

import { api, ApiError, layoutNamed } from '../api.js';
import { LiveSocket } from '../socket.js';
import { MoveQueue } from '../protocol.js';
import { Table } from '../table.js';
import { bindKeys } from '../input.js';
import { openDialog, closeDialog, dialogOpen, esc } from '../dialog.js';
import { clock, elapsedNow, cardName, pct, dealTitle, movesText } from '../format.js';
import { _, fill, num, digits, serverText } from '../i18n.js';
import * as sound from '../sound.js';
import { copyText, dailyShareText } from '../share.js';

// A run counts on the boards unless it is a custom deal or a hint was taken.
const ranked = (v) => v.mode !== 'custom' && !v.assisted;

// How long a new deal asked for over the socket may take before it is started by REST instead.
const NEW_DEAL_WAIT_MS = 4000;

const noGame = () => `<section class="panel narrow"><h2>${_('No deal in progress')}</h2><p><a class="button" href="#/">${_('Choose a deal')}</a></p></section>`;

export async function mount(root, ctx) {
  if (!ctx.user) {
    root.innerHTML = `<section class="panel narrow"><h2>${_('Sign in to play')}</h2><p>${_('Anyone can look at the boards; playing keeps your scores, so it needs an account.')}</p>
      <p><a class="button" href="/accounts/login/?next=/%23/play">${_('Sign in')}</a> <a href="/accounts/signup/">${_('Create an account')}</a></p></section>`;
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
  root.innerHTML = `<section class="play" aria-label="${_('Game')}">
    <div class="topbar">
      <button type="button" class="icon" data-act="pause" aria-label="${_('Menu (pauses the game)')}" aria-keyshortcuts="P Escape">☰</button>
      <dl class="scores">
        <div><dt>${_('Score')}</dt><dd data-testid="score">0</dd></div>
        <div><dt>${_('Time')}</dt><dd data-testid="time">0:00</dd></div>
        <div><dt>${_('Moves')}</dt><dd data-testid="moves">0</dd></div>
        <div><dt>${_('Stock')}</dt><dd data-testid="stock-left">0</dd></div>
      </dl>
      <span class="deal-title" data-testid="deal-title"></span>
    </div>
    <div class="table-wrap"></div>
    <div class="controls" role="toolbar" aria-label="${_('Game controls')}">
      <button type="button" class="tool" data-act="undo" aria-keyshortcuts="Z U Backspace"><span class="ico" aria-hidden="true">↶</span><span class=\"lbl\">${_('Undo')}</span></button>
      <button type="button" class="tool" data-act="hint" aria-keyshortcuts="H"><span class="ico" aria-hidden="true">?</span><span class=\"lbl\">${_('Hint')}</span></button>
      <button type="button" class="tool" data-act="restart"><span class="ico" aria-hidden="true">⟲</span><span class=\"lbl\">${_('Start again')}</span></button>
      <button type="button" class="tool" data-act="new" aria-keyshortcuts="N"><span class="ico" aria-hidden="true">+</span><span class=\"lbl\">${_('New deal')}</span></button>
    </div>
    <p class="sr-only" aria-live="polite" data-testid="announce"></p>
    <p class="conn" data-testid="connection" hidden>${_('Reconnecting…')}</p>
  </section>`;
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
    $('[data-testid=score]').textContent = digits(v.score);
    $('[data-testid=moves]').textContent = digits(v.moves);
    $('[data-testid=stock-left]').textContent = digits(v.stock_left);
    $('[data-testid=deal-title]').textContent = dealTitle(v);
    $('[data-act=undo]').setAttribute('aria-disabled', String(!v.can_undo));
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
      announce(m ? (m.action === 'draw' ? _('Hint: draw from the stock') : fill(_('Hint: play the %(card)s'), { card: cardName(v.positions[m.position].card) })) : _('No move helps any more'));
    }
    if (v.status === 'won' || v.status === 'lost') finish(v);
    else if (v.paused) pauseMenu();
    else if (v.status === 'stuck') stuckDialog();
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
    if (action === 'hint' && ranked(v) && !queue.busy) { hintFirst(); return; }
    if (action === 'restart' && v.moves > 0) { restartFirst(); return; }
    queue.push(action);
  }

  // The first hint of a ranked run asks first: it takes the run off the boards.
  function hintFirst() {
    openDialog({
      id: 'hint-warning', title: _('Take a hint?'),
      body: `<p>${_('A hint takes this run off the leaderboards: it will not be ranked. Your statistics still count it.')}</p>`,
      buttons: [
        { label: _('Show a hint'), primary: true, run: () => { closeDialog(); focusTable(); queue.push('hint'); } },
        { label: _('Keep it ranked'), run: () => { closeDialog(); focusTable(); } },
      ],
      cancel: () => { closeDialog(); focusTable(); },
    });
  }

  function restartFirst(after = null) {
    openDialog({
      id: 'restart-confirm', title: _('Start again?'),
      body: `<p>${_('All the cards go back where they were dealt and your moves are undone. The clock keeps running.')}</p>`,
      buttons: [
        { label: _('Start again'), primary: true, run: () => {
          closeDialog(); focusTable();
          if (view.paused) queue.push('resume');
          queue.push('restart');
        } },
        { label: _('Cancel'), run: () => { closeDialog(); if (after) after(); else focusTable(); } },
      ],
      cancel: () => { closeDialog(); if (after) after(); else focusTable(); },
    });
  }

  function focusTable() {
    if (!gone) table.roving(true);
  }

  function pauseMenu() {
    if (dialogOpen('pause')) return;
    openDialog({
      id: 'pause', title: _('Paused'),
      body: `<p>${_('The clock is stopped and the cards are hidden.')}</p>`,
      buttons: [
        { label: _('Resume'), primary: true, run: () => { closeDialog(); act('resume'); } },
        { label: _('Start again'), run: () => { closeDialog(); restartFirst(pauseMenu); } },
        { label: _('New deal'), run: () => newDeal() },
        { label: sound.soundOn() ? _('Sound: on') : _('Sound: off'), run: () => { sound.setSound(!sound.soundOn()); closeDialog(); pauseMenu(); } },
        { label: _('Switch theme'), run: () => ctx.cycleTheme() },
        // The way out on a phone held sideways, where the site's header is hidden.
        { label: _('Home'), run: () => { closeDialog(); location.hash = '#/'; } },
        { label: _('Leaderboards'), run: () => { closeDialog(); location.hash = '#/boards'; } },
      ],
      cancel: () => { closeDialog(); act('resume'); },
    });
  }

  function stuckDialog() {
    if (dialogOpen('stuck')) return;
    sound.play('stuck');
    openDialog({
      id: 'stuck', title: _('No more moves'),
      body: `<p>${_('The stock is spent and no card fits. Undo, start again, or end this deal (it counts as lost).')}</p>`,
      buttons: [
        { label: _('Undo'), primary: true, run: () => { closeDialog(); act('undo'); } },
        { label: _('Start again'), run: () => { closeDialog(); restartFirst(stuckDialog); } },
        { label: _('New deal'), run: () => newDeal() },
        { label: _('End deal'), run: () => { closeDialog(); act('resign'); } },
      ],
      cancel: () => closeDialog(),
    });
  }

  function newDeal() {
    const v = view;
    const unfinished = v.status !== 'won' && v.status !== 'lost' && v.moves > 0;
    const r = v.rules;
    openDialog({
      id: 'new-deal', title: _('New deal'),
      body: `<fieldset class="rules"><legend>${_('Rules')}</legend>
        <label><input type="checkbox" name="wrap" ${r.wrap ? 'checked' : ''}> ${_('King and Ace connect')}</label>
        <label><input type="checkbox" name="open" ${r.open ? 'checked' : ''}> ${_('Peaks open (all cards face up)')}</label></fieldset>
        <p>${fill(_('Layout: %(layout)s'), { layout: `<strong>${esc(ctx.layoutTitle())}</strong>` })} (<a href="#/layouts">${_('change')}</a>)</p>
        ${unfinished ? `<p class="warn">${_('This deal is not finished: it will count as lost.')}</p>` : ''}`,
      buttons: [
        { label: _('Deal'), primary: true, run: async () => {
          const d = document.querySelector('dialog[open]');
          const rules = { wrap: d.querySelector('[name=wrap]').checked, open: d.querySelector('[name=open]').checked };
          localStorage.setItem('tp.rules', JSON.stringify(rules)); // the layout picker's PLAY deals with them
          closeDialog();
          await startDeal({ mode: 'random', rules, layout: ctx.layoutName() });
        } },
        { label: _('Cancel'), run: () => { closeDialog(); if (view.paused) pauseMenu(); } },
      ],
      cancel: () => { closeDialog(); if (view.paused) pauseMenu(); },
    });
  }

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
    const res = v.result || {};
    const board = res.board;
    const rank = board ? fill(_('#%(rank)s of %(lines)s'), { rank: num(board.rank), lines: num(board.lines) }) : res.ranked === false ? _('Not ranked (custom deal or hint)') : '–';
    const news = (res.announcements || []).map((a) => `<li class="news">${esc(a.text)}</li>`).join('');
    const row = (k, val, tid) => `<div><dt>${k}</dt><dd${tid ? ` data-testid="${tid}"` : ''}>${esc(val)}</dd></div>`;
    const share = v.mode === 'daily' ? dailyShareText(v, board) : null;
    openDialog({
      id: 'results', wide: true, title: v.status === 'won' ? _('You won!') : _('Deal over'),
      body: `${news ? `<ul class="news-list">${news}</ul>` : ''}<dl class="results">
        ${row(_('Score'), v.score, 'result-score')}${row(_('Time'), clock(v.elapsed_ms))}${row(_('Moves'), v.moves)}
        ${row(_('Layout'), layout.title)}${row(_('Par'), v.deal && v.deal.par != null ? movesText(v.deal.par) : '–')}${row(_('Rank'), rank, 'result-rank')}
        ${row(_('Cards left'), v.cards_left)}</dl>
        ${stats ? `<h3>${_('Your statistics (ranked deals)')}</h3><dl class="results">${row(_('Wins'), stats.won)}${row(_('Losses'), stats.lost)}${row(_('Win rate'), pct(stats.win_rate))}
        ${row(_('Streak'), stats.current_streak)}${row(_('Best streak'), stats.best_streak)}${row(_('Daily streak'), stats.daily_streak)}${row(_('Best time'), stats.best_win_ms ? clock(stats.best_win_ms) : '–')}</dl>` : ''}
        ${share ? `<h3>${_('Share your result')}</h3><pre class="share-text" data-testid="share-text">${esc(share)}</pre>` : ''}`,
      buttons: [
        { label: _('New deal'), primary: true, run: () => newDeal() },
        ...(share ? [{ label: _('Copy result'), id: 'copy-result', run: () => copyText(share, document.querySelector('[data-testid=copy-result]')) }] : []),
        { label: _('Leaderboards'), run: () => { closeDialog(); location.hash = '#/boards'; } },
        { label: _('Home'), run: () => { closeDialog(); location.hash = '#/'; } },
      ],
      cancel: () => closeDialog(),
    });
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
    else if (action === 'new') newDeal();
    else if (action === 'pause') { if (!view.paused && view.status !== 'won' && view.status !== 'lost') act('pause'); }
  });

  root.querySelector('.topbar').addEventListener('click', (e) => {
    if (e.target.closest('[data-act=pause]')) act('pause');
  });
  root.querySelector('.controls').addEventListener('click', (e) => {
    const b = e.target.closest('[data-act]');
    if (!b) return;
    if (b.dataset.act === 'new') newDeal();
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
