// The move list and the analysis strip: one entry per position (the deal, then each move), each
// marked by the solver's verdict once the analysis is in, the losing move highlighted, the one on
// the table current. The list is the way in for the keyboard and screen readers; the strip is
// the same marks at a glance (a click or tap on it jumps there too).

import { esc } from '../../dialog.js';
import { _, num } from '../../i18n.js';
import { moveText, verdictText } from './marks.js';

/** @typedef {import('./marks.js').PositionMark} PositionMark */

/** The words said with the losing move, on the list, the strip and the move's line. */
export const lostHere = () => _('From here the deal was lost');

/** @param {ReplayPayload} r @param {number} i a position @returns {string} what led to it */
export function positionText(r, i) {
  return i === 0 ? _('The deal') : moveText(r.moves[i - 1], r.positions[i - 1], r.positions[i]);
}

/** @param {ReplayPayload} r */
export function listHtml(r) {
  return r.positions.map((_p, i) => `<li data-i="${i}"><button type="button" class="review-item" data-jump="${i}">` +
    `<span class="review-n" aria-hidden="true">${i ? num(i) : '•'}</span> <span class="review-what">${esc(positionText(r, i))}</span>` +
    '<span class="mark" aria-hidden="true"></span><span class="sr-only review-verdict"></span><span class="review-badge"></span></button></li>').join('');
}

/** @param {number} moves */
export const stripHtml = (moves) => Array.from({ length: moves + 1 }, (_x, i) => `<span class="cell" data-jump="${i}"></span>`).join('');

/**
 * The verdicts on the list and the strip.
 * @param {HTMLElement} root @param {PositionMark[]} marks
 */
export function showMarks(root, marks) {
  const cells = root.querySelectorAll('.review-strip .cell');
  const items = /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('.review-list li'));
  marks.forEach((m, i) => {
    for (const el of [cells[i], items[i]]) {
      if (!el) continue;
      el.classList.remove('v-winnable', 'v-lost', 'v-unknown');
      if (m.verdict) el.classList.add(`v-${m.verdict}`);
      el.classList.toggle('losing', m.losing);
      el.classList.toggle('shorter', m.shorter);
    }
    const item = items[i];
    if (!item) return;
    /** @type {HTMLElement} */ (item.querySelector('.review-verdict')).textContent = m.verdict ? `: ${verdictText(m.verdict)}` : '';
    const badge = /** @type {HTMLElement} */ (item.querySelector('.review-badge'));
    badge.textContent = m.losing ? lostHere() : m.shorter ? _('A shorter win began here') : '';
    if (m.losing) item.dataset.testid = 'losing-move';
    else delete item.dataset.testid;
  });
}

/**
 * The position on the table, current on the list and the strip (the list scrolled to it).
 * @param {HTMLElement} root @param {number} index
 */
export function showCurrent(root, index) {
  for (const el of root.querySelectorAll('.review-list [aria-current], .review-strip .current')) {
    el.removeAttribute('aria-current');
    el.classList.remove('current');
  }
  root.querySelectorAll('.review-strip .cell')[index]?.classList.add('current');
  const button = /** @type {HTMLElement | undefined} */ (root.querySelectorAll('.review-list button')[index]);
  if (!button) return;
  button.setAttribute('aria-current', 'step');
  const list = /** @type {HTMLElement} */ (root.querySelector('.review-list'));
  const top = button.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - button.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
}
