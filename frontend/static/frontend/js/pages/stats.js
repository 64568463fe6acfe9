// Statistics at a glance: the numbers overall and per rule set; charts of recent results, win rate
// by week, the calendar of daily deals and the spread of winning times, per rule set and layout.

import { api } from '../api.js';
import { clock, rulesTitle, pct, layoutTitle } from '../format.js';
import { esc } from '../dialog.js';
import { _, num } from '../i18n.js';
import { recentChart, rateChart, calendar, timesChart } from '../charts.js';
import { recentGames } from './stats/recent_games.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];

/** @param {FullStats} s */
function statsBlock(s) {
  /** @param {string} k @param {string} v */
  const d = (k, v) => `<div><dt>${k}</dt><dd>${v}</dd></div>`;
  return `<dl class="results">${d(_('Played'), num(s.played))}${d(_('Won'), num(s.won))}${d(_('Lost'), num(s.lost))}${d(_('Win rate'), pct(s.win_rate))}
    ${d(_('Streak'), num(s.current_streak))}${d(_('Best streak'), num(s.best_streak))}${d(_('Best time'), s.best_win_ms ? clock(s.best_win_ms) : '–')}
    ${d(_('Average win'), s.average_win_ms ? clock(s.average_win_ms) : '–')}${d(_('Daily deals won'), num(s.daily_won))}${d(_('Daily streak'), num(s.daily_streak))}${d(_('Best daily streak'), num(s.best_daily_streak))}</dl>`;
}

/** @type {Mount} */
export async function mount(root, ctx) {
  if (!ctx.user) {
    root.innerHTML = `<p class="panel">${_('Your statistics appear here once you sign in.')} <a href="/accounts/login/?next=/%23/stats">${_('Sign in')}</a></p>`;
    return null;
  }
  const [s, today, history] = await Promise.all([api('me/stats'), api('today'), api('me/history')]);
  /** @param {string[]} list @param {(x: string) => string} label */
  const options = (list, label) => list.map((x) => `<option value="${esc(x)}">${esc(label(x))}</option>`).join('');
  root.innerHTML = `<section class="panel"><h2>${_('Overall')}</h2>${statsBlock(s.overall)}</section>
    <section class="panel"><h2>${_('Recent results')}</h2>${recentChart(s.recent)}</section>
    <section class="panel" aria-labelledby="games-h" data-testid="recent-games"><h2 id="games-h">${_('Recent games')}</h2><div class="recent-games-out"><p>${_('Loading…')}</p></div></section>
    <section class="panel glance" aria-labelledby="glance-h"><h2 id="glance-h">${_('At a glance')}</h2>
      <form class="board-form" data-testid="glance-form">
        <label>${_('Rules')} <select name="rules"><option value="">${_('All rules')}</option>${options(RULES, rulesTitle)}</select></label>
        <label>${_('Layout')} <select name="layout"><option value="">${_('All layouts')}</option>${options(history.layouts, (x) => layoutTitle(x))}</select></label>
      </form>
      <div class="glance-out" aria-live="polite"></div></section>
    ${Object.entries(/** @type {Record<string, FullStats>} */ (s.rules)).map(([k, v]) => `<section class="panel"><h2>${esc(rulesTitle(k))}</h2>${statsBlock(v)}</section>`).join('')}`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('[data-testid=glance-form]'));
  const out = /** @type {HTMLElement} */ (root.querySelector('.glance-out'));
  /** @param {{fields: string[], runs: unknown[][]}} data runs as rows of `fields` (the light form) */
  const draw = (data) => {
    const runs = /** @type {Run[]} */ (data.runs.map((row) => Object.fromEntries(data.fields.map((f, i) => [f, row[i]]))));
    out.innerHTML = `<div class="glance-grid">
      <div><h3>${_('Win rate over time')}</h3>${rateChart(runs)}</div>
      <div><h3>${_('Daily deals')}</h3>${calendar(runs, today.day)}<p class="small">${_('Daily streak')}: <strong data-testid="glance-streak">${num(s.overall.daily_streak)}</strong></p></div>
      <div><h3>${_('Winning times')}</h3>${timesChart(runs)}</div></div>`;
  };
  draw(history);
  recentGames(/** @type {HTMLElement} */ (root.querySelector('.recent-games-out')));
  form.addEventListener('change', async () => {
    const f = new FormData(form);
    const q = new URLSearchParams();
    for (const name of ['rules', 'layout']) {
      const value = f.get(name);
      if (value) q.set(name, String(value));
    }
    draw(await api(`me/history?${q}`));
  });
  return null;
}
