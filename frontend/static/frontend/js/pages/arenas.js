// Arenas: the running, coming and recently finished arena tournaments; #/arenas/<id> is one
// arena (arena.js). Anyone may look; signed-in players join from an arena's page.

import { api } from '../api.js';
import { countdown, rulesTitle, arenaName } from '../format.js';
import { esc } from '../dialog.js';
import { _, fill, num } from '../i18n.js';
import { scoringText, timeText } from './arenas/words.js';

/**
 * When an arena runs, starts or ended, as text.
 * @param {ArenaSummary} a
 * @param {number} now the server's time now, in ms
 * @returns {string}
 */
function whenText(a, now) {
  return a.state === 'running'
    ? fill(_('ends in %(countdown)s'), { countdown: countdown(Date.parse(a.ends_at) - now) })
    : a.state === 'scheduled'
      ? fill(_('starts at %(time)s'), { time: timeText(a.starts_at) })
      : fill(_('ended at %(time)s'), { time: timeText(a.ends_at) });
}

/**
 * @param {ArenaSummary} a
 * @param {number} now the server's time now, in ms
 * @returns {string}
 */
function arenaItem(a, now) {
  const players = fill(_('%(n)s players'), { n: num(a.players || 0) });
  return `<li class="panel" data-testid="arena-${a.state}"><a href="#/arenas/${esc(a.id)}"><strong>${esc(arenaName(a.name))}</strong></a>
    <span class="small">${esc(rulesTitle(a.rules))} · <span data-arena="${esc(a.id)}">${esc(whenText(a, now))}</span> · ${esc(players)}</span></li>`;
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
    ${arenas.length ? `<ul class="news-list">${arenas.map((a) => arenaItem(a, Date.now() + skew)).join('')}</ul>` : `<p class="empty">${esc(empty)}</p>`}</section>`;
  root.innerHTML = `<p class="lede">${_('Arenas are tournaments against the clock: join, play deal after deal until the arena ends, and score points for every win.')}</p>
    ${section(_('Running now'), lists.running, _('No arena is running now.'))}
    ${section(_('Coming up'), lists.upcoming, _('No arena is planned yet.'))}
    ${section(_('Finished'), lists.finished, _('No arena has finished lately.'))}
    <section class="panel"><h2>${_('Scoring')}</h2><p data-testid="scoring">${esc(scoringText(lists.scoring))}</p></section>`;
  // Only the running arenas' countdowns change each second (the links keep their focus).
  const timer = setInterval(() => {
    for (const a of lists.running) {
      const el = root.querySelector(`[data-arena="${a.id}"]`);
      if (el) el.textContent = whenText(a, Date.now() + skew);
    }
  }, 1000);
  return () => clearInterval(timer);
}
