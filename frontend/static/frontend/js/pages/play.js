// The game page: one game played over the socket (REST when the socket is down), surviving
// reloads and dropped connections; a new deal is started over the same socket and takes the
// page's place when its layout is the table's. `mount` puts together the parts in play/ (each
// named for its job: docs/frontend.md) with ../table.js, ../protocol.js and ../socket.js.

import { layoutNamed } from '../api.js';
import { _ } from '../i18n.js';
import { LiveSocket } from '../socket.js';
import { MoveQueue } from '../protocol.js';
import { Table } from '../table.js';
import { closeDialog } from '../dialog.js';
import { gameScreen } from './play/screen.js';
import { gameDialogs } from './play/dialogs.js';
import { loadGame } from './play/load.js';
import { GameClock } from './play/clock.js';
import { MoveTransport } from './play/transport.js';
import { NewDealRequest } from './play/new_deal.js';
import { Game } from './play/game.js';
import { bindControls } from './play/controls.js';
import { pauseWhileHidden } from './play/visibility.js';

// The server's close code when the game, the account or the address has all its sockets open.
const TOO_MANY_SOCKETS = 4409;

/** @type {Mount} */
export async function mount(root, ctx) {
  const view = await loadGame(root, ctx);
  if (!view) return null;
  const layout = await layoutNamed(view.layout);
  document.body.classList.add('playing');
  root.innerHTML = gameScreen(view.contest);
  /** @param {string} sel */
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));

  // The parts reach each other through arrows (`game`, `queue`, `dialogs`, `socket` are made
  // further down); none is called before all of them exist.
  const table = new Table($('.table-wrap'), layout, {
    onCard: (p, opts = {}) => game.playCard(p, opts),
    onStock: () => game.act('draw'),
    // A contest's table has no Undo.
    onUndo: view.contest ? undefined : () => game.act('undo'),
  });
  const transport = new MoveTransport({
    gameId: () => game.view.id,
    receive: (m) => queue.receive(m),
    inflight: () => queue.inflight,
  });
  const queue = new MoveQueue({
    transmit: (move) => transport.send(move),
    onView: (v, extra) => game.show(v, extra),
    onRefused: (move, detail) => game.refused(move, detail),
    onError: (detail) => game.failed(detail),
    onNewError: (detail) => game.dealRefused(detail),
    onTimeUp: () => game.timeUp(),
  });
  /** @type {GameClock} */
  const clock = new GameClock($('[data-testid=time]'), () => game.view);
  const newDeal = new NewDealRequest({ queue, socket: () => socket, startGame: ctx.startGame, gone: () => game.gone });
  /** @type {Game} */
  const game = new Game({ root, ctx, layout, view, table, queue, clock, newDeal, socket: () => socket, dialogs: () => dialogs });
  /** @type {ReturnType<typeof gameDialogs>} */
  const dialogs = gameDialogs({
    view: () => game.view,
    act: (action) => game.act(action),
    push: (action) => queue.push(action),
    focusTable: () => game.focusTable(),
    startDeal: (body) => newDeal.start(body),
    ctx,
    layout,
  });
  clock.start();
  const unbind = bindControls(root, {
    act: (action) => game.act(action),
    playCard: (p) => game.playCard(p),
    newDeal: () => dialogs.newDeal(),
    move: (dir) => table.move(dir),
    focusId: () => table.focusId,
    view: () => game.view,
  });
  const unwatch = pauseWhileHidden({ view: () => game.view, act: (action) => game.act(action) });
  const socket = new LiveSocket(`/ws/games/${view.id}/`, {
    onMessage: (m) => queue.receive(m),
    onOpen: () => { $('[data-testid=connection]').hidden = true; },
    onClose: (code) => {
      const note = $('[data-testid=connection]');
      note.hidden = false;
      // Moves still go by REST: the game plays on, a little slower.
      if (code === TOO_MANY_SOCKETS) note.textContent = _('This game is open in too many tabs: close some and reload this one.');
      transport.socketClosed();
      // So may the answer to a new deal: start it by REST.
      if (queue.starting) newDeal.byRest();
    },
  });
  transport.use(socket);
  // For the browser tests: the game, the socket, and how long a new deal is awaited on it.
  window.__tpGame = { drop: () => socket.drop(), view: () => game.view, socketPath: () => socket.path, patience: (ms) => { newDeal.waitMs = ms; } };
  queue.accept(view);
  if (!performance.getEntriesByName('tp-first-card').length) performance.mark('tp-first-card');
  table.roving(true); // the keyboard starts on the table (after Continue, a reload, a new deal)

  return () => {
    game.close();
    unbind();
    unwatch();
    socket.close();
    table.destroy();
    closeDialog();
    document.body.classList.remove('playing');
    delete window.__tpGame;
  };
}
