// The racers' table (pure): counts only, the server never sends anyone's cards.

import { esc } from '../../dialog.js';
import { clock } from '../../format.js';
import { _, num } from '../../i18n.js';
import { raceChangeText } from '../races/words.js';

/** @type {Record<string, () => string>} */
const STATUS = {
  waiting: () => _('waiting'),
  playing: () => _('playing'),
  stuck: () => _('stuck'),
  won: () => _('cleared'),
  finished: () => _('finished'),
  resigned: () => _('resigned'),
  left: () => _('left'),
};

/** A player's line in the progress table. While the race runs: cards left, streak, stock; once it
 * is over: place, cards left, time, the rating change.
 * @param {RacePlayer} p @param {Race} race @param {string} me
 */
function playerRow(p, race, me) {
  const mine = p.username === me ? ' class="mine"' : '';
  const count = (/** @type {number | null} */ n) => (n == null ? '–' : num(n));
  const status = `<td data-testid="player-status">${esc((STATUS[p.status] || (() => p.status))())}</td>`;
  const cards = `<td data-testid="cards-left">${count(p.cards_left)}</td>`;
  if (race.state !== 'finished') {
    return `<tr${mine} data-player="${esc(p.username)}"><td>${esc(p.name)}</td>${cards}<td>${count(p.streak)}</td><td>${count(p.stock_left)}</td>${status}</tr>`;
  }
  const change = p.rating ? raceChangeText(p.rating) : '–';
  return `<tr${mine} data-player="${esc(p.username)}"><td>${count(p.place)}</td><td>${esc(p.name)}</td>${cards}<td>${p.time_ms == null ? '–' : clock(p.time_ms)}</td>${status}<td data-testid="rating-change">${change}</td></tr>`;
}

/** @param {Race} race @param {string} me */
export function playersTable(race, me) {
  const head = race.state === 'finished'
    ? ['#', _('Player'), _('Cards left'), _('Time'), _('Status'), _('Rating')]
    : [_('Player'), _('Cards left'), _('Streak'), _('Stock'), _('Status')];
  return `<table class="board race-players-table"><caption class="sr-only">${_('Players')}</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
    <tbody>${race.players.map((p) => playerRow(p, race, me)).join('')}</tbody></table>`;
}
