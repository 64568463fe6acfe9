// Copying a link or a result to the clipboard, with word on the button that it worked; the text
// shared after a daily deal.

import { _, fill, num } from './i18n.js';
import { clock, movesText, rulesTitle, cardsLeftText } from './format.js';

/** @param {string} text @param {HTMLElement} button */
export async function copyText(text, button) {
  const was = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = _('Copied');
  } catch {
    button.textContent = _('Select the text and copy it');
  }
  setTimeout(() => { button.textContent = was; }, 2000);
}

// The spoiler-free word on a daily deal: day, rule set, result, time, moves, rank; no card.
/**
 * @param {GameView} v a finished daily deal
 * @param {BoardPlace | null | undefined} board
 */
export function dailyShareText(v, board) {
  const result = v.status === 'won'
    ? fill(_('Won in %(time)s with %(moves)s'), { time: clock(v.elapsed_ms), moves: movesText(v.moves) })
    : fill(_('%(left)s after %(moves)s, %(time)s'), { left: cardsLeftText(v.cards_left), moves: movesText(v.moves), time: clock(v.elapsed_ms) });
  const rank = board ? fill(_('Rank %(rank)s of %(lines)s'), { rank: num(board.rank), lines: num(board.lines) }) : _('Not ranked');
  return [
    fill(_('TriPeaks Online · daily deal %(day)s'), { day: v.day }),
    rulesTitle(v.rules),
    `${result} · ${rank}`,
  ].join('\n');
}
