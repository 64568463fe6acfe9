// Which game the page shows: the one just started (its view in hand), else the player's
// unfinished game; without a player or a game the page says so instead and nothing else mounts.

import { api, ApiError } from '../../api.js';
import { signInFirst, noGame } from './screen.js';

/**
 * @param {HTMLElement} root
 * @param {AppContext} ctx
 * @returns {Promise<GameView | null>} null when `root` says why not
 */
export async function loadGame(root, ctx) {
  if (!ctx.user) {
    root.innerHTML = signInFirst();
    return null;
  }
  const view = ctx.takeGame();
  if (view) return view;
  if (!ctx.hasGame) {
    root.innerHTML = noGame();
    return null;
  }
  try {
    return await api('games/current');
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    ctx.hasGame = false;
    root.innerHTML = noGame();
    return null;
  }
}
