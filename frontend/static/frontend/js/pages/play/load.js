// Which game the page shows: the one just started (its view in hand), else the player's
// unfinished game; null when there is none (or nobody is signed in): the page then shows the
// face-down table that deals at the first tap (../../welcome.js).

import { api, ApiError } from '../../api.js';

/**
 * @param {AppContext} ctx
 * @returns {Promise<GameView | null>}
 */
export async function loadGame(ctx) {
  if (!ctx.user) return null;
  const view = ctx.takeGame();
  if (view) return view;
  if (!ctx.hasGame) return null;
  try {
    return await api('games/current');
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    ctx.hasGame = false;
    return null;
  }
}
