// Numbered deals: enter a number, see the record holder and your best, play it.

import { api, ApiError } from '../api.js';
import { clock, rulesTitle, parseKey, movesText, cardsLeftText } from '../format.js';
import { _, fill, num } from '../i18n.js';
import { esc } from '../dialog.js';
import { copyText } from '../share.js';
import { startAsking } from '../starting.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];
/** @param {number} n */
const inRange = (n) => Number.isInteger(n) && n >= 1 && n <= 50000;
/** @param {{won: boolean, player: {display_name: string}, cards_left: number, moves: number, time_ms: number} | null | undefined} l a board's line */
const line = (l) => (l ? esc(fill(l.won ? _('%(player)s: won in %(moves)s, %(time)s') : _('%(player)s: %(left)s in %(moves)s, %(time)s'), { player: l.player.display_name, left: cardsLeftText(l.cards_left), moves: movesText(l.moves), time: clock(l.time_ms) })) : '–');

const outOfRange = () => _('There is no deal with that number: numbered deals go from 1 to 50,000.');

// #/numbered/<number>/<rules>: a challenge link opens on that deal.
/** @type {Mount} */
export async function mount(root, ctx, [asked, askedRules] = []) {
  const start = asked !== undefined ? Number(asked) : Math.floor(Math.random() * 50000) + 1;
  const rulesNow = RULES.includes(askedRules) ? askedRules : RULES[0];
  root.innerHTML = `<form class="panel board-form" data-testid="numbered-form">
      <label>${_('Deal number (1 to 50,000)')} <input type="number" name="number" min="1" max="50000" required value="${esc(Number.isFinite(start) ? start : '')}"></label>
      <label>${_('Rules')} <select name="rules">${RULES.map((r) => `<option value="${r}"${r === rulesNow ? ' selected' : ''}>${esc(rulesTitle(r))}</option>`).join('')}</select></label>
      <button class="button secondary" type="submit">${_('Look it up')}</button>
      <button class="button" type="button" data-play>${_('Play this deal')}</button>
      <p class="small">${esc(fill(_('Layout: %(layout)s'), { layout: ctx.layoutTitle() }))} (<a href="#/layouts">${_('change')}</a>). ${_('Numbered deals rank by fewest cards left, then fewest moves.')}</p>
    </form><div class="numbered-out" aria-live="polite"></div>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  const out = /** @type {HTMLElement} */ (root.querySelector('.numbered-out'));
  const read = () => { const f = new FormData(form); return { number: Number(f.get('number')), rules: String(f.get('rules')) }; };
  const look = async () => {
    const { number, rules } = read();
    if (!inRange(number)) { out.innerHTML = `<p class="error" data-testid="numbered-error">${outOfRange()}</p>`; return; }
    const link = `${location.origin}/#/numbered/${number}/${rules}`;
    try {
      const page = await api(`leaderboards/numbered/${number}?rules=${rules}&layout=${ctx.layoutName()}`);
      out.innerHTML = `<dl class="results"><div><dt>${_('Record')}</dt><dd data-testid="record">${line(page.lines[0])}</dd></div>
        <div><dt>${_('Your best')}</dt><dd>${ctx.user ? line(page.me) : _('sign in to keep yours')}</dd></div><div><dt>${_('Players')}</dt><dd>${num(page.total)}</dd></div></dl>
        <p class="challenge">${_('Challenge a friend to this deal:')} <a href="${esc(link)}" data-testid="challenge-link">${esc(link)}</a>
        <button type="button" class="button secondary" data-copy="${esc(link)}">${_('Copy link')}</button></p>`;
    } catch (e) {
      out.innerHTML = `<p class="error">${esc(e instanceof ApiError ? e.message : _('Could not look it up'))}</p>`;
    }
  };
  out.addEventListener('click', (e) => {
    const b = /** @type {Element} */ (e.target).closest('[data-copy]');
    if (b instanceof HTMLElement) copyText(b.dataset.copy || '', b);
  });
  form.addEventListener('submit', (e) => { e.preventDefault(); look(); });
  const play = /** @type {HTMLElement} */ (form.querySelector('[data-play]'));
  play.addEventListener('click', () => {
    const { number, rules } = read();
    if (!inRange(number)) { out.innerHTML = `<p class="error" data-testid="numbered-error">${outOfRange()}</p>`; return; }
    const r = parseKey(rules);
    startAsking(ctx, { mode: 'numbered', number, rules: { wrap: r.wrap, open: r.open }, layout: ctx.layoutName() }, play);
  });
  look();
  return null;
}
