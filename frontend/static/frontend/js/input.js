// The keyboard map of the table. keyAction is pure (tested with node --test); bindKeys wires it.

/** @type {Record<string, string>} */
export const KEYS = {
  d: 'draw', ' ': 'draw',
  ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down',
  Enter: 'activate',
  z: 'undo', u: 'undo', Backspace: 'undo',
  h: 'hint', n: 'new', p: 'pause', Escape: 'pause',
};

// The action for a key event, or null (typing in a field, a modifier held, an unknown key).
/**
 * @param {{key: string, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean, target?: EventTarget | null}} e a keydown event (or its likeness in the unit tests)
 * @returns {string | null}
 */
export function keyAction(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const target = /** @type {Element | null | undefined} */ (e.target);
  const tag = target && target.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return null;
  const key = e.key && e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const action = KEYS[key] || null;
  // Space and Enter on a focused control (Undo, Hint, a link) press that control; on the table
  // they stay the table's (Space draws, Enter plays the focused card or draws on the stock).
  if ((key === ' ' || key === 'Enter') && onControl(target)) return null;
  return action;
}

/** @param {Element | null | undefined} target */
function onControl(target) {
  if (!target || (target.tagName !== 'BUTTON' && target.tagName !== 'A')) return false;
  return !(target.closest && target.closest('.table .pc'));
}

/**
 * @param {(action: string, e: KeyboardEvent) => void} handler
 * @returns {() => void} unbinds
 */
export function bindKeys(handler) {
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (document.querySelector('dialog[open]')) return; // dialogs handle their own keys
    const action = keyAction(e);
    if (!action) return;
    e.preventDefault();
    handler(action, e);
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
