// The game page's markup: the game bar (menu, score, time, moves, stock, the deal's name, what the
// run counts for), the table's place, the row of tool buttons.

import { _, digits } from '../../i18n.js';
import { dealTitle } from '../../format.js';

/** @param {string} act @param {string} icon @param {string} label @param {string} [keys] */
const tool = (act, icon, label, keys = '') => `<button type="button" class="tool" data-act="${act}"${keys ? ` aria-keyshortcuts="${keys}"` : ''}><span class="ico" aria-hidden="true">${icon}</span><span class="lbl">${label}</span></button>`;

// A contest's table (a race's, an arena's: `contest`) has no menu (it pauses) and no tools: no
// undo, hint, start again or new deal; the contest's own page has its way out.
/** @param {boolean} contest */
export const gameScreen = (contest) => `<section class="play" aria-label="${_('Game')}">
    <div class="topbar">
      ${contest ? '' : `<button type="button" class="icon" data-act="pause" aria-label="${_('Menu (pauses the game)')}" aria-keyshortcuts="P Escape">☰</button>`}
      <dl class="scores">
        <div><dt>${_('Score')}</dt><dd data-testid="score">0</dd></div>
        <div><dt>${_('Time')}</dt><dd data-testid="time">0:00</dd></div>
        <div><dt>${_('Moves')}</dt><dd data-testid="moves">0</dd></div>
        <div><dt>${_('Stock')}</dt><dd data-testid="stock-left">0</dd></div>
      </dl>
      <span class="deal-title" data-testid="deal-title"></span>
      <span class="ranking" data-testid="ranking"></span>
    </div>
    <div class="table-wrap"></div>
    ${contest ? '' : `<div class="controls" role="toolbar" aria-label="${_('Game controls')}">
      ${tool('undo', '↶', _('Undo'), 'Z U Backspace')}
      ${tool('hint', '?', _('Hint'), 'H')}
      ${tool('restart', '⟲', _('Start again'))}
      ${tool('new', '+', _('New deal'), 'N')}
    </div>`}
    <p class="sr-only" aria-live="polite" data-testid="announce"></p>
    <p class="conn" data-testid="connection" hidden>${_('Reconnecting…')}</p>
  </section>`;

// The game bar and the Undo button after a view.
/** @type {Record<string, () => string>} what the run counts for, by the server's `ranking_code` */
const RANKINGS = {
  'first-try': () => _('Ranked: first try'),
  practice: () => _('Practice'),
  guest: () => _('Guest: not ranked'),
  hint: () => _('Unranked: hint taken'),
  answer_seen: () => _('Unranked: answer seen'),
  custom: () => _('Unranked: custom deal'),
  shipped: () => _('Unranked: shipped deal'),
  contest: () => _('Contest'),
  held: () => _('Held for review'),
  flagged: () => _('Held for review'),
  excluded: () => _('Not ranked'),
};

/** @type {Record<string, () => string>} why, in full (the label's title, the results) */
export const RANKING_REASONS = {
  'first-try': () => _('Your first try at this deal: it ranks.'),
  practice: () => _('Practice: you played this deal before. A better run still improves your best.'),
  guest: () => _('A guest\'s runs count in its own statistics but never rank on a leaderboard. Sign up to rank: your games stay yours.'),
  hint: () => _('You took a hint on this deal, so no run on it ranks.'),
  answer_seen: () => _('You opened the solver\'s line for this deal, so no run on it ranks.'),
  custom: () => _('Custom deals never rank.'),
  shipped: () => _('A deal shipped with the game for a fresh start: anyone can read it, so it never ranks.'),
  contest: () => _('A contest: your place comes from the contest, not from the deal boards.'),
  held: () => _('Held for review: another account played this deal today from the same browser or network. Staff decide; until then only you see the run.'),
  flagged: () => _('Held for review: the timing check found moves faster or steadier than people play. Staff decide; until then only you see the run.'),
  excluded: () => _('This account is off the boards.'),
};

/** @param {GameView} v @returns {string} why the run ranks or not, in the player's words */
export const rankingReason = (v) => (RANKING_REASONS[v.ranking_code] ? RANKING_REASONS[v.ranking_code]() : v.ranking_reason || '');

/** @param {HTMLElement} root @param {GameView} v */
export function showScores(root, v) {
  /** @param {string} sel */
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  $('[data-testid=score]').textContent = digits(v.score);
  $('[data-testid=moves]').textContent = digits(v.moves);
  $('[data-testid=stock-left]').textContent = digits(v.stock_left);
  $('[data-testid=deal-title]').textContent = dealTitle(v);
  // Fair play: what this run counts for, said before the first move (the full reason on hover).
  const ranking = $('[data-testid=ranking]');
  ranking.textContent = RANKINGS[v.ranking_code] ? RANKINGS[v.ranking_code]() : '';
  ranking.dataset.code = v.ranking_code || '';
  ranking.title = rankingReason(v);
  root.querySelector('[data-act=undo]')?.setAttribute('aria-disabled', String(!v.can_undo));
}
