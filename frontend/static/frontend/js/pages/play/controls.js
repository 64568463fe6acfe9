// The keys (input.js's keyboard map) and the buttons of the game page, turned into the game's
// commands. keyCommand is pure (tested with node --test); bindControls wires keys and clicks.

import { bindKeys } from '../../input.js';
import { CONTEST_REFUSED, over } from './moves.js';

const DIRECTIONS = ['left', 'right', 'up', 'down'];

/**
 * The command for a key's action (input.js KEYS), given the place that has the table's focus.
 * @param {string} action
 * @param {number | 'stock' | null} focusId
 * @param {GameView} v
 * @returns {Command}
 */
export function keyCommand(action, focusId, v) {
  // A contest's table has no undo, hint, pause or new deal, by key or by button.
  if (v.contest && (action === 'new' || CONTEST_REFUSED.includes(action))) return null;
  if (action === 'draw') return { act: 'draw' };
  if (DIRECTIONS.includes(action)) return { move: /** @type {Direction} */ (action) };
  if (action === 'activate') {
    if (focusId === null) return { move: 'right' };
    if (focusId === 'stock') return { act: 'draw' };
    return { play: focusId };
  }
  if (action === 'undo' || action === 'hint') return { act: action };
  if (action === 'new') return { newDeal: true };
  // P and Esc open the menu, which pauses; the menu's own Esc resumes.
  if (action === 'pause') return !v.paused && !over(v) ? { act: 'pause' } : null;
  return null;
}

/**
 * @param {HTMLElement} root the game screen (screen.js gameScreen)
 * @param {Commands} game
 * @returns {() => void} unbinds the keys (the buttons go with the page)
 */
export function bindControls(root, game) {
  /** @param {Command} c */
  const run = (c) => {
    if (!c) return;
    if ('act' in c) game.act(c.act);
    else if ('move' in c) game.move(c.move);
    else if ('play' in c) game.playCard(c.play);
    else game.newDeal();
  };
  const unbind = bindKeys((action) => run(keyCommand(action, game.focusId(), game.view())));
  const topbar = /** @type {HTMLElement} */ (root.querySelector('.topbar'));
  topbar.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('[data-act=pause]')) game.act('pause');
  });
  // A contest's table has no tool row (screen.js).
  root.querySelector('.controls')?.addEventListener('click', (e) => {
    const b = e.target instanceof Element ? e.target.closest('[data-act]') : null;
    if (!(b instanceof HTMLElement)) return;
    if (b.dataset.act === 'new') game.newDeal();
    else game.act(/** @type {Action} */ (b.dataset.act));
  });
  return unbind;
}
