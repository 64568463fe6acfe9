// What the race lobby (../races.js) and one race (../race.js) both say: a refused request, a
// refused move on a contest's table, a rating change.

import { ApiError } from '../../api.js';
import { _, fill, serverText } from '../../i18n.js';
import { refusalWords, waitText } from '../../refusals.js';
import { changeText } from '../ratings.js';

/**
 * A refusal that says how long to wait (429 `throttled`, 503 `pool_empty`, `unavailable`), in
 * words, or null for any other code.
 * @param {string} what 'deal' (a start), 'move'
 * @param {string} code @param {number} status @param {number | null | undefined} wait seconds
 * @returns {string | null}
 */
function waitWords(what, code, status, wait) {
  if (code === 'unavailable') return fill(_('The server is busy: try again in %(wait)s.'), { wait: waitText(wait || 5) });
  if (code === 'throttled' || code === 'pool_empty' || code === 'solver_busy') return refusalWords(what, code, status)(Math.max(1, wait || 1));
  return null;
}

/**
 * What a refused race request says to the player (the server's codes, in their words).
 * @param {unknown} e
 */
export function raceError(e) {
  if (!(e instanceof ApiError)) return _('Could not reach the server: check your connection and try again.');
  /** @type {Record<string, string>} */
  const words = {
    race_full: _('That race is full.'),
    not_open: _('That race has begun: it takes no more players.'),
    already_joined: _('You are in this race already.'),
    in_another_race: _('You are in another race: leave it first.'),
    in_race: _('You are in a race: finish it first.'),
    already_queued: _('You are already waiting for a race.'),
    not_found: _('There is no such race (a private race needs its code).'),
    too_few_players: _('A race needs two players at least.'),
    not_full: _('The race is not full any more.'),
    already_started: _('The race has already started.'),
    not_seated: _('You are not in this race.'),
    not_host: _('Only the host can do that.'),
    not_racing: _('A claim needs both of you still racing.'),
    not_absent: _('That player is still here: claim again if they stay away.'),
    not_finished: _('The race is not over yet.'),
    not_a_player: _("Only the race's players can ask for a rematch."),
    busy: _('That did not work: try again.'),
  };
  const code = String(e.body.code || '');
  return words[code] || waitWords('deal', code, e.status, e.retryAfter) || serverText(e.message, _('That did not work: try again.'));
}

/**
 * What a contest's table (../race/game.js, a race's or an arena's) says when the server refuses
 * a move that is not simply illegal (its error frame, or a REST answer made into one:
 * ../play/transport.js), by its code, in the page's language; the server's English `detail`
 * only for a code it has no words for, and only in English.
 * @param {ErrorMessage} msg
 * @returns {string}
 */
export function contestMoveText(msg) {
  if (msg.code === 'race_over') return _('The race is over for you: that move did not count.');
  if (msg.code === 'not_found') return _('This game is no longer here: reload the page.');
  return waitWords('move', msg.code, 0, msg.retry_after) || serverText(msg.detail, _('The server could not take that move.'));
}

/**
 * A race's rating change as a player reads it: "+12", "−8", or held for staff review.
 * @param {NonNullable<RacePlayer['rating']>} rating
 */
export function raceChangeText(rating) {
  if (rating.held || rating.change == null) return _('Held for review');
  return changeText(rating.change);
}
