// Start: continue the deal in progress; today's deal per rule set (not played, in progress, or
// the result with its rank) and a new deal; the daily streak and the countdown.

import { api, currentGame } from '../api.js';
import { countdown, rulesTitle, dealTitle, movesText, clock, cardsLeftText, dayText, weekdayTime } from '../format.js';
import { esc } from '../dialog.js';
import { startAsking } from '../starting.js';
import { welcomeTable } from '../welcome.js';
import { _, ngettext, fill, num } from '../i18n.js';

/**
 * Today's deal of one rule set for the player (GET /api/me/today).
 * @param {{state: 'not_played' | 'playing' | 'won' | 'lost', time_ms: number, moves: number, cards_left: number, rank: number | null, lines: number} | undefined} entry
 */
function todayLine(entry) {
  if (!entry || entry.state === 'not_played') return `<p class="today-state" data-state="not_played">${_('Not played yet')}</p>`;
  if (entry.state === 'playing') return `<p class="today-state" data-state="playing">${_('In progress')}</p>`;
  const how = entry.state === 'won'
    ? fill(_('Won in %(time)s, %(moves)s'), { time: clock(entry.time_ms), moves: movesText(entry.moves) })
    : fill(_('Lost with %(left)s'), { left: cardsLeftText(entry.cards_left) });
  const rank = entry.rank ? fill(_('rank %(rank)s of %(lines)s'), { rank: num(entry.rank), lines: num(entry.lines) }) : _('not ranked');
  return `<p class="today-state" data-state="${entry.state}"><strong>${esc(how)}</strong> · ${esc(rank)}</p>`;
}

/** @type {Mount} */
export async function mount(root, ctx) {
  // Nobody signed in: a deal on the first screen (welcome.js), drawn before anything is asked for.
  const place = Object.assign(document.createElement('div'), { className: 'welcome-place' });
  const unwelcome = ctx.user ? null : (root.append(place), await welcomeTable(place, ctx));
  const [today, mine] = await Promise.all([
    api('today'),
    ctx.user ? api('me/today').catch(() => null) : Promise.resolve(null),
  ]).catch((e) => { if (unwelcome) unwelcome(); throw e; });
  const current = await currentGame(ctx);
  const next = new Date(today.next_day_at);
  const skew = Date.parse(today.server_time) - Date.now();
  /** @type {Rules[]} */
  const ruleSets = today.rule_sets;
  const sets = ruleSets.filter((r) => r.start === 'waste');
  const streak = mine ? `<p class="streak" data-testid="daily-streak">${esc(fill(ngettext('Daily streak: %(n)s day won in a row', 'Daily streak: %(n)s days won in a row', mine.daily_streak), { n: num(mine.daily_streak) }))}${mine.best_daily_streak ? ` · ${esc(fill(_('best %(n)s'), { n: num(mine.best_daily_streak) }))}` : ''}</p>` : '';
  root.insertAdjacentHTML('beforeend', `
    <p class="lede">${_('Clear the three peaks one card higher or lower at a time. Play today\'s deal, chase records on numbered deals, and see how you rank.')} <a href="#/help">${_('How to play')}</a></p>
    ${current ? `<section class="panel continue"><h2>${_('Your deal is waiting')}</h2><p data-testid="waiting-deal">${esc(dealTitle(current))} · ${esc(fill(_('%(moves)s so far'), { moves: movesText(current.moves) }))}</p>
      <a class="button" href="#/play" data-testid="continue">${_('Continue')}</a></section>` : ''}
    <section aria-labelledby="today-h"><h2 id="today-h">${esc(fill(_('Today\'s deal · %(day)s'), { day: dayText(today.day) }))}</h2>
      ${streak}
      <p>${fill(_('The next daily deal comes in %(countdown)s, at %(time)s your time (midnight in Kathmandu).'), { countdown: '<strong data-testid="countdown"></strong>', time: `<strong>${esc(weekdayTime(next))}</strong>` })}</p>
      <div class="rule-grid">${sets.map((r) => `<div class="panel rule-set" data-testid="today-${r.key}">
        <h3>${esc(rulesTitle(r))}</h3>
        ${mine ? todayLine(mine.rule_sets[r.key]) : ''}
        <button type="button" class="button" data-daily="${r.key}">${_('Today\'s deal')}</button>
        <button type="button" class="button secondary" data-random="${r.key}">${_('New deal')}</button></div>`).join('')}</div>
      <p class="small">${fill(_('New deals use the layout %(layout)s'), { layout: `<strong>${esc(ctx.layoutTitle())}</strong>` })} · <a href="#/layouts">${_('choose a layout')}</a> · <a href="#/numbered">${_('numbered deals')}</a> · <a href="#/custom">${_('play a deal code')}</a></p>
    </section>`);
  const cd = /** @type {HTMLElement} */ (root.querySelector('[data-testid=countdown]'));
  const tick = () => { cd.textContent = countdown(next.getTime() - (Date.now() + skew)); };
  tick();
  const timer = setInterval(tick, 1000);
  root.addEventListener('click', (e) => {
    const b = /** @type {Element} */ (e.target).closest('button[data-daily], button[data-random]');
    if (!(b instanceof HTMLElement)) return;
    const r = ruleSets.find((x) => x.key === (b.dataset.daily || b.dataset.random));
    if (!r) return;
    const rules = { wrap: r.wrap, open: r.open };
    /** @type {DealRequest} */
    const body = b.dataset.daily ? { mode: 'daily', rules, layout: 'classic' } : { mode: 'random', rules, layout: ctx.layoutName() };
    // Today's deal already on the table: carry on with it.
    if (current && body.mode === 'daily' && current.mode === 'daily' && current.rules.key === r.key) { location.hash = '#/play'; return; }
    startAsking(ctx, body, b, current);
  });
  return () => { clearInterval(timer); if (unwelcome) unwelcome(); };
}
