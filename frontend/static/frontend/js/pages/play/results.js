// What the results dialog says when a deal is over: the run, its rank, news, the player's
// statistics, and after a daily deal the text to share.

import { esc } from '../../dialog.js';
import { clock, pct, movesText } from '../../format.js';
import { _, fill, num } from '../../i18n.js';
import { dailyShareText } from '../../share.js';
import { rankingReason } from './screen.js';

// Why a run did not rank, and for a held run the way to its review (the fair-play page).
/** @param {GameView} v */
function whyNotRanked(v) {
  if (v.ranks) return '';
  const held = v.ranking_code === 'held' || v.ranking_code === 'flagged';
  const more = held
    ? ` <a href="/fair-play/" data-testid="fair-play-link">${_('How held runs are reviewed')}</a>`
    : v.ranking_code === 'guest' ? ` <a href="/accounts/signup/">${_('Sign up')}</a>` : '';
  return `<p class="why-not" data-testid="why-not-ranked">${esc(rankingReason(v))}${more}</p>`;
}

/** @param {string} k @param {unknown} val @param {string} [tid] */
const row = (k, val, tid) => `<div><dt>${k}</dt><dd${tid ? ` data-testid="${tid}"` : ''}>${esc(val)}</dd></div>`;

// -> {title, body, share}; `stats` (the player's overall statistics) may be null.
/**
 * @param {GameView} v
 * @param {Stats | null} stats
 * @param {string} layoutTitle
 * @returns {{title: string, body: string, share: string | null}}
 */
export function resultsContent(v, stats, layoutTitle) {
  /** @type {GameResult} */
  const res = v.result || {};
  const board = res.board;
  const rank = board ? fill(_('#%(rank)s of %(lines)s'), { rank: num(board.rank), lines: num(board.lines) }) : v.ranking_code === 'held' || v.ranking_code === 'flagged' ? _('Held for review') : v.ranks ? '–' : _('Not ranked');
  const news = (res.announcements || []).map((a) => `<li class="news">${esc(a.text)}</li>`).join('');
  const share = v.mode === 'daily' ? dailyShareText(v, board) : null;
  const body = `${news ? `<ul class="news-list">${news}</ul>` : ''}${whyNotRanked(v)}<dl class="results">
    ${row(_('Score'), v.score, 'result-score')}${row(_('Time'), clock(v.elapsed_ms))}${row(_('Moves'), v.moves)}
    ${row(_('Layout'), layoutTitle)}${row(_('Par'), v.deal && v.deal.par != null ? movesText(v.deal.par) : '–')}${row(_('Rank'), rank, 'result-rank')}
    ${row(_('Cards left'), v.cards_left)}</dl>
    ${stats ? `<h3>${_('Your statistics (ranked deals)')}</h3><dl class="results">${row(_('Wins'), stats.won)}${row(_('Losses'), stats.lost)}${row(_('Win rate'), pct(stats.win_rate))}
    ${row(_('Streak'), stats.current_streak)}${row(_('Best streak'), stats.best_streak)}${row(_('Daily streak'), stats.daily_streak)}${row(_('Best time'), stats.best_win_ms ? clock(stats.best_win_ms) : '–')}</dl>` : ''}
    ${share ? `<h3>${_('Share your result')}</h3><pre class="share-text" data-testid="share-text">${esc(share)}</pre>` : ''}`;
  return { title: v.status === 'won' ? _('You won!') : _('Deal over'), body, share };
}
