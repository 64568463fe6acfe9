// The game page's dialogs: the menu (pause), No more moves, New deal, the questions before a
// first hint and before starting again, and the results. `game` is what they act on:
// {view(), act(action), push(action), focusTable(), startDeal(body), ctx, layout}.

import { openDialog, closeDialog, dialogOpen, esc } from '../../dialog.js';
import { _, fill } from '../../i18n.js';
import * as sound from '../../sound.js';
import { copyText } from '../../share.js';
import { resultsContent } from './results.js';

/** @param {DialogGame} game */
export function gameDialogs(game) {
  const { ctx } = game;
  /** @param {string} hash */
  const go = (hash) => () => { closeDialog(); location.hash = hash; };

  // The first hint of a ranked run asks first: it takes the run off the boards.
  function hintFirst() {
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
  /** @param {(() => void) | null} [after] */
  function restartFirst(after = null) {
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

  function pauseMenu() {
    if (dialogOpen('pause')) return;
    openDialog({
      id: 'pause', title: _('Paused'),
      body: `<p>${_('The clock is stopped and the cards are hidden.')}</p>`,
      buttons: [
        { label: _('Resume'), primary: true, run: () => { closeDialog(); game.act('resume'); } },
        { label: _('Start again'), run: () => { closeDialog(); restartFirst(pauseMenu); } },
        { label: _('New deal'), run: () => newDeal() },
        { label: sound.soundOn() ? _('Sound: on') : _('Sound: off'), run: () => { sound.setSound(!sound.soundOn()); closeDialog(); pauseMenu(); } },
        { label: _('Switch theme'), run: () => ctx.cycleTheme() },
        // The way out on a phone held sideways, where the site's header is hidden.
        { label: _('Home'), run: go('#/') },
        { label: _('Leaderboards'), run: go('#/boards') },
      ],
      cancel: () => { closeDialog(); game.act('resume'); },
    });
  }

  function stuckDialog() {
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
        { label: _('Start again'), run: () => { closeDialog(); restartFirst(stuckDialog); } },
        { label: _('New deal'), run: () => newDeal() },
        end,
      ],
      cancel: () => closeDialog(),
    });
  }

  function newDeal() {
    const v = game.view();
    const unfinished = v.status !== 'won' && v.status !== 'lost' && v.moves > 0;
    const r = v.rules;
    const back = () => { closeDialog(); if (game.view().paused) pauseMenu(); };
    openDialog({
      id: 'new-deal', title: _('New deal'),
      body: `<fieldset class="rules"><legend>${_('Rules')}</legend>
        <label><input type="checkbox" name="wrap" ${r.wrap ? 'checked' : ''}> ${_('King and Ace connect')}</label>
        <label><input type="checkbox" name="open" ${r.open ? 'checked' : ''}> ${_('Peaks open (all cards face up)')}</label></fieldset>
        <p>${fill(_('Layout: %(layout)s'), { layout: `<strong>${esc(ctx.layoutTitle())}</strong>` })} (<a href="#/layouts">${_('change')}</a>)</p>
        ${unfinished ? `<p class="warn">${_('This deal is not finished: it will count as lost.')}</p>` : ''}`,
      buttons: [
        { label: _('Deal'), primary: true, run: async () => {
          const d = /** @type {HTMLDialogElement} */ (document.querySelector('dialog[open]'));
          /** @param {string} name */
          const ticked = (name) => /** @type {HTMLInputElement} */ (d.querySelector(`[name=${name}]`)).checked;
          const rules = { wrap: ticked('wrap'), open: ticked('open') };
          localStorage.setItem('tp.rules', JSON.stringify(rules)); // the layout picker's PLAY deals with them
          closeDialog();
          await game.startDeal({ mode: 'random', rules, layout: ctx.layoutName() });
        } },
        { label: _('Cancel'), run: back },
      ],
      cancel: back,
    });
  }

  /** @param {GameView} v @param {Stats | null} stats */
  function results(v, stats) {
    const { title, body, share } = resultsContent(v, stats, game.layout.title);
    openDialog({
      id: 'results', wide: true, title, body,
      buttons: [
        { label: _('New deal'), primary: true, run: () => newDeal() },
        ...(share ? [{ label: _('Copy result'), id: 'copy-result', run: () => copyText(share, /** @type {HTMLElement} */ (document.querySelector('[data-testid=copy-result]'))) }] : []),
        { label: _('Leaderboards'), run: go('#/boards') },
        { label: _('Home'), run: go('#/') },
      ],
      cancel: () => closeDialog(),
    });
  }

  return { hintFirst, restartFirst, pauseMenu, stuckDialog, newDeal, results };
}
