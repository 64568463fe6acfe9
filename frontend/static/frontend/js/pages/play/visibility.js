// A solo game pauses while its page is hidden (another tab, a minimised window, a locked phone) and
// resumes when the page is shown again: the clock is the time the cards were on screen
// (docs/fair-play.md, "One clock"). A contest's clock is the contest's and never stops (the
// game refuses pauses); a pause the player chose stays until they resume it.

import { over } from './moves.js';

/**
 * @param {object} game
 * @param {() => GameView} game.view the view in hand
 * @param {(action: Action) => void} game.act the player's command (game.js Game.act)
 * @returns {() => void} stops watching
 */
export function pauseWhileHidden({ view, act }) {
  let pausedByHiding = false;
  const changed = () => {
    const v = view();
    if (document.visibilityState === 'hidden') {
      if (v.contest || v.paused || over(v)) return;
      pausedByHiding = true;
      act('pause');
    } else if (pausedByHiding) {
      pausedByHiding = false;
      act('resume');
    }
  };
  document.addEventListener('visibilitychange', changed);
  return () => document.removeEventListener('visibilitychange', changed);
}
