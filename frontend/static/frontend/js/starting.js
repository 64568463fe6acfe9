// Starting a deal from a page other than the table (home, layouts, numbered, custom): starting
// ends the deal in progress, and one with moves counts as lost, so the player is asked first.

import { currentGame } from './api.js';
import { openDialog, closeDialog, esc } from './dialog.js';
import { dealTitle, movesText } from './format.js';
import { _, fill } from './i18n.js';

// `from`: the control that asked, focused again when the player cancels.
/**
 * @param {AppContext} ctx
 * @param {DealRequest} body
 * @param {HTMLElement | null} [from]
 * @param {GameView | null} [current] the deal in progress when the page knows it (else asked)
 * @returns {Promise<void | null>}
 */
export async function startAsking(ctx, body, from = null, current = undefined) {
  const game = current === undefined ? await currentGame(ctx) : current;
  if (!game || game.moves === 0) return ctx.startGame(body);
  const back = () => { closeDialog(); if (from) from.focus(); };
  openDialog({
    id: 'resign-confirm', title: _('Leave your deal?'),
    body: `<p>${esc(fill(_('Your deal in progress (%(deal)s, %(moves)s) is not finished. Starting another ends it, and it counts as lost.'), { deal: dealTitle(game), moves: movesText(game.moves) }))}</p>`,
    buttons: [
      { label: _('Continue my deal'), primary: true, run: () => { closeDialog(); location.hash = '#/play'; } },
      { label: _('End it and start'), run: () => { closeDialog(); ctx.startGame(body); } },
      { label: _('Cancel'), run: back },
    ],
    cancel: back,
  });
  return null;
}
