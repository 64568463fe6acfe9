// A solo game pauses while its page is hidden (another tab, a minimised window, a locked phone) and
// resumes when the page is shown again: the clock is the time the cards were on screen
// (docs/fair-play.md, "One clock"). A contest's clock is the contest's and never stops (the
// game refuses pauses); a pause the player chose stays until they resume it.
//
// The pause is sent a moment after the page is hidden: a page being left (a reload, a closed tab)
// is hidden too, and is gone by then; its socket's closing stops the server's clock instead.

import { over } from './moves.js';

export const HIDDEN_PAUSE_MS = 300;

/**
 * @param {object} game
 * @param {() => GameView} game.view the view in hand
 * @param {(action: Action) => void} game.act the player's command (game.js Game.act)
 * @returns {() => void} stops watching
 */
export function pauseWhileHidden({ view, act }) {
  let pausedByHiding = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const pause = () => {
    const v = view();
    if (document.visibilityState !== 'hidden' || v.contest || v.paused || over(v)) return;
    pausedByHiding = true;
    act('pause');
  };
  const changed = () => {
    clearTimeout(timer);
    if (document.visibilityState === 'hidden') {
      timer = setTimeout(pause, HIDDEN_PAUSE_MS);
    } else if (pausedByHiding) {
      pausedByHiding = false;
      act('resume');
    }
  };
  document.addEventListener('visibilitychange', changed);
  return () => {
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', changed);
  };
}
