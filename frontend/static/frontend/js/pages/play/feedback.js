// What a new view says to the player beyond the table, pure (tested with node --test): the sound
// and the words for the change from the view before (a card played or drawn, an undo), and the
// hint asked for (the place that glows and its words).

import { cardName } from '../../format.js';
import { _, fill } from '../../i18n.js';

/**
 * @param {GameView | null} prev the view the page showed
 * @param {GameView} v the new one
 * @param {ViewExtra} [extra]
 * @returns {Feedback}
 */
export function feedback(prev, v, extra = {}) {
  /** @type {Feedback} */
  const out = { sound: null, say: null, glow: undefined };
  // Only a move on this game since the view before (not a resync, a reload or a new deal).
  if (prev && prev.id === v.id && prev.seq < v.seq && !extra.resynced) {
    if (v.waste !== prev.waste && v.waste) {
      out.sound = v.stock_left < prev.stock_left ? 'draw' : 'play';
      out.say = fill(_('Waste: %(card)s'), { card: cardName(v.waste) });
    } else if (v.moves > prev.moves) out.sound = 'undo';
  }
  if (extra.hint) {
    const m = extra.hint.move;
    if (!m) {
      out.glow = null;
      out.say = extra.hint.certain === false ? _('No certain hint in time: try again in a moment') : _('No move helps any more');
    } else if (m.action === 'draw') {
      out.glow = 'stock';
      out.say = _('Hint: draw from the stock');
    } else {
      out.glow = m.position;
      out.say = fill(_('Hint: play the %(card)s'), { card: cardName(v.positions[m.position].card) });
    }
  }
  return out;
}
