// What the race lobby (../races.js) and one race (../race.js) both say: a refused request, a
// rating change.

import { ApiError } from '../../api.js';
import { _, serverText } from '../../i18n.js';
import { changeText } from '../ratings.js';

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
  };
  const code = String(e.body.code || '');
  return words[code] || serverText(e.message, _('That did not work: try again.'));
}

/**
 * A race's rating change as a player reads it: "+12", "−8", or held for staff review.
 * @param {NonNullable<RacePlayer['rating']>} rating
 */
export function raceChangeText(rating) {
  if (rating.held || rating.change == null) return _('Held for review');
  return changeText(rating.change);
}
