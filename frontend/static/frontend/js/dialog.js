// One modal <dialog> at a time: title, body HTML and buttons; Esc runs the cancel action.

/** @type {HTMLDialogElement | null} */
let current = null;

export function closeDialog() {
  if (current) {
    const d = current;
    current = null;
    d.close();
    d.remove();
  }
}

/**
 * @param {object} spec
 * @param {string} spec.title HTML
 * @param {string} [spec.body] HTML
 * @param {DialogButton[]} [spec.buttons]
 * @param {(() => void) | null} [spec.cancel] Esc (and P)
 * @param {string} [spec.id] its data-testid
 * @param {boolean} [spec.wide]
 * @returns {HTMLDialogElement}
 */
export function openDialog({ title, body = '', buttons = [], cancel = null, id = 'dialog', wide = false }) {
  closeDialog();
  const d = document.createElement('dialog');
  d.className = 'dlg' + (wide ? ' wide' : '');
  d.dataset.testid = id;
  d.setAttribute('aria-labelledby', `${id}-title`);
  d.innerHTML = `<h2 id="${id}-title">${title}</h2><div class="dlg-body">${body}</div><div class="dlg-buttons"></div>`;
  const row = /** @type {HTMLElement} */ (d.querySelector('.dlg-buttons'));
  for (const b of buttons) {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = b.primary ? 'button' : 'button secondary';
    el.textContent = b.label;
    if (b.key) el.setAttribute('aria-keyshortcuts', b.key);
    if (b.id) el.dataset.testid = b.id;
    el.addEventListener('click', () => b.run());
    row.append(el);
  }
  d.addEventListener('cancel', (e) => {
    e.preventDefault();
    if (cancel) cancel();
  });
  d.addEventListener('keydown', (e) => {
    if ((e.key === 'p' || e.key === 'P') && cancel) { e.preventDefault(); cancel(); }
  });
  document.body.append(d);
  current = d;
  d.showModal();
  const first = d.querySelector('.dlg-buttons .button:not(.secondary)') || d.querySelector('button');
  if (first instanceof HTMLElement) first.focus();
  return d;
}

/** @param {string} [id] @returns {boolean} this one (or any) is open */
export const dialogOpen = (id) => Boolean(current && (!id || current.dataset.testid === id));

/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** @param {unknown} text @returns {string} HTML-escaped */
export function esc(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
