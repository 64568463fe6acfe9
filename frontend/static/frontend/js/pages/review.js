// A finished game's review (issue 39): `#/review/<game id>` (the player's own, or one the rules let
// the viewer see: a past daily deal's run, a finished race's) and `#/review/s/<token>` (a shared
// custom or numbered deal's game, for anyone, signed out too). The game replayed move by move on
// the play table's own drawing, read-only; the solver's verdict on every position, the losing
// move, the winning line from the position before it and the par line. The parts are in review/.

import { api, ApiError } from '../api.js';
import { reviewScreen, notShown } from './review/screen.js';
import { listHtml, stripHtml } from './review/side.js';
import { ReviewPlayer } from './review/player.js';
import { bindReview } from './review/controls.js';
import { AnalysisPanel } from './review/analysis.js';
import { mayShare, bindShare } from './review/share.js';
import { reviewStyles } from './review/styles.js';
import { dealName } from './review/words.js';
import { reviewPaths } from './review/paths.js';

/** @type {Mount} */
export async function mount(root, ctx, params) {
  const paths = reviewPaths(params);
  /** @type {ReplayPayload | null} */
  let replay = null;
  try {
    if (paths) replay = await api(paths.replay);
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 400)) throw e;
  }
  if (!paths || !replay) { root.innerHTML = notShown(Boolean(paths && paths.byLink)); return null; }
  await reviewStyles();
  document.body.classList.add('reviewing');
  root.innerHTML = reviewScreen(replay, { title: dealName(replay.game.deal), back: ctx.user ? '#/stats' : '#/' });
  /** @type {HTMLElement} */ (root.querySelector('.review-list')).innerHTML = listHtml(replay);
  /** @type {HTMLElement} */ (root.querySelector('.review-strip')).innerHTML = stripHtml(replay.moves.length);
  const player = new ReviewPlayer(root, replay);
  player.draw();
  const unbind = bindReview(root, player);
  const panel = new AnalysisPanel(root, player, paths.analysis, ctx);
  panel.start();
  if (mayShare(replay.game, ctx.user, paths.byLink)) bindShare(root, replay.game);
  return () => {
    unbind();
    panel.destroy();
    player.destroy();
    document.body.classList.remove('reviewing');
  };
}
