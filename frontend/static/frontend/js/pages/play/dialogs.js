// The game page's dialogs: the menu (pause), No more moves, New deal, the questions before a
// first hint and before starting again, and the results. Each is a function of `game`, what they
// act on: {view(), act(action), push(action), focusTable(), startDeal(body), ctx, layout};
// `gameDialogs(game)` binds them to it.

import { openDialog, closeDialog, dialogOpen, esc } from '../../dialog.js';
import { _, fill } from '../../i18n.js';
import * as sound from '../../sound.js';
import { copyText } from '../../share.js';
import { resultsContent } from './results.js';
import { layoutTitle } from '../../format.js';

/** @param {string} hash */
const go = (hash) => () => { closeDialog(); location.hash = hash; };

// The first hint of a ranked run asks first: it takes the run off the boards.
/** @param {DialogGame} game */
function hintFirst(game) {
  const back = () => { closeDialog(); game.focusTable(); };
  openDialog({
    id: 'hint-warning', title: _('Take a hint?'),
    body: `<p>${_('A hint takes this run off the leaderboards: it will not be ranked. Your statistics still count it.')}</p>`,
    buttons: [
      { label: _('Show a hint'), primary: true, run: () => { back(); game.push('hint'); } },
      { label: _('Keep it ranked'), run: back },
    ],
    cancel: back,
  });
}

// `after`: the dialog to go back to when the player thinks better of it.
/** @param {DialogGame} game @param {(() => void) | null} [after] */
function restartFirst(game, after = null) {
  const back = () => { closeDialog(); if (after) after(); else game.focusTable(); };
  openDialog({
    id: 'restart-confirm', title: _('Start again?'),
    body: `<p>${_('All the cards go back where they were dealt and your moves are undone. The clock keeps running.')}</p>`,
    buttons: [
      { label: _('Start again'), primary: true, run: () => {
        closeDialog(); game.focusTable();
        if (game.view().paused) game.push('resume');
        game.push('restart');
      } },
      { label: _('Cancel'), run: back },
    ],
    cancel: back,
  });
}

/** @param {DialogGame} game */
function pauseMenu(game) {
  if (dialogOpen('pause')) return;
  const again = () => pauseMenu(game);
  openDialog({
    id: 'pause', title: _('Paused'),
    body: `<p>${_('The clock is stopped and the cards are hidden.')}</p>`,
    buttons: [
      { label: _('Resume'), primary: true, run: () => { closeDialog(); game.act('resume'); } },
      { label: _('Start again'), run: () => { closeDialog(); restartFirst(game, again); } },
      { label: _('New deal'), run: () => newDeal(game) },
      { label: sound.soundOn() ? _('Sound: on') : _('Sound: off'), run: () => { sound.setSound(!sound.soundOn()); closeDialog(); again(); } },
      { label: _('Switch theme'), run: () => game.ctx.cycleTheme() },
      // The way out on a phone held sideways, where the site's header is hidden.
      { label: _('Home'), run: go('#/') },
      { label: _('Leaderboards'), run: go('#/boards') },
    ],
    cancel: () => { closeDialog(); game.act('resume'); },
  });
}

/** @param {DialogGame} game */
function stuckDialog(game) {
  if (dialogOpen('stuck')) return;
  sound.play('stuck');
  const end = { label: _('End deal'), run: () => { closeDialog(); game.act('resign'); } };
  // A contest's game has no way back and no new deal of its own.
  const contest = game.view().contest;
  openDialog({
    id: 'stuck', title: _('No more moves'),
    body: `<p>${contest
      ? _('The stock is spent and no card fits. End this deal: it counts as lost.')
      : _('The stock is spent and no card fits. Undo, start again, or end this deal (it counts as lost).')}</p>`,
    buttons: contest ? [{ ...end, primary: true }] : [
      { label: _('Undo'), primary: true, run: () => { closeDialog(); game.act('undo'); } },
      { label: _('Start again'), run: () => { closeDialog(); restartFirst(game, () => stuckDialog(game)); } },
      { label: _('New deal'), run: () => newDeal(game) },
      end,
    ],
    cancel: () => closeDialog(),
  });
}

/** The rules (ticked as the game's), the layout, and a warning when the deal in hand would be lost. @param {DialogGame} game */
function newDealBody(game) {
  const v = game.view();
  const unfinished = v.status !== 'won' && v.status !== 'lost' && v.moves > 0;
  const r = v.rules;
  return `<fieldset class="rules"><legend>${_('Rules')}</legend>
      <label><input type="checkbox" name="wrap" ${r.wrap ? 'checked' : ''}> ${_('King and Ace connect')}</label>
      <label><input type="checkbox" name="open" ${r.open ? 'checked' : ''}> ${_('Peaks open (all cards face up)')}</label></fieldset>
      <p>${fill(_('Layout: %(layout)s'), { layout: `<strong>${esc(game.ctx.layoutTitle())}</strong>` })} (<a href="#/layouts">${_('change')}</a>)</p>
      ${unfinished ? `<p class="warn">${_('This deal is not finished: it will count as lost.')}</p>` : ''}`;
}

/** @param {DialogGame} game */
function newDeal(game) {
  const back = () => { closeDialog(); if (game.view().paused) pauseMenu(game); };
  const deal = async () => {
    const d = /** @type {HTMLDialogElement} */ (document.querySelector('dialog[open]'));
    /** @param {string} name */
    const ticked = (name) => /** @type {HTMLInputElement} */ (d.querySelector(`[name=${name}]`)).checked;
    const rules = { wrap: ticked('wrap'), open: ticked('open') };
    localStorage.setItem('tp.rules', JSON.stringify(rules)); // the layout picker's PLAY deals with them
    closeDialog();
    await game.startDeal({ mode: 'random', rules, layout: game.ctx.layoutName() });
  };
  openDialog({
    id: 'new-deal', title: _('New deal'), body: newDealBody(game),
    buttons: [{ label: _('Deal'), primary: true, run: deal }, { label: _('Cancel'), run: back }],
    cancel: back,
  });
}

/** @param {DialogGame} game @param {GameView} v @param {Stats | null} stats */
function results(game, v, stats) {
  const { title, body, share } = resultsContent(v, stats, layoutTitle(game.layout.name, game.layout.title));
  openDialog({
    id: 'results', wide: true, title, body,
    buttons: [
      { label: _('New deal'), primary: true, run: () => newDeal(game) },
      { label: _('Review this game'), id: 'review-game', run: go(`#/review/${encodeURIComponent(v.id)}`) },
      ...(share ? [{ label: _('Copy result'), id: 'copy-result', run: () => copyText(share, /** @type {HTMLElement} */ (document.querySelector('[data-testid=copy-result]'))) }] : []),
      { label: _('Leaderboards'), run: go('#/boards') },
      { label: _('Home'), run: go('#/') },
    ],
    cancel: () => closeDialog(),
  });
}

/** The dialogs, bound to `game`. @param {DialogGame} game */
export function gameDialogs(game) {
  return {
    hintFirst: () => hintFirst(game),
    /** @param {(() => void) | null} [after] */
    restartFirst: (after = null) => restartFirst(game, after),
    pauseMenu: () => pauseMenu(game),
    stuckDialog: () => stuckDialog(game),
    newDeal: () => newDeal(game),
    /** @param {GameView} v @param {Stats | null} stats */
    results: (v, stats) => results(game, v, stats),
  };
}
