// The statistics' recent games (GET /api/me/games): each finished game with its result and a
// link to its review (pages/review.js), and what the review's analysis has come to.

import { api } from '../../api.js';
import { esc } from '../../dialog.js';
import { clock, dayText, layoutTitle, movesText } from '../../format.js';
import { _ } from '../../i18n.js';
import { dealName, reviewStateText } from '../review/words.js';

/** @param {RecentGame} g */
function row(g) {
  const result = g.status === 'won' ? _('Won') : _('Lost');
  const finished = dayText((g.finished_at || '').slice(0, 10));
  return `<tr data-game="${esc(g.id)}"><td>${esc(dealName(g.deal))}<br><span class="small">${esc(layoutTitle(g.layout))} · ${esc(finished)}</span></td>
    <td>${result}<br><span class="small">${movesText(g.moves)} · ${clock(g.elapsed_ms)}</span></td>
    <td><a href="#/review/${encodeURIComponent(g.id)}" data-testid="review-link">${_('Review')}</a><br><span class="small">${esc(reviewStateText(g.review))}</span></td></tr>`;
}

/** @param {RecentGame[]} games */
export function recentGamesTable(games) {
  if (!games.length) return `<p class="empty">${_('No finished games yet.')}</p>`;
  const head = [_('Game'), _('Result'), _('Review')];
  return `<table class="board recent-games"><caption class="sr-only">${_('Recent games')}</caption>
    <thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${games.map(row).join('')}</tbody></table>`;
}

/** Fills `out` with the player's recent games (a word instead when they cannot be read). @param {HTMLElement} out */
export async function recentGames(out) {
  try {
    /** @type {{games: RecentGame[]}} */
    const data = await api('me/games?limit=20');
    out.innerHTML = recentGamesTable(data.games);
  } catch {
    out.innerHTML = `<p class="empty">${_('Something went wrong: please reload the page.')}</p>`;
  }
}
