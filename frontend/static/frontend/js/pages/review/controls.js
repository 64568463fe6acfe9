// The review's keys, buttons, slider, speed, list, strip and swipes, wired to its player.

import { dialogOpen } from '../../dialog.js';
import { reviewKey, swipe } from './stepper.js';

/** @typedef {import('./player.js').ReviewPlayer} ReviewPlayer */
/** @typedef {import('./stepper.js').StepCommand} StepCommand */

/** @param {Element | null} el @returns {string} what reviewKey needs of the focused element */
function focusedKind(el) {
  if (!el) return '';
  const tag = el.tagName.toLowerCase();
  return tag === 'input' ? `input:${/** @type {HTMLInputElement} */ (el).type}` : tag;
}

/**
 * @param {HTMLElement} root the review's screen
 * @param {ReviewPlayer} player
 * @returns {() => void} unbinds what outlives the page (the keys)
 */
export function bindReview(root, player) {
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (dialogOpen() || !root.isConnected) return;
    const command = reviewKey(e, focusedKind(document.activeElement));
    if (!command) return;
    e.preventDefault();
    player.command(command);
  };
  document.addEventListener('keydown', onKey);
  root.querySelector('.review-controls')?.addEventListener('click', (e) => {
    const b = e.target instanceof Element ? e.target.closest('[data-act]') : null;
    if (b instanceof HTMLElement) player.command(/** @type {StepCommand} */ (b.dataset.act));
  });
  const slider = /** @type {HTMLInputElement} */ (root.querySelector('[data-testid=review-slider]'));
  slider.addEventListener('input', () => { player.pause(); player.show(Number(slider.value)); });
  const speed = /** @type {HTMLSelectElement} */ (root.querySelector('[data-testid=review-speed]'));
  speed.addEventListener('change', () => player.setSpeed(Number(speed.value)));
  for (const sel of ['.review-list', '.review-strip']) {
    root.querySelector(sel)?.addEventListener('click', (e) => {
      const at = e.target instanceof Element ? e.target.closest('[data-jump]') : null;
      if (at instanceof HTMLElement) { player.pause(); player.show(Number(at.dataset.jump)); }
    });
  }
  bindSwipe(/** @type {HTMLElement} */ (root.querySelector('.review-table')), player);
  return () => document.removeEventListener('keydown', onKey);
}

/** A swipe across the table steps (left: the next move; right: the one before). @param {HTMLElement} el @param {ReviewPlayer} player */
function bindSwipe(el, player) {
  /** @type {{x: number, y: number, id: number} | null} */
  let start = null;
  el.addEventListener('pointerdown', (e) => { start = { x: e.clientX, y: e.clientY, id: e.pointerId }; });
  el.addEventListener('pointercancel', () => { start = null; });
  el.addEventListener('pointerup', (e) => {
    if (!start || start.id !== e.pointerId) return;
    const command = swipe(e.clientX - start.x, e.clientY - start.y);
    start = null;
    if (command) player.command(command);
  });
}
