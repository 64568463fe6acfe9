// Parts of a page drawn again as frames and clocks come. Their HTML is written only when it
// changed: a button replaced while the player presses it loses the tap (the node under the finger
// is gone), and a focused link loses its focus.

/** @type {WeakMap<Element, string>} what each part was last drawn with */
const drawn = new WeakMap();

/**
 * Draw `html` into `el` unless it already shows exactly that.
 * @param {Element} el
 * @param {string} html
 */
export function paintHtml(el, html) {
  if (drawn.get(el) === html) return;
  drawn.set(el, html);
  el.innerHTML = html;
}

/**
 * Write `text` into `el` unless it already shows exactly that: a clock redrawn four times a second
 * changes its text once a second, and each write is the page's style, layout and paint again.
 * @param {HTMLElement} el
 * @param {string} text
 */
export function paintText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
