// The race's own results (pure), on the table's place once the race is over: places, times,
// cards left, rating changes, Rematch and the next race. Never the solo game's dialog.

import { esc } from '../../dialog.js';
import { clock } from '../../format.js';
import { _, fill, num } from '../../i18n.js';
import { raceChangeText } from '../races/words.js';
import { statusText } from './players.js';
import { button } from './head.js';

/**
 * Where a player opens a racer's game replay from the results (pages/review.js): once the race
 * is over, a racer's every line links to that game's review; a watcher's none (the server would
 * not show them the games: docs/races.md, "After the race").
 * @param {Race} race @param {RacePlayer} p @param {string} me
 * @returns {string | null}
 */
export function replayHref(race, p, me) {
  const racer = race.players.some((q) => q.username === me);
  const game = p.username === me ? race.game ?? p.game : p.game;
  return race.state === 'finished' && racer && game ? `#/review/${encodeURIComponent(game)}` : null;
}

/** @param {RacePlayer} p @param {Race} race @param {string} me */
function row(p, race, me) {
  const count = (/** @type {number | null} */ n) => (n == null ? '–' : num(n));
  const change = p.rating ? raceChangeText(p.rating) : '–';
  const replay = replayHref(race, p, me);
  const name = replay ? `<a href="${esc(replay)}">${esc(p.name)}</a>` : esc(p.name);
  return `<tr${p.username === me ? ' class="mine"' : ''} data-player="${esc(p.username)}"><td data-testid="place">${count(p.place)}</td><td>${name}</td>
    <td data-testid="cards-left">${count(p.cards_left)}</td><td data-testid="race-time">${p.time_ms == null ? '–' : clock(p.time_ms)}</td>
    <td data-testid="player-status">${esc(statusText(p))}</td><td data-testid="rating-change">${change}</td></tr>`;
}

/** The player's own line, in words. @param {Race} race @param {string} me */
function mineText(race, me) {
  const mine = race.players.find((p) => p.username === me);
  if (!mine || mine.place == null) return '';
  const place = fill(_('You placed %(place)s of %(n)s.'), { place: num(mine.place), n: num(race.players.length) });
  return `<p data-testid="race-mine">${place}${mine.rating ? ' ' + fill(_('Rating: %(change)s'), { change: raceChangeText(mine.rating) }) : ''}</p>`;
}

/** @param {Race} race @param {string} me @param {string} title who won */
export function resultsHtml(race, me, title) {
  const played = race.players.some((p) => p.username === me && p.place != null);
  const head = ['#', _('Player'), _('Cards left'), _('Time'), _('Status'), _('Rating')];
  const buttons = [
    played ? button('rematch', race.rematch ? _('Join the rematch') : _('Rematch')) : '',
    `<a class="button secondary" href="#/races" data-testid="race-next">${_('Next race')}</a>`,
  ].join(' ');
  return `<h2 class="race-results-title">${esc(title)}</h2>${mineText(race, me)}
    <div class="board-out"><table class="board race-results-table"><caption class="sr-only">${_('Results')}</caption>
    <thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
    <tbody>${race.players.map((p) => row(p, race, me)).join('')}</tbody></table></div>
    <div class="race-results-actions">${buttons}</div>`;
}
