// The page's first judgement of a player's move, pure (tested with node --test): what the view in
// hand already says is refused at once (a shake and a word, nothing sent) or asked about first;
// everything else goes to the server, which stays the judge. While moves are queued (`busy`) the
// view may be stale, so only what no answer can change is refused then.

import { cardName } from '../../format.js';
import { _, fill } from '../../i18n.js';

/** @param {GameView} v */
export const over = (v) => v.status === 'won' || v.status === 'lost';

/**
 * Whether the run can rank, as the server says (`ranks`: not a guest's, a custom deal, a contest's,
 * or one on a deal whose hint was seen); a hint asks first only then.
 * @param {GameView} v
 */
export const ranked = (v) => Boolean(v.ranks) && !v.assisted;

/**
 * What a contest's game (a race, an arena) never takes: everybody has the same deal and the clock
 * is everybody's. The server refuses them as well; the page shows no control for them.
 */
export const CONTEST_REFUSED = ['undo', 'hint', 'restart', 'pause'];

/** @type {Verdict} */
const SEND = { kind: 'send' };
/** @type {Verdict} */
const IGNORE = { kind: 'ignore' };

/**
 * A card clicked, tapped, dropped on the waste or played from the keyboard.
 * @param {GameView} v
 * @param {number} p its position
 * @param {QueueState} queue
 * @returns {Verdict}
 */
export function cardVerdict(v, p, { busy, starting }) {
  if (starting || v.paused || over(v)) return IGNORE;
  const pos = v.positions[p];
  if (!pos || pos.removed) return IGNORE;
  // Obvious misfits shake at once; the server stays the judge of everything else.
  if (!busy && !v.playable.includes(p)) {
    const say = pos.card
      ? fill(pos.free ? _('The %(card)s does not fit') : _('The %(card)s is covered'), { card: cardName(pos.card) })
      : _('That card is face down');
    return { kind: 'refuse', shake: p, say };
  }
  return SEND;
}

/**
 * Draw, undo, hint, start again, pause, resume, resign.
 * @param {GameView} v
 * @param {Action} action
 * @param {QueueState} queue
 * @returns {Verdict}
 */
export function actionVerdict(v, action, { busy, starting }) {
  if (starting || over(v)) return IGNORE;
  if (v.contest && CONTEST_REFUSED.includes(action)) return IGNORE;
  if (action === 'draw' && !busy && (v.stock_left === 0 || v.paused)) {
    return { kind: 'refuse', shake: 'stock', say: _('The stock is empty') };
  }
  if (action === 'undo' && !busy && !v.can_undo) return { kind: 'refuse', shake: null, say: _('Nothing to undo') };
  if (v.paused && action !== 'resume' && action !== 'resign') return IGNORE;
  // The first hint of a ranked run asks first: it takes the run off the boards.
  if (action === 'hint' && ranked(v) && !busy) return { kind: 'ask', first: 'hint' };
  if (action === 'restart' && v.moves > 0) return { kind: 'ask', first: 'restart' };
  return SEND;
}
