// The statistics charts as SVG, from a player's runs (pure: tested under node): recent results,
// win rate by week, the calendar of daily deals, the spread of winning times with the best marked.

import { clock, movesText, cardsLeftText, dayText, pct } from './format.js';
import { _, ngettext, fill, num } from './i18n.js';
import { esc } from './dialog.js';

const WEEK = 7 * 86400000;

// Bars for the recent ranked results, oldest on the left (custom deals and hinted runs are not
// ranked and left out). Wins rise above the line (taller is slower), losses hang below it, in
// another colour and striped, so a quick win never looks like a loss.
/** @param {Run[]} recent newest first */
export function recentChart(recent) {
  const runs = [...recent].filter((r) => r.ranked).reverse();
  if (!runs.length) return `<p class="empty">${_('No ranked games finished yet.')}</p>`;
  const W = 320, H = 120, mid = 80, gap = 4, bw = Math.max(4, (W - gap * runs.length) / Math.max(runs.length, 1));
  const most = Math.max(60_000, ...runs.filter((r) => r.won).map((r) => r.time_ms));
  const bars = runs.map((r, i) => {
    const x = Math.round(i * (bw + gap));
    const tip = r.won ? fill(_('Won in %(time)s, %(moves)s'), { time: clock(r.time_ms), moves: movesText(r.moves) }) : fill(_('Lost with %(left)s'), { left: cardsLeftText(r.cards_left) });
    if (r.won) {
      const h = Math.max(12, Math.round((r.time_ms / most) * (mid - 4)));
      return `<rect x="${x}" y="${mid - h}" width="${Math.round(bw)}" height="${h}" class="win"><title>${esc(tip)}</title></rect>`;
    }
    const h = Math.max(12, Math.round((r.cards_left / 28) * (H - mid - 4)));
    return `<rect x="${x}" y="${mid + 2}" width="${Math.round(bw)}" height="${h}" class="loss"><title>${esc(tip)}</title></rect>`;
  }).join('');
  const wins = runs.filter((r) => r.won).length;
  const label = fill(ngettext('Last %(n)s ranked game: %(won)s won, %(lost)s lost. Wins rise above the line, taller is slower; losses hang below it, longer means more cards left.', 'Last %(n)s ranked games: %(won)s won, %(lost)s lost. Wins rise above the line, taller is slower; losses hang below it, longer means more cards left.', runs.length), { n: num(runs.length), won: num(wins), lost: num(runs.length - wins) });
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">
    <defs><pattern id="loss-stripes" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="loss-bg"/><line x1="0" y1="0" x2="0" y2="6" class="loss-line"/></pattern></defs>
    <line x1="0" x2="${W}" y1="${mid + 1}" y2="${mid + 1}" class="axis"/>${bars}</svg>
    <p class="small"><span class="key win"></span> ${_('won (above the line, height: time)')} <span class="key loss"></span> ${_('lost (below, length: cards left)')}</p>`;
}

// Win rate per week (Monday to Sunday, UTC) for the weeks with ranked runs, as a line.
/** @param {Run[]} runs */
export function weeklyRates(runs) {
  /** @type {Map<number, {start: number, played: number, won: number}>} */
  const weeks = new Map();
  for (const r of runs) {
    if (!r.ranked) continue;
    const t = Date.parse(r.finished_at);
    const monday = Math.floor((t - 4 * 86400000) / WEEK) * WEEK + 4 * 86400000; // 1970-01-05 was a Monday
    const w = weeks.get(monday) || { start: monday, played: 0, won: 0 };
    w.played += 1;
    w.won += r.won ? 1 : 0;
    weeks.set(monday, w);
  }
  return [...weeks.values()].sort((a, b) => a.start - b.start).map((w) => ({ ...w, rate: w.won / w.played }));
}

/** @param {Run[]} runs */
export function rateChart(runs) {
  const weeks = weeklyRates(runs).slice(-26);
  if (!weeks.length) return `<p class="empty">${_('No ranked games yet.')}</p>`;
  const W = 320, H = 110, top = 8, bottom = 96, step = weeks.length > 1 ? W / (weeks.length - 1) : 0;
  const pts = weeks.map((w, i) => [weeks.length > 1 ? Math.round(i * step) : W / 2, Math.round(bottom - w.rate * (bottom - top))]);
  const dots = weeks.map((w, i) => `<circle cx="${pts[i][0]}" cy="${pts[i][1]}" r="3.5" class="rate-dot"><title>${esc(fill(_('Week of %(day)s: %(rate)s of %(n)s won'), { day: dayText(new Date(w.start).toISOString().slice(0, 10)), rate: pct(w.rate), n: num(w.played) }))}</title></circle>`).join('');
  const last = weeks[weeks.length - 1];
  const label = fill(ngettext('Win rate by week over %(n)s week; the last week %(rate)s.', 'Win rate by week over %(n)s weeks; the last week %(rate)s.', weeks.length), { n: num(weeks.length), rate: pct(last.rate) });
  return `<svg class="chart rate" viewBox="-6 0 ${W + 12} ${H}" role="img" aria-label="${esc(label)}" data-testid="rate-chart">
    <line x1="0" x2="${W}" y1="${bottom}" y2="${bottom}" class="axis"/><line x1="0" x2="${W}" y1="${(top + bottom) / 2}" y2="${(top + bottom) / 2}" class="axis half"/>
    <polyline points="${pts.map((p) => p.join(',')).join(' ')}" class="rate-line"/>${dots}</svg>
    <p class="small">${_('Win rate of ranked games by week; the faint line is 50%.')}</p>`;
}

// The last ten weeks of daily deals, a square a day: won, lost or not played (newest last).
/** @param {Run[]} runs @param {string} today ISO day */
export function calendar(runs, today) {
  /** @type {Map<string, 'won' | 'lost'>} */
  const days = new Map();
  for (const r of runs) {
    if (r.mode !== 'daily' || !r.day) continue;
    days.set(r.day, days.get(r.day) === 'won' || r.won ? 'won' : 'lost');
  }
  const end = Date.parse(today + 'T00:00:00Z');
  const cells = [];
  for (let i = 69; i >= 0; i--) {
    const day = new Date(end - i * 86400000).toISOString().slice(0, 10);
    const state = days.get(day) || 'none';
    const word = state === 'won' ? _('won') : state === 'lost' ? _('lost') : _('not played');
    const x = Math.floor((69 - i) / 7) * 16, y = ((69 - i) % 7) * 16;
    cells.push(`<rect x="${x}" y="${y}" width="13" height="13" rx="2" class="day ${state}" data-day="${day}"><title>${esc(`${dayText(day)}: ${word}`)}</title></rect>`);
  }
  const won = [...days.values()].filter((s) => s === 'won').length;
  const label = fill(ngettext('Daily deals over the last ten weeks: %(won)s day won.', 'Daily deals over the last ten weeks: %(won)s days won.', won), { won: num(won) });
  return `<svg class="chart calendar" viewBox="0 0 160 112" role="img" aria-label="${esc(label)}" data-testid="calendar">${cells.join('')}</svg>
    <p class="small"><span class="key day-won"></span> ${_('won')} <span class="key day-lost"></span> ${_('lost')} <span class="key day-none"></span> ${_('not played')}</p>`;
}

// How long wins take: bars of 30 s (or wider, to keep a dozen bars), the best time marked.
/** @param {Run[]} runs */
export function timesChart(runs) {
  const times = runs.filter((r) => r.won && r.ranked).map((r) => r.time_ms);
  if (!times.length) return `<p class="empty">${_('No ranked wins yet.')}</p>`;
  const best = Math.min(...times), worst = Math.max(...times);
  const width = Math.max(30_000, Math.ceil((worst - best + 1) / 12 / 30_000) * 30_000);
  const first = Math.floor(best / width) * width;
  const bins = Array.from({ length: Math.floor((worst - first) / width) + 1 }, () => 0);
  for (const t of times) bins[Math.floor((t - first) / width)] += 1;
  const W = 320, H = 110, bottom = 92, most = Math.max(...bins), bw = W / bins.length;
  const bars = bins.map((n, i) => {
    const h = n ? Math.max(4, Math.round((n / most) * (bottom - 6))) : 0;
    const tip = fill(ngettext('%(n)s win between %(from)s and %(to)s', '%(n)s wins between %(from)s and %(to)s', n), { n: num(n), from: clock(first + i * width), to: clock(first + (i + 1) * width) });
    return `<rect x="${Math.round(i * bw) + 1}" y="${bottom - h}" width="${Math.max(2, Math.round(bw) - 2)}" height="${h}" class="win"><title>${esc(tip)}</title></rect>`;
  }).join('');
  const bx = Math.round(((best - first) / width) * bw);
  const label = fill(ngettext('Winning time of %(n)s ranked win; the best is %(best)s.', 'Winning times of %(n)s ranked wins; the best is %(best)s.', times.length), { n: num(times.length), best: clock(best) });
  return `<svg class="chart times" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}" data-testid="times-chart">
    <line x1="0" x2="${W}" y1="${bottom}" y2="${bottom}" class="axis"/>${bars}
    <line x1="${bx}" x2="${bx}" y1="0" y2="${bottom}" class="best-mark"/><text x="${Math.min(bx + 3, W - 60)}" y="${H - 4}" class="best-text">${esc(fill(_('best %(time)s'), { time: clock(best) }))}</text></svg>`;
}
