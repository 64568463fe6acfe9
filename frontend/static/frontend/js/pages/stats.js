// Statistics: overall and per rule set, a chart of recent results drawn as SVG, streaks.

import { api } from '../api.js';
import { clock, rulesTitle, pct } from '../format.js';
import { esc } from '../dialog.js';

// Bars for the recent ranked results, oldest on the left (custom deals and hinted runs are not
// ranked and left out). Wins rise above the line (taller is slower), losses hang below it, in
// another colour and striped, so a quick win never looks like a loss.
export function chart(recent) {
  const runs = [...recent].filter((r) => r.ranked).reverse();
  if (!runs.length) return '<p class="empty">No ranked games finished yet.</p>';
  const W = 320, H = 120, mid = 80, gap = 4, bw = Math.max(4, (W - gap * runs.length) / Math.max(runs.length, 1));
  const most = Math.max(60_000, ...runs.filter((r) => r.won).map((r) => r.time_ms));
  const bars = runs.map((r, i) => {
    const x = Math.round(i * (bw + gap));
    const tip = r.won ? `Won in ${clock(r.time_ms)}, ${r.moves} moves` : `Lost with ${r.cards_left} cards left`;
    if (r.won) {
      const h = Math.max(12, Math.round((r.time_ms / most) * (mid - 4)));
      return `<rect x="${x}" y="${mid - h}" width="${Math.round(bw)}" height="${h}" class="win"><title>${esc(tip)}</title></rect>`;
    }
    const h = Math.max(12, Math.round((r.cards_left / 28) * (H - mid - 4)));
    return `<rect x="${x}" y="${mid + 2}" width="${Math.round(bw)}" height="${h}" class="loss"><title>${esc(tip)}</title></rect>`;
  }).join('');
  const wins = runs.filter((r) => r.won).length;
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Last ${runs.length} ranked games: ${wins} won, ${runs.length - wins} lost. Wins rise above the line, taller is slower; losses hang below it, longer means more cards left.">
    <defs><pattern id="loss-stripes" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="loss-bg"/><line x1="0" y1="0" x2="0" y2="6" class="loss-line"/></pattern></defs>
    <line x1="0" x2="${W}" y1="${mid + 1}" y2="${mid + 1}" class="axis"/>${bars}</svg>
    <p class="small"><span class="key win"></span> won (above the line, height: time) <span class="key loss"></span> lost (below, length: cards left)</p>`;
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
