// Where the review stands and where a key, a button or a swipe takes it (pure, no DOM, no timer):
// position i is the table after move i (0 is the deal), from 0 to the number of moves.

/** @typedef {'back' | 'step' | 'home' | 'end' | 'toggle'} StepCommand */

// Play at speed: one move a STEP_MS at 1x, twice as fast at 2x, four times at 4x.
export const SPEEDS = [1, 2, 4];
export const STEP_MS = 900;

/** @param {number} speed one of SPEEDS @returns {number} ms between two moves */
export const stepDelay = (speed) => Math.round(STEP_MS / (SPEEDS.includes(speed) ? speed : 1));

/** @type {Record<string, StepCommand>} */
const KEYS = { ArrowLeft: 'back', ArrowRight: 'step', Home: 'home', End: 'end', ' ': 'toggle', Spacebar: 'toggle' };

/**
 * The command of a key pressed on the review, or null: none with a modifier, and none on a
 * control that takes the key itself (the slider its arrows and Home/End, a button or a link its
 * Space, a select or a field everything).
 * @param {{key: string, altKey?: boolean, ctrlKey?: boolean, metaKey?: boolean}} e
 * @param {string} [on] the focused element's tag, lower case ('input', 'button', ...), and its
 *   type for an input ('input:range')
 * @returns {StepCommand | null}
 */
export function reviewKey(e, on = '') {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  const command = KEYS[e.key] || null;
  if (!command) return null;
  if (on === 'select' || on === 'textarea' || (on.startsWith('input') && on !== 'input:range')) return null;
  if (on === 'input:range' && command !== 'toggle') return null;
  if ((on === 'button' || on === 'a') && command === 'toggle') return null;
  return command;
}

/**
 * The position a command goes to from `index` (`toggle` stays: it starts or stops the play).
 * @param {number} index @param {StepCommand} command @param {number} last the number of moves
 */
export function stepTo(index, command, last) {
  const to = command === 'back' ? index - 1 : command === 'step' ? index + 1 : command === 'home' ? 0 : command === 'end' ? last : index;
  return Math.max(0, Math.min(last, to));
}

/**
 * Play at speed from `index`: from the end it starts over from the deal.
 * @param {number} index @param {number} last @returns {number} where the play starts
 */
export const playFrom = (index, last) => (index >= last ? 0 : index);

// A swipe is a stroke at least this long (px), more across than up or down.
const SWIPE_PX = 40;

/**
 * A swipe on the table: to the left shows the next move (as a page turns), to the right the one
 * before; a tap or a stroke up or down is none.
 * @param {number} dx @param {number} dy @returns {'step' | 'back' | null}
 */
export function swipe(dx, dy) {
  if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  return dx < 0 ? 'step' : 'back';
}
