// The game page: one game played over the socket (REST when the socket is down), surviving
// reloads and dropped connections; a new deal is started over the same socket and takes the
// page's place when its layout is the table's. `mount` draws the first card from the view in
// hand (the page's boot data brings it: frontend/views.py) with the few modules that draw a
// table, then makes it live with the rest of the parts in play/ (play/live.js, loaded on demand
// and asked for with the first ones: frontend/modules.py): each named for its job,
// docs/frontend.md.

import { currentGame, layoutNamed } from '../api.js';
import { Table } from '../table.js';
import { gameScreen, showScores } from './play/screen.js';

// Which game the page shows: the one just started or the boot data's (its view in hand), else
// the player's unfinished game; null when there is none (or nobody is signed in): the page then
// shows the face-down table that deals at the first tap (../welcome.js). Here and not a module
// of its own: the first card waits for each module, and on a slow line one more was 150 ms more.
/** @param {AppContext} ctx @returns {Promise<GameView | null>} */
async function loadGame(ctx) {
  if (!ctx.user) return null;
  return ctx.takeGame() ?? currentGame(ctx);
}

/** @type {Mount} */
export async function mount(root, ctx, params = []) {
  const view = await loadGame(ctx);
  // No deal in progress (or nobody signed in): a table that deals at the first tap (at once
  // on #/play/deal, where the guest page sends a guest it has just made). Loaded on demand: a
  // deal in progress is the usual case here, and its first card waits for every module.
  if (!view) return (await import('../welcome.js')).welcomeTable(root, ctx, params[0] === 'deal');
  // The boot data's layout when the page came with the deal: no request.
  const layout = await layoutNamed(view.layout);
  document.body.classList.add('playing');
  root.innerHTML = gameScreen(view.contest);
  /** @type {Promise<import('./play/live.js').LiveGame> | null} made below, before a tap can come */
  let live = null;
  // A card or the stock tapped before the game is live is played once it is.
  const table = new Table(/** @type {HTMLElement} */ (root.querySelector('.table-wrap')), layout, {
    onCard: (p, opts = {}) => { live?.then((g) => g.game.playCard(p, opts)); },
    onStock: () => { live?.then((g) => g.game.act('draw')); },
    // A contest's table has no Undo.
    onUndo: view.contest ? undefined : () => { live?.then((g) => g.game.act('undo')); },
  });
  table.render(view);
  showScores(root, view);
  if (!performance.getEntriesByName('tp-first-card').length) performance.mark('tp-first-card');
  live = import('./play/live.js').then((m) => m.goLive(root, ctx, layout, view, table));
  const { close } = await live;
  return close;
}
