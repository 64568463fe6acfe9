// Statistics: overall and per rule set, a chart of recent results drawn as SVG, streaks.

import { api } from '../api.js';
import { clock, rulesTitle, pct } from '../format.js';
import { esc } from '../dialog.js';

// Bars for the recent results, oldest on the left: a win's height is its time, a loss is a mark.
export function chart(recent) {
  const runs = [...recent].reverse();
  if (!runs.length) return '<p class="empty">No finished games yet.</p>';
  const W = 320, H = 120, gap = 4, bw = Math.max(4, (W - gap * runs.length) / Math.max(runs.length, 1));
  const most = Math.max(60_000, ...runs.filter((r) => r.won).map((r) => r.time_ms));
  const bars = runs.map((r, i) => {
    const x = Math.round(i * (bw + gap));
    const h = r.won ? Math.max(6, Math.round((r.time_ms / most) * (H - 20))) : 10;
    const tip = r.won ? `Won in ${clock(r.time_ms)}, ${r.moves} moves` : `Lost with ${r.cards_left} cards left`;
    return `<rect x="${x}" y="${H - h}" width="${Math.round(bw)}" height="${h}" class="${r.won ? 'win' : 'loss'}"><title>${esc(tip)}</title></rect>`;
  }).join('');
  const wins = runs.filter((r) => r.won).length;
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Last ${runs.length} games: ${wins} won, ${runs.length - wins} lost. Taller bars are slower wins.">${bars}</svg>
    <p class="small"><span class="key win"></span> won (height: time) <span class="key loss"></span> lost</p>`;
}

function statsBlock(s) {
  const d = (k, v) => `<div><dt>${k}</dt><dd>${v}</dd></div>`;
  return `<dl class="results">${d('Played', s.played)}${d('Won', s.won)}${d('Lost', s.lost)}${d('Win rate', pct(s.win_rate))}
    ${d('Streak', s.current_streak)}${d('Best streak', s.best_streak)}${d('Best time', s.best_win_ms ? clock(s.best_win_ms) : '–')}
    ${d('Average win', s.average_win_ms ? clock(s.average_win_ms) : '–')}${d('Daily deals won', s.daily_won)}${d('Daily streak', s.daily_streak)}${d('Best daily streak', s.best_daily_streak)}</dl>`;
}

export async function mount(root, ctx) {
  if (!ctx.user) {
    root.innerHTML = '<p class="panel">Your statistics appear here once you <a href="/accounts/login/?next=/%23/stats">sign in</a>.</p>';
    return null;
  }
  const s = await api('me/stats');
  root.innerHTML = `<section class="panel"><h2>Overall</h2>${statsBlock(s.overall)}</section>
    <section class="panel"><h2>Recent results</h2>${chart(s.recent)}</section>
    ${Object.entries(s.rules).map(([k, v]) => `<section class="panel"><h2>${esc(rulesTitle(k))}</h2>${statsBlock(v)}</section>`).join('')}`;
  return null;
}
