// The review's words and marks (pure): each move in words, each position marked by the solver's
// verdict, the losing move, and what the analysis says of the whole game (par, over par, where a
// shorter line was).

import { cardName, movesText } from '../../format.js';
import { _, fill, num } from '../../i18n.js';

/**
 * Move `i` (1-based) in words, from the positions before and after it.
 * @param {ReplayMove} move @param {ReplayPosition} before @param {ReplayPosition} after
 */
export function moveText(move, before, after) {
  if (move.action === 'play') {
    const card = (move.position != null && before.positions[move.position]?.card) || after.waste;
    return fill(_('Played the %(card)s'), { card: cardName(card) });
  }
  if (move.action === 'draw') return fill(_('Drew the %(card)s'), { card: cardName(after.waste) });
  if (move.action === 'undo') return _('Took back a move');
  return _('Started again');
}

/** @type {Record<ReviewVerdict, () => string>} a position's verdict, in words */
const VERDICTS = {
  winnable: () => _('Still winnable'),
  lost: () => _('Lost: no way to win from here'),
  unknown: () => _('Not known: over the budget'),
};

/** @param {ReviewVerdict | undefined} v @returns {string} */
export const verdictText = (v) => (v && VERDICTS[v] ? VERDICTS[v]() : '');

/**
 * @typedef {object} PositionMark
 * @property {ReviewVerdict | null} verdict null while the analysis is not ready
 * @property {boolean} losing the move that lost the deal led here
 * @property {boolean} shorter a shorter line to a win started here
 */

/**
 * Each position's mark, 0 (the deal) to the number of moves; verdicts that do not fit the game
 * (another length) mark nothing.
 * @param {number} moves @param {AnalysisPayload | null} a
 * @returns {PositionMark[]}
 */
export function positionMarks(moves, a) {
  const fits = Boolean(a && a.verdicts.length === moves + 1);
  return Array.from({ length: moves + 1 }, (_x, i) => ({
    verdict: a && fits ? a.verdicts[i] : null,
    losing: Boolean(a && fits && a.losing_move === i),
    shorter: Boolean(a && fits && a.shorter_from === i && i > 0),
  }));
}

/**
 * What the analysis says of the game, in sentences (each one line of the summary), with the
 * test id of each.
 * @param {ReplayGame} game @param {AnalysisPayload} a
 * @returns {{id: string, text: string}[]}
 */
export function summary(game, a) {
  /** @type {{id: string, text: string}[]} */
  const lines = [];
  const last = a.verdicts[a.verdicts.length - 1];
  if (a.losing_move != null) {
    lines.push({ id: 'lost-at', text: fill(_('The deal was lost at move %(n)s.'), { n: num(a.losing_move) }) });
  } else if (game.status !== 'won' && a.verdicts[0] === 'lost') {
    lines.push({ id: 'lost-at', text: _('This deal could not be won from the start.') });
  } else if (game.status !== 'won' && last === 'winnable') {
    lines.push({ id: 'lost-at', text: _('The deal could still be won at the end.') });
  } else if (game.status !== 'won' && a.verdicts.includes('unknown')) {
    lines.push({ id: 'lost-at', text: _('Where the deal was lost is not known.') });
  }
  if (a.par != null) lines.push({ id: 'par', text: fill(_('Par: %(moves)s from the deal.'), { moves: movesText(a.par) }) });
  if (game.status === 'won' && a.over_par != null) {
    lines.push({ id: 'over-par', text: a.over_par > 0 ? fill(_('You won in %(over)s over par.'), { over: movesText(a.over_par) }) : _('You won in par.') });
  }
  if (game.status === 'won' && a.shorter_from != null) {
    lines.push({ id: 'shorter', text: a.shorter_from === 0 ? _('A shorter win existed from the deal.') : fill(_('A shorter win existed from move %(n)s.'), { n: num(a.shorter_from) }) });
  }
  return lines;
}

/**
 * One move of a line in words.
 * @param {LineToken} token @param {string | null} card the card played, when it was seen in the game
 */
export function lineStepText(token, card) {
  if (token === 'draw') return _('Draw from the stock');
  return card ? fill(_('Play the %(card)s'), { card: cardName(card) }) : _('Play an unseen card');
}
