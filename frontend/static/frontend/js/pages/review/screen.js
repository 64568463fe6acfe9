// The review's markup: the stage (the game's bar, the table, the move in words, the analysis
// strip, the slider and the controls) and beside or under it the analysis and the move list.

import { esc } from '../../dialog.js';
import { _, digits } from '../../i18n.js';
import { SPEEDS } from './stepper.js';

// The controls' icons, drawn (the system's fonts lack some media symbols).
/** @type {Record<string, string>} */
export const ICONS = {
  home: 'M4 5h2v14H4zM14 5v14l-7-7zM21 5v14l-7-7z',
  back: 'M17 5v14L8 12zM6 5h2v14H6z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 5h4v14H6zM14 5h4v14h-4z',
  step: 'M7 5v14l9-7zM16 5h2v14h-2z',
  end: 'M3 5v14l7-7zM10 5v14l7-7zM18 5h2v14h-2z',
};

/** @param {string} name one of ICONS */
export const icon = (name) => `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${ICONS[name]}"/></svg>`;

/** @param {string} act @param {string} label @param {string} keys */
const tool = (act, label, keys) => `<button type="button" class="tool" data-act="${act}" aria-keyshortcuts="${keys}"><span class="ico" aria-hidden="true">${icon(act === 'toggle' ? 'play' : act)}</span><span class="lbl">${label}</span></button>`;

/** @param {ReplayGame} game @returns {string} won or lost, in words */
export const resultText = (game) => (game.status === 'won' ? _('Won') : _('Lost'));

/**
 * @param {ReplayPayload} replay
 * @param {{title: string, back: string}} words the deal's title, where "Close" goes
 */
export function reviewScreen(replay, words) {
  const n = replay.moves.length;
  return `<div class="review-grid">
  <section class="play review-stage" aria-labelledby="review-h">
    <div class="topbar review-bar">
      <a class="icon review-close" href="${esc(words.back)}" aria-label="${_('Close the review')}">✕</a>
      <h2 id="review-h" class="review-title"><span class="sr-only">${_('Review')}: </span><span data-testid="review-title">${esc(words.title)}</span>
        <span class="review-who">${esc(replay.game.player.name)} · <span data-testid="review-result">${esc(resultText(replay.game))}</span></span></h2>
      <dl class="scores">
        <div><dt>${_('Move')}</dt><dd data-testid="review-at">0/${digits(n)}</dd></div>
        <div><dt>${_('Time')}</dt><dd data-testid="review-time">0:00</dd></div>
        <div><dt>${_('Stock')}</dt><dd data-testid="review-stock">0</dd></div>
      </dl>
    </div>
    <div class="table-wrap review-table"></div>
    <p class="review-line" data-testid="review-move" aria-live="polite"></p>
    <div class="review-strip" data-testid="review-strip" aria-hidden="true"></div>
    <label class="review-slider"><span class="sr-only">${_('Jump to a move')}</span>
      <input type="range" min="0" max="${n}" step="1" value="0" data-testid="review-slider"></label>
    <div class="controls review-controls" role="toolbar" aria-label="${_('Game controls')}">
      ${tool('home', _('Start'), 'Home')}
      ${tool('back', _('Back'), 'ArrowLeft')}
      ${tool('toggle', _('Play'), 'Space')}
      ${tool('step', _('Step'), 'ArrowRight')}
      ${tool('end', _('End'), 'End')}
      <label class="tool review-speed"><span class="lbl">${_('Speed')}</span>
        <select data-testid="review-speed">${SPEEDS.map((s) => `<option value="${s}">${digits(s)}×</option>`).join('')}</select></label>
    </div>
  </section>
  <div class="review-side">
    <section class="panel review-share" aria-labelledby="share-h" hidden>
      <h2 id="share-h">${_('Share this review')}</h2>
      <p>${_('Anyone with the link can watch this game, signed out too.')}</p>
      <p class="review-share-row"><button type="button" class="button" data-testid="review-share">${_('Copy link')}</button>
        <button type="button" class="button secondary" data-testid="review-unshare" hidden>${_('Stop sharing')}</button></p>
      <p class="small review-share-link" data-testid="review-share-link" hidden></p>
    </section>
    <section class="panel review-analysis" aria-labelledby="analysis-h" data-testid="review-analysis">
      <h2 id="analysis-h">${_('Analysis')}</h2>
      <div class="review-analysis-out" aria-live="polite"><p>${_('Loading…')}</p></div>
    </section>
    <section class="panel review-moves" aria-labelledby="moves-h">
      <h2 id="moves-h">${_('Moves')}</h2>
      <ol class="review-list" data-testid="review-list" start="0"></ol>
    </section>
  </div>
</div>`;
}

/** The page when the game cannot be shown: it does not exist, or may not be seen (yet). @param {boolean} shared */
export function notShown(shared) {
  const why = shared
    ? _('This link does not work.')
    : _('Nothing to review here.');
  return `<section class="panel" data-testid="review-missing"><h2>${_('Game review')}</h2><p>${why}</p>
    <p><a href="#/stats">${_('Recent games')}</a> · <a href="#/">${_('Home')}</a></p></section>`;
}
