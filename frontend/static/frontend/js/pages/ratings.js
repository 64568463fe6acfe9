// Ratings: the Glicko-2 board of a rule set (established ratings only; provisional players are
// counted under it) and the player's own rating on it. Mounted by the app's #/ratings route and,
// on its own, by the /ratings/ page (the element marked data-ratings-page).

import { api } from '../api.js';
import { rulesTitle } from '../format.js';
import { esc } from '../dialog.js';
import { _, fill, num, ngettext } from '../i18n.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];

/**
 * @typedef {{ username: string, display_name: string }} Player
 * @typedef {{ rank: number, player: Player, rating: number, rd: number, races: number }} Line
 * @typedef {{ rules: string, rating: number, rd: number, races: number, provisional: boolean, rank: number | null }} Standing
 * @typedef {{ rules: string, provisional_races: number, provisional: number, lines: Line[], me: Standing | null }} Board
 * @typedef {{ race: string, place: number, players: number, before: number, after: number, change: number, rd: number, at: string }} RatedRace
 * @typedef {{ rules: string, history: RatedRace[] }} MyRating
 * @typedef {{ user: { username: string } | null }} Context
 */

/**
 * A rating as a player reads it: "1620", or "1500?" while provisional.
 * @param {number} rating
 * @param {boolean} provisional
 * @returns {string}
 */
export function ratingText(rating, provisional) {
  return provisional ? `${num(rating)}?` : num(rating);
}

/**
 * A change of rating with its sign: "+12", "−8", "±0".
 * @param {number} change
 * @returns {string}
 */
export function changeText(change) {
  if (change > 0) return `+${num(change)}`;
  if (change < 0) return `−${num(-change)}`;
  return `±${num(0)}`;
}

/**
 * The board's table (or why it is empty) and the player's own line.
 * @param {Board} board
 * @param {Context} ctx
 * @returns {string}
 */
export function boardHtml(board, ctx) {
  const me = ctx.user && ctx.user.username;
  const row = (/** @type {Line} */ l) => `<tr${l.player.username === me ? ' class="mine"' : ''}><td>${num(l.rank)}</td><td>${esc(l.player.display_name)}</td><td>${num(l.rating)}</td><td>±${num(l.rd)}</td><td>${num(l.races)}</td></tr>`;
  const table = board.lines.length
    ? `<table class="board" data-testid="ratings-board"><caption class="sr-only">${esc(rulesTitle(board.rules))}</caption><thead><tr><th scope="col">#</th><th scope="col">${_('Player')}</th><th scope="col">${_('Rating')}</th><th scope="col"><abbr title="${_('Rating deviation: how sure the rating is')}">RD</abbr></th><th scope="col">${_('Races')}</th></tr></thead><tbody>${board.lines.map(row).join('')}</tbody></table>`
    : `<p class="empty" data-testid="ratings-empty">${_('Nobody has an established rating on these rules yet.')}</p>`;
  const waiting = board.provisional
    ? `<p class="small" data-testid="ratings-provisional">${fill(ngettext('%(n)s player with a provisional rating is not listed yet.', '%(n)s players with a provisional rating are not listed yet.', board.provisional), { n: num(board.provisional) })}</p>`
    : '';
  return table + waiting + mineHtml(board);
}

/**
 * @param {Board} board
 * @returns {string}
 */
function mineHtml(board) {
  const m = board.me;
  if (!m) return '';
  const where = m.provisional
    ? fill(ngettext('Provisional: %(n)s more rated race to go onto the board.', 'Provisional: %(n)s more rated races to go onto the board.', board.provisional_races - m.races), { n: num(board.provisional_races - m.races) })
    : m.rank ? fill(_('Rank %(rank)s'), { rank: num(m.rank) }) : '';
  return `<p class="panel" data-testid="ratings-me">${_('Your rating')}: <strong>${ratingText(m.rating, m.provisional)}</strong> ±${num(m.rd)} · ${fill(ngettext('%(n)s race', '%(n)s races', m.races), { n: num(m.races) })}${where ? ` · ${where}` : ''}</p>`;
}

/**
 * The player's latest rated races on the rule set: place, and the rating before and after.
 * @param {MyRating | undefined} mine
 * @returns {string}
 */
export function historyHtml(mine) {
  if (!mine || !mine.history.length) return '';
  const item = (/** @type {RatedRace} */ h) => `<li>${fill(_('Place %(place)s of %(players)s'), { place: num(h.place), players: num(h.players) })}: ${num(h.before)} → ${num(h.after)} <strong>(${changeText(h.change)})</strong></li>`;
  return `<section class="panel" data-testid="ratings-history"><h2>${_('Your latest rated races')}</h2><ol>${mine.history.map(item).join('')}</ol></section>`;
}

/**
 * @param {HTMLElement} root
 * @param {Context} ctx
 * @returns {Promise<null>}
 */
export async function mount(root, ctx) {
  const picked = new URLSearchParams(location.search).get('rules');
  let rules = RULES.includes(picked || '') ? /** @type {string} */ (picked) : 'wrap-closed';
  const options = RULES.map((k) => `<option value="${k}"${k === rules ? ' selected' : ''}>${esc(rulesTitle(k))}</option>`).join('');
  root.innerHTML = `<p class="small">${fill(_('Glicko-2 ratings from races, one per rule set. A rating is provisional (shown with ?) until %(n)s rated races.'), { n: num(10) })}</p>
    <form class="board-form" data-testid="ratings-form"><label>${_('Rules')} <select name="rules">${options}</select></label></form>
    <div class="board-out" aria-live="polite"><p>${_('Loading…')}</p></div>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  const out = /** @type {HTMLElement} */ (root.querySelector('.board-out'));
  form.addEventListener('submit', (e) => e.preventDefault());
  let shown = 0;
  /** @type {Promise<{ ratings: MyRating[] }> | null} */
  const own = ctx.user ? api('ratings/me') : null;
  const show = async () => {
    const mine = ++shown;
    const [board, me] = await Promise.all([
      /** @type {Promise<Board>} */ (api(`ratings?rules=${encodeURIComponent(rules)}`)),
      own,
    ]);
    if (mine !== shown) return;
    out.innerHTML = boardHtml(board, ctx) + historyHtml(me ? me.ratings.find((r) => r.rules === rules) : undefined);
  };
  /** @type {HTMLSelectElement} */ (form.querySelector('select')).addEventListener('change', (e) => {
    rules = /** @type {HTMLSelectElement} */ (e.target).value;
    // On the /ratings/ page the choice stays in the address (a reload or a shared link keeps it).
    if (location.pathname === '/ratings/') history.replaceState(null, '', `?rules=${encodeURIComponent(rules)}`);
    show();
  });
  await show();
  return null;
}

// The /ratings/ page: mount at once (in the app, the route mounts it).
const page = typeof document !== 'undefined' && document.querySelector('[data-ratings-page]');
if (page) {
  const boot = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('ratings-boot')).textContent || '{}');
  document.querySelectorAll('.site-nav a[href="/ratings/"]').forEach((a) => a.setAttribute('aria-current', 'page'));
  mount(/** @type {HTMLElement} */ (page), { user: boot.user }).catch(() => {
    const n = document.getElementById('notice');
    if (n) { n.textContent = _('Something went wrong: please reload the page.'); n.hidden = false; }
  });
}
