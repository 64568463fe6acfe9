// Arenas: the running, coming and recently finished arena tournaments, each running or coming one
// with its countdown (to its start, or to its end) and a Join button; #/arenas/<id> is one arena
// (arena.js), where its games are played. Anyone may look; signed-in players join.

import { api, ApiError } from '../api.js';
import { arenaName, rulesTitle } from '../format.js';
import { esc } from '../dialog.js';
import { _, fill, num, serverText } from '../i18n.js';
import { scoringText, timeText } from './arenas/words.js';
import { clockText } from './arenas/panel.js';

/**
 * When an arena starts (a countdown), ends (a countdown), or ended, as text.
 * @param {ArenaSummary} a
 * @param {number} now the server's time now, in ms
 * @returns {string}
 */
const whenText = (a, now) => (a.state === 'finished' ? fill(_('ended at %(time)s'), { time: timeText(a.ends_at) }) : clockText(a, now));

/**
 * @param {ArenaSummary} a
 * @param {number} now the server's time now, in ms
 * @param {boolean} signedIn
 * @returns {string}
 */
function arenaItem(a, now, signedIn) {
  const players = fill(_('%(n)s players'), { n: num(a.players || 0) });
  const open = a.state === 'running' || a.state === 'scheduled';
  const joining = open && signedIn ? ` <button type="button" class="button" data-join="${esc(a.id)}">${_('Join')}</button>` : '';
  return `<li class="panel" data-testid="arena-${a.state}"><a href="#/arenas/${esc(a.id)}"><strong>${esc(arenaName(a.name))}</strong></a>
    <span class="small">${esc(rulesTitle(a.rules))} · <span data-arena="${esc(a.id)}" data-testid="arena-when">${esc(whenText(a, now))}</span> · ${esc(players)}</span>${joining}</li>`;
}

/** Join from the list, then the arena's page. @param {AppContext} ctx @param {HTMLElement} b */
async function join(ctx, b) {
  const id = b.dataset.join || '';
  b.setAttribute('disabled', '');
  try {
    await api(`arenas/${encodeURIComponent(id)}/join`, { method: 'POST' });
    location.hash = `#/arenas/${id}`;
  } catch (err) {
    ctx.notice(err instanceof ApiError ? serverText(err.message, _('The arena refused: reload the page and try again.')) : _('Could not reach the server: try again.'));
    b.removeAttribute('disabled');
  }
}

/** @type {Mount} */
export async function mount(root, ctx, params) {
  if (params[0]) {
    const page = await import('./arena.js');
    return page.mount(root, ctx, params[0]);
  }
  /** @type {ArenaLists} */
  const lists = await api('arenas');
  const skew = Date.parse(lists.server_time) - Date.now();
  const section = (/** @type {string} */ title, /** @type {ArenaSummary[]} */ arenas, /** @type {string} */ empty) => `<section aria-label="${esc(title)}"><h2>${esc(title)}</h2>
    ${arenas.length ? `<ul class="news-list">${arenas.map((a) => arenaItem(a, Date.now() + skew, Boolean(ctx.user))).join('')}</ul>` : `<p class="empty">${esc(empty)}</p>`}</section>`;
  root.innerHTML = `<p class="lede">${_('Arenas are tournaments against the clock: join, play deal after deal until the arena ends, and score points for every win.')}</p>
    ${section(_('Running now'), lists.running, _('No arena is running now.'))}
    ${section(_('Coming up'), lists.upcoming, _('No arena is planned yet.'))}
    ${section(_('Finished'), lists.finished, _('No arena has finished lately.'))}
    <section class="panel"><h2>${_('Scoring')}</h2><p data-testid="scoring">${esc(scoringText(lists.scoring))}</p></section>`;
  root.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('button[data-join]');
    if (b) join(ctx, /** @type {HTMLElement} */ (b));
  });
  // Only the countdowns change each second (the links and buttons keep their focus).
  const timer = setInterval(() => {
    for (const a of [...lists.running, ...lists.upcoming]) {
      const el = root.querySelector(`[data-arena="${a.id}"]`);
      if (el) el.textContent = whenText(a, Date.now() + skew);
    }
  }, 1000);
  return () => clearInterval(timer);
}
