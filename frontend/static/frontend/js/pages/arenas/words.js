// What the arena list (../arenas.js) and one arena (../arena.js) both say: the scoring, a time
// on the player's clock, a refused request.

import { ApiError } from '../../api.js';
import { _, fill, num, serverText } from '../../i18n.js';
import { weekdayTime } from '../../format.js';
import { refusalWords } from '../../refusals.js';

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

/**
 * What a refused arena request (join, leave, play) says, by the server's code and what was asked,
 * in the page's language (the server's `refused` is one code for its phase and your entry).
 * @param {unknown} e
 * @param {string} act 'join', 'leave', 'play'
 * @returns {string}
 */
export function arenaError(e, act) {
  if (!(e instanceof ApiError)) return _('Could not reach the server: try again.');
  const code = String(e.body.code || '');
  if (code === 'not_found') return _('There is no such arena.');
  if (code === 'refused') {
    if (act === 'join') return _('This arena is over.');
    if (act === 'leave') return _('You have not joined this arena.');
    return _('The arena is not running, or you have not joined it.');
  }
  if (e.retryAfter && (code === 'throttled' || code === 'pool_empty' || code === 'unavailable')) {
    return refusalWords('deal', code === 'unavailable' ? 'busy' : code, e.status)(e.retryAfter);
  }
  return serverText(e.message, _('The arena refused: reload the page and try again.'));
}
