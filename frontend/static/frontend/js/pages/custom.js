// A custom deal: paste a deal code (52 cards) and get a link anyone can open to play the same
// deal (never ranked); #/custom/<rules>/<layout>/<cards joined by "-"> opens such a link.

import { esc } from '../dialog.js';
import { copyText } from '../share.js';
import { startAsking } from '../starting.js';
import { rulesTitle, parseKey, layoutTitle } from '../format.js';
import { _, fill } from '../i18n.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];
const CARD = /^(?:[A2-9TJQK])[CDHS]$/;

// The cards of a pasted code, or a message saying what is wrong with it.
/** @param {string} text @returns {{cards: string[], error?: undefined} | {error: string, cards?: undefined}} */
export function readCode(text) {
  const cards = String(text).toUpperCase().split(/[\s,;-]+/).filter(Boolean);
  if (cards.length !== 52) return { error: fill(_('A deal code has 52 cards; this one has %(n)s.'), { n: cards.length }) };
  const bad = cards.find((c) => !CARD.test(c));
  if (bad) return { error: fill(_('"%(card)s" is not a card: write a rank (A, 2-9, T, J, Q, K) and a suit (C, D, H, S), like 7H or TS.'), { card: bad.slice(0, 6) }) };
  const twice = cards.find((c, i) => cards.indexOf(c) !== i);
  if (twice) return { error: fill(_('%(card)s is in the code twice: a deal uses each card once.'), { card: twice }) };
  return { cards };
}

/** @type {Mount} */
export async function mount(root, ctx, [rulesIn, layoutIn, cardsIn] = []) {
  const shared = Boolean(cardsIn);
  const rules = RULES.includes(rulesIn) ? rulesIn : RULES[0];
  const layout = shared ? decodeURIComponent(layoutIn || 'classic') : ctx.layoutName();
  root.innerHTML = `<section class="panel">
    <h2>${shared ? _('A deal shared with you') : _('Play a deal code')}</h2>
    <p>${shared ? _('Someone sent you this deal: play the same cards they did. Custom deals are never ranked.') : _('Paste a deal code (52 cards: the table from the top, then the waste card, then the stock) to play it, and share the link so friends play the same cards. Custom deals are never ranked.')}</p>
    <form class="custom-form" data-testid="custom-form">
      <label class="field">${_('Deal code')}<textarea name="code" rows="4" spellcheck="false" autocapitalize="characters" required>${esc(shared ? cardsIn.split('-').join(' ') : '')}</textarea></label>
      <label class="field">${_('Rules')}<select name="rules">${RULES.map((r) => `<option value="${r}"${r === rules ? ' selected' : ''}>${esc(rulesTitle(r))}</option>`).join('')}</select></label>
      <p class="small">${esc(fill(_('Layout: %(layout)s'), { layout: layoutTitle(layout) }))}</p>
      <button type="submit" class="button secondary">${_('Make a link')}</button>
      <button type="button" class="button" data-play>${_('Play this deal')}</button>
    </form>
    <div class="custom-out" aria-live="polite"></div></section>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  const out = /** @type {HTMLElement} */ (root.querySelector('.custom-out'));
  const read = () => {
    const got = readCode(form.code.value);
    if (got.error) out.innerHTML = `<p class="error" data-testid="custom-error">${esc(got.error)}</p>`;
    return got.cards ? { cards: got.cards, rules: form.rules.value } : null;
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const got = read();
    if (!got) return;
    const link = `${location.origin}/#/custom/${got.rules}/${encodeURIComponent(layout)}/${got.cards.join('-')}`;
    out.innerHTML = `<p>${_('Anyone with this link can play the deal:')}</p><p class="share-link"><a href="${esc(link)}" data-testid="custom-link">${esc(link)}</a></p>
      <button type="button" class="button secondary" data-copy>${_('Copy link')}</button>`;
    const copy = /** @type {HTMLElement} */ (out.querySelector('[data-copy]'));
    copy.addEventListener('click', () => copyText(link, copy));
  });
  const play = /** @type {HTMLElement} */ (form.querySelector('[data-play]'));
  play.addEventListener('click', () => {
    const got = read();
    if (!got) return;
    const r = parseKey(got.rules);
    startAsking(ctx, { mode: 'custom', deal: got.cards.join(' '), rules: { wrap: r.wrap, open: r.open }, layout }, play);
  });
  return null;
}
