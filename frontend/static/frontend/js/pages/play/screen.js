// The game page's markup: the game bar (menu, score, time, moves, stock, the deal's name, what the
// run counts for), the
// table's place, the row of tool buttons; and the pages shown instead when there is no game.

import { _, digits } from '../../i18n.js';
import { dealTitle, rankingReason } from '../../format.js';

export const signInFirst = () => `<section class="panel narrow"><h2>${_('Sign in to play')}</h2><p>${_('Anyone can look at the boards; playing keeps your scores, so it needs an account.')}</p>
  <p><a class="button" href="/accounts/login/?next=/%23/play">${_('Sign in')}</a> <a href="/accounts/signup/">${_('Create an account')}</a> <a href="/accounts/guest/">${_('Play as guest')}</a></p></section>`;

export const noGame = () => `<section class="panel narrow"><h2>${_('No deal in progress')}</h2><p><a class="button" href="#/">${_('Choose a deal')}</a></p></section>`;

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
/** @type {Record<string, () => string>} */
const RANKINGS = { 'first-try': () => _('Ranked: first try'), practice: () => _('Practice'), unranked: () => _('Unranked') };

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
  ranking.textContent = RANKINGS[v.ranking] ? RANKINGS[v.ranking]() : '';
  ranking.title = rankingReason(v);
  root.querySelector('[data-act=undo]')?.setAttribute('aria-disabled', String(!v.can_undo));
}
