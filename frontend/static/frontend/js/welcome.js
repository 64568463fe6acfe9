// The way in (issue 38): a table on the first screen, its cards face down, that deals at the
// first tap, as a guest made then when nobody is signed in (no form); and, where a deal needs an
// account, the guest way offered first. Shared by the start page and the game page (no deal in
// progress). Nothing is dealt before the tap, so the face-down table shows nothing the rules hide
// and a crawler that only looks makes no guest and takes no deal (docs/frontend.md, "The way in").

import { layoutNamed } from './api.js';
import { openDialog, closeDialog } from './dialog.js';
import { Table } from './table.js';
import { _, fill } from './i18n.js';

const SIGN_IN = '/accounts/login/?next=/%23/';
const SIGN_UP = '/accounts/signup/';

/**
 * A view of `layout` before the deal: every card face down (a tap on any deals), the stock full.
 * @param {Layout} layout
 * @returns {GameView}
 */
export function faceDown(layout) {
  const positions = layout.slots.map((s) => ({ position: s.position, card: null, free: true, removed: false }));
  return /** @type {GameView} */ (/** @type {unknown} */ ({
    id: 'welcome', seq: 0, positions, playable: [], waste: null, stock_left: 51 - positions.length,
    can_undo: false, paused: false, status: 'playing', moves: 0,
  }));
}

/** @param {AppContext} ctx @returns {string} the one line under the table */
function line(ctx) {
  if (ctx.user) return _('No deal in progress: tap the cards to deal a new one.');
  return fill(_('Tap the cards to deal: you play at once, as a guest. %(signup)s any time to keep your games, or %(signin)s.'), {
    signup: `<a href="${SIGN_UP}">${_('Sign up')}</a>`,
    signin: `<a href="${SIGN_IN}">${_('sign in')}</a>`,
  });
}

/**
 * The face-down table in `root`; a tap on a card, the stock or Deal deals a random deal with the
 * rules last chosen (a guest is made first when nobody is signed in). `atOnce`: deal now, for a
 * player who has just asked to play (the guest page sends a new guest to `#/play/deal`).
 * @param {HTMLElement} root
 * @param {AppContext} ctx
 * @param {boolean} [atOnce]
 * @returns {Promise<() => void>} its cleanup
 */
export async function welcomeTable(root, ctx, atOnce = false) {
  const name = ctx.user ? ctx.layoutName() : 'classic';
  const layout = await layoutNamed(name);
  root.innerHTML = `<section class="welcome" data-testid="welcome" aria-labelledby="welcome-h">
      <h2 id="welcome-h" class="sr-only">${_('A deal for you')}</h2>
      <div class="table-wrap"></div>
      <p class="welcome-line" data-testid="welcome-line"><button type="button" class="button" data-testid="deal-now">${_('Deal')}</button> ${line(ctx)}</p>
    </section>`;
  let busy = false;
  const deal = async () => {
    if (busy) return;
    busy = true;
    try {
      if (!ctx.user && !(await ctx.becomeGuest())) return;
      const rules = JSON.parse(localStorage.getItem('tp.rules') || '{"wrap":true,"open":false}');
      await ctx.startGame({ mode: 'random', rules, layout: name });
    } finally {
      busy = false;
    }
  };
  const table = new Table(/** @type {HTMLElement} */ (root.querySelector('.table-wrap')), layout, { onCard: deal, onStock: deal });
  table.render(faceDown(layout));
  if (!performance.getEntriesByName('tp-first-card').length) performance.mark('tp-first-card');
  root.querySelector('[data-testid=deal-now]')?.addEventListener('click', deal);
  if (atOnce && ctx.user) deal();
  return () => table.destroy();
}

/**
 * A deal asked for without an account: the guest way first, then signing in or up.
 * @param {AppContext} ctx
 * @param {DealRequest} body
 */
export function guestFirst(ctx, body) {
  const back = () => closeDialog();
  const daily = body.mode === 'daily'
    ? `<p>${_('A guest\'s try at today\'s deal is this browser\'s first try: an account that plays it afterwards from here is held for review.')}</p>`
    : '';
  openDialog({
    id: 'guest-first', title: _('Play as a guest?'),
    body: `<p>${_('Play at once as a guest, with no form: your games count in your own statistics, never on a leaderboard. Sign up any time to keep them and to rank.')}</p>${daily}`,
    buttons: [
      { label: _('Play as guest'), primary: true, id: 'guest-play', run: async () => { closeDialog(); if (await ctx.becomeGuest()) await ctx.startGame(body); } },
      { label: _('Sign in'), run: () => { location.href = SIGN_IN; } },
      { label: _('Create an account'), run: () => { location.href = SIGN_UP; } },
      { label: _('Cancel'), run: back },
    ],
    cancel: back,
  });
}
