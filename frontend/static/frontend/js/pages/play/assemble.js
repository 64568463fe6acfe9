// The game page's parts, made and wired to each other: the table, the move queue and how a move
// travels, the clock, a new deal, the game and its dialogs, and the game's socket (REST when it
// is down). The parts reach each other through arrows (`game`, `queue`, `dialogs`, `socket` are
// made further down); none is called before all of them exist.

import { _ } from '../../i18n.js';
import { LiveSocket } from '../../socket.js';
import { MoveQueue } from '../../protocol.js';
import { GameClock } from './clock.js';
import { MoveTransport } from './transport.js';
import { NewDealRequest } from './new_deal.js';
import { Game } from './game.js';

// The server's close code when the game, the account or the address has all its sockets open.
const TOO_MANY_SOCKETS = 4409;

/**
 * @param {HTMLElement} root the game screen (screen.js)
 * @param {AppContext} ctx
 * @param {Layout} layout the table's
 * @param {GameView} view the first view
 * @param {import('../../table.js').Table} table drawn already (../play.js), its taps sent to `game`
 */
export function assemble(root, ctx, layout, view, table) {
  /** @param {string} sel */
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  const transport = new MoveTransport({ gameId: () => game.view.id, receive: (m) => queue.receive(m), inflight: () => queue.inflight });
  const queue = new MoveQueue({
    transmit: (move) => transport.send(move),
    onView: (v, extra) => game.show(v, extra),
    onRefused: (move, detail) => game.refused(move, detail),
    onError: (detail, move, msg) => game.failed(detail, move, msg),
    onNewError: (detail, msg) => game.dealRefused(detail, msg),
    onTimeUp: () => game.timeUp(),
  });
  /** @type {GameClock} */
  const clock = new GameClock($('[data-testid=time]'), () => game.view);
  const newDeal = new NewDealRequest({ queue, socket: () => socket, startGame: ctx.startGame, gone: () => game.gone });
  /** @type {Game} */
  const game = new Game({ root, ctx, layout, view, table, queue, clock, newDeal, socket: () => socket, dialogs: () => dialogs });
  const dialogs = dialogsOnDemand({
    view: () => game.view,
    act: (action) => game.act(action),
    push: (action) => queue.push(action),
    focusTable: () => game.focusTable(),
    startDeal: (body) => newDeal.start(body),
    ctx,
    layout,
  });
  const socket = gameSocket(view.id, () => $('[data-testid=connection]'), { queue, transport, newDeal });
  transport.use(socket);
  return { table, queue, clock, newDeal, game, dialogs, socket };
}

/**
 * The game's dialogs (./dialogs.js), their module loaded when the first one opens: the first
 * card waits for none of them. One the game has moved past while it loaded stays shut: the menu
 * once the game runs again, No more moves once a move fits, the results of a game no longer on
 * the table.
 * @param {DialogGame} on
 * @returns {ReturnType<typeof import('./dialogs.js').gameDialogs>}
 */
function dialogsOnDemand(on) {
  /** @type {Promise<ReturnType<typeof import('./dialogs.js').gameDialogs>> | null} */
  let loading = null;
  /** @param {(d: ReturnType<typeof import('./dialogs.js').gameDialogs>) => void} open */
  const when = (open) => {
    loading ||= import('./dialogs.js').then((m) => m.gameDialogs(on));
    loading.then(open, () => {
      loading = null;
      on.ctx.notice(_('Something went wrong: please reload the page.'));
    });
  };
  return {
    hintFirst: () => when((d) => d.hintFirst()),
    restartFirst: (after = null) => when((d) => d.restartFirst(after)),
    pauseMenu: () => when((d) => { if (on.view().paused) d.pauseMenu(); }),
    stuckDialog: () => when((d) => { if (on.view().status === 'stuck') d.stuckDialog(); }),
    newDeal: () => when((d) => d.newDeal()),
    results: (v, stats) => when((d) => { if (on.view().id === v.id) d.results(v, stats); }),
  };
}

/**
 * The game's socket; the connection note says when it is down.
 * @param {string} id the game's
 * @param {() => HTMLElement} note
 * @param {{queue: MoveQueue, transport: MoveTransport, newDeal: NewDealRequest}} parts
 */
function gameSocket(id, note, { queue, transport, newDeal }) {
  return new LiveSocket(`/ws/games/${id}/`, {
    onMessage: (m) => queue.receive(m),
    onOpen: () => { note().hidden = true; },
    onClose: (code) => {
      note().hidden = false;
      // Moves still go by REST: the game plays on, a little slower.
      if (code === TOO_MANY_SOCKETS) note().textContent = _('This game is open in too many tabs: close some and reload this one.');
      transport.socketClosed();
      // So may the answer to a new deal: start it by REST.
      if (queue.starting) newDeal.byRest();
    },
  });
}
