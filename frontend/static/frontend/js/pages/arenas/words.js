// What the arena list (../arenas.js) and one arena (../arena.js) both say: the scoring, and a
// time on the player's clock.

import { _, fill, num } from '../../i18n.js';
import { weekdayTime } from '../../format.js';

/**
 * The scoring, as the server states it (docs/arenas.md).
 * @param {ArenaScoring} s
 * @returns {string}
 */
export function scoringText(s) {
  return fill(_('A won game scores %(win)s points. After %(after)s wins in a row you are on fire: each further win in a row scores %(fire)s. A game not won scores nothing and ends the streak. Only games that end before the arena ends count. Ties: more wins first, then whoever reached the points first.'),
    { win: num(s.win), after: num(s.fire_after), fire: num(s.fire_win) });
}

/**
 * A time as the player's clock says it.
 * @param {string} iso
 * @returns {string}
 */
export function timeText(iso) {
  return weekdayTime(new Date(iso));
}
