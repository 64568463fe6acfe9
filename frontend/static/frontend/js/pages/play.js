// The game page: one game played over the socket (REST when the socket is down), surviving
// reloads and dropped connections; a new deal is started over the same socket and takes the
// page's place when its layout is the table's. `mount` puts together the parts in play/ (each
// named for its job: docs/frontend.md; play/assemble.js wires the table, ../protocol.js's move
// queue and ../socket.js's socket to the game) with the keys and the page's visibility.

import { layoutNamed } from '../api.js';
import { closeDialog } from '../dialog.js';
import { gameScreen } from './play/screen.js';
import { loadGame } from './play/load.js';
import { assemble } from './play/assemble.js';
import { bindControls } from './play/controls.js';
import { pauseWhileHidden } from './play/visibility.js';
import { welcomeTable } from '../welcome.js';

/** @type {Mount} */
export async function mount(root, ctx, params = []) {
  const view = await loadGame(ctx);
  // No deal in progress (or nobody signed in): a table that deals at the first tap (at once
  // on #/play/deal, where the guest page sends a guest it has just made).
  if (!view) return welcomeTable(root, ctx, params[0] === 'deal');
  const layout = await layoutNamed(view.layout);
  document.body.classList.add('playing');
  root.innerHTML = gameScreen(view.contest);
  const { table, queue, clock, newDeal, game, dialogs, socket } = assemble(root, ctx, layout, view);
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
  if (!performance.getEntriesByName('tp-first-card').length) performance.mark('tp-first-card');
  table.roving(true, true); // the keyboard starts on the table (after Continue, a reload, a new deal), its ring after a key

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
