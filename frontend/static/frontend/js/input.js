// The keyboard map of the table. keyAction is pure (tested with node --test); bindKeys wires it.

export const KEYS = {
  d: 'draw', ' ': 'draw',
  ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down',
  Enter: 'activate',
  z: 'undo', u: 'undo', Backspace: 'undo',
  h: 'hint', n: 'new', p: 'pause', Escape: 'pause',
};

// The action for a key event, or null (typing in a field, a modifier held, an unknown key).
export function keyAction(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const tag = e.target && e.target.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return null;
  const key = e.key && e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return KEYS[key] || null;
}

export function bindKeys(handler) {
  const onKey = (e) => {
    if (document.querySelector('dialog[open]')) return; // dialogs handle their own keys
    const action = keyAction(e);
    if (!action) return;
    // Enter on a focused control is that control's own click.
    if (action === 'activate' && e.target && e.target.tagName === 'BUTTON' && !e.target.closest('.table')) return;
    e.preventDefault();
    handler(action, e);
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
