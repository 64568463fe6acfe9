// The game page made live on the table already drawn (../play.js draws the first card): the
// parts wired to each other (assemble.js), the clock, the keys and buttons, a solo game paused
// while the page is hidden, the first view taken; and the page's cleanup.

import { closeDialog } from '../../dialog.js';
import { assemble } from './assemble.js';
import { bindControls } from './controls.js';
import { pauseWhileHidden } from './visibility.js';

/** @typedef {{game: import('./game.js').Game, close: () => void}} LiveGame */

/**
 * @param {HTMLElement} root the game screen (screen.js)
 * @param {AppContext} ctx
 * @param {Layout} layout the table's
 * @param {GameView} view the first view
 * @param {import('../../table.js').Table} table drawn with `view`
 * @returns {LiveGame}
 */
export function goLive(root, ctx, layout, view, table) {
  const { queue, clock, newDeal, game, dialogs, socket } = assemble(root, ctx, layout, view, table);
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
  // For the browser tests: the game, the socket, and how long a new deal is awaited on it.
  window.__tpGame = { drop: () => socket.drop(), view: () => game.view, socketPath: () => socket.path, patience: (ms) => { newDeal.waitMs = ms; } };
  queue.accept(view);
  table.roving(true, true); // the keyboard starts on the table (after Continue, a reload, a new deal), its ring after a key
  const close = () => {
    game.close();
    unbind();
    unwatch();
    socket.close();
    table.destroy();
    closeDialog();
    document.body.classList.remove('playing');
    delete window.__tpGame;
  };
  return { game, close };
}
