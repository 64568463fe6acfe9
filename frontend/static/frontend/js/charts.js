// The statistics charts as SVG, from a player's runs (pure: tested under node): recent results,
// win rate by week, the calendar of daily deals, the spread of winning times with the best marked.

import { clock, movesText, cardsLeftText, dayText, dayShort, pct } from './format.js';
import { _, ngettext, fill, num } from './i18n.js';
import { esc } from './dialog.js';

const WEEK = 7 * 86400000;

// Every chart says what it shows with few results as with many: its scales written on its axes
// (times, rates, cards left, counts), the days it covers, and bars no wider than a bar (one result
// was one block across the whole chart, one week of win rate a lone dot, the calendar had no dates).

// An axis label at (x, y); `end`: right-aligned.
/** @param {number} x @param {number} y @param {string} text @param {string} [anchor] start, middle or end */
const label = (x, y, text, anchor = 'start') => `<text x="${Math.round(x)}" y="${Math.round(y)}" class="tick" text-anchor="${anchor}">${esc(text)}</text>`;

// Bars for the recent ranked results, oldest on the left (custom deals and hinted runs are not
// ranked and left out). Wins rise above the line (taller is slower), losses hang below it, in
// another colour and striped, so a quick win never looks like a loss. The scale on the right, the
// days of the first and the last under the line.
/** @param {Run[]} recent newest first */
export function recentChart(recent) {
  const runs = [...recent].filter((r) => r.ranked).reverse();
  if (!runs.length) return `<p class="empty">${_('No ranked games finished yet.')}</p>`;
  const W = 320, H = 136, mid = 80, low = 120, right = 44, gap = 4, plot = W - right;
  const bw = Math.min(22, (plot - gap * runs.length) / runs.length);
  const most = Math.max(60_000, ...runs.filter((r) => r.won).map((r) => r.time_ms));
  const bars = runs.map((r, i) => {
    const x = Math.round(i * (bw + gap));
    const tip = r.won ? fill(_('Won in %(time)s, %(moves)s'), { time: clock(r.time_ms), moves: movesText(r.moves) }) : fill(_('Lost with %(left)s'), { left: cardsLeftText(r.cards_left) });
    if (r.won) {
      const h = Math.max(12, Math.round((r.time_ms / most) * (mid - 4)));
      return `<rect x="${x}" y="${mid - h}" width="${Math.round(bw)}" height="${h}" class="win"><title>${esc(tip)}</title></rect>`;
    }
    const h = Math.max(12, Math.round((r.cards_left / 28) * (low - mid - 4)));
    return `<rect x="${x}" y="${mid + 2}" width="${Math.round(bw)}" height="${h}" class="loss"><title>${esc(tip)}</title></rect>`;
  }).join('');
  const wins = runs.filter((r) => r.won).length;
  const text = fill(ngettext('Last %(n)s ranked game: %(won)s won, %(lost)s lost. Wins rise above the line, taller is slower; losses hang below it, longer means more cards left.', 'Last %(n)s ranked games: %(won)s won, %(lost)s lost. Wins rise above the line, taller is slower; losses hang below it, longer means more cards left.', runs.length), { n: num(runs.length), won: num(wins), lost: num(runs.length - wins) });
  const first = runs[0].finished_at, last = runs[runs.length - 1].finished_at;
  const days = label(0, H - 2, dayShort(first)) + (runs.length > 1 ? label(Math.round((runs.length - 1) * (bw + gap) + bw), H - 2, dayShort(last), 'end') : '');
  const scale = label(W, 10, clock(most), 'end') + label(W, mid + 4, clock(0), 'end') + label(W, low, fill(_('%(n)s left'), { n: num(28) }), 'end');
  return `<svg class="chart recent" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(text)}" data-testid="recent-chart">
    <defs><pattern id="loss-stripes" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="loss-bg"/><line x1="0" y1="0" x2="0" y2="6" class="loss-line"/></pattern></defs>
    <line x1="0" x2="${plot}" y1="${mid + 1}" y2="${mid + 1}" class="axis"/>${bars}${scale}${days}</svg>
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

// The win rate by week as a line over a scale of 0 to 100 %, the first and the last week named
// under it, the last week's rate written by its dot.
/** @param {Run[]} runs */
export function rateChart(runs) {
  const weeks = weeklyRates(runs).slice(-26);
  if (!weeks.length) return `<p class="empty">${_('No ranked games yet.')}</p>`;
  // The scale's labels end 6 units left of the axis: room for the widest (German's "100 %").
  const scaleTexts = [1, 0.5, 0].map(pct);
  const left = Math.max(36, Math.round(6 + 7.5 * Math.max(...scaleTexts.map((t) => t.length))));
  const W = 320, H = 124, top = 10, bottom = 100, span = W - left - 24;
  const step = weeks.length > 1 ? span / (weeks.length - 1) : 0;
  const pts = weeks.map((w, i) => [left + 12 + (weeks.length > 1 ? Math.round(i * step) : 0), Math.round(bottom - w.rate * (bottom - top))]);
  const dots = weeks.map((w, i) => `<circle cx="${pts[i][0]}" cy="${pts[i][1]}" r="3.5" class="rate-dot"><title>${esc(fill(_('Week of %(day)s: %(rate)s of %(n)s won'), { day: dayText(new Date(w.start).toISOString().slice(0, 10)), rate: pct(w.rate), n: num(w.played) }))}</title></circle>`).join('');
  const last = weeks[weeks.length - 1], end = pts[pts.length - 1];
  const text = fill(ngettext('Win rate by week over %(n)s week; the last week %(rate)s.', 'Win rate by week over %(n)s weeks; the last week %(rate)s.', weeks.length), { n: num(weeks.length), rate: pct(last.rate) });
  const scale = [1, 0.5, 0].map((r, i) => label(left - 6, bottom - r * (bottom - top) + 4, scaleTexts[i], 'end')).join('');
  const days = label(pts[0][0], H - 4, dayShort(weeks[0].start), weeks.length > 1 ? 'start' : 'middle') + (weeks.length > 1 ? label(end[0], H - 4, dayShort(last.start), 'end') : '');
  const value = label(end[0] + (weeks.length > 1 ? -6 : 8), end[1] < top + 14 ? end[1] + 16 : end[1] - 8, pct(last.rate), weeks.length > 1 ? 'end' : 'start');
  return `<svg class="chart rate" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(text)}" data-testid="rate-chart">
    <line x1="${left}" x2="${W}" y1="${bottom}" y2="${bottom}" class="axis"/><line x1="${left}" x2="${W}" y1="${(top + bottom) / 2}" y2="${(top + bottom) / 2}" class="axis half"/><line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}" class="axis"/>
    ${weeks.length > 1 ? `<polyline points="${pts.map((p) => p.join(',')).join(' ')}" class="rate-line"/>` : ''}${dots}${scale}${days}${value}</svg>
    <p class="small">${_('Win rate of ranked games by week; the faint line is 50%.')}</p>`;
}

// The last ten weeks of daily deals, a square a day: won, lost or not played. A column is a week
// from Monday, the weekdays named on the left, the months over the columns where they begin.
/** @param {Run[]} runs @param {string} today ISO day */
export function calendar(runs, today) {
  /** @type {Map<string, 'won' | 'lost'>} */
  const days = new Map();
  for (const r of runs) {
    if (r.mode !== 'daily' || !r.day) continue;
    days.set(r.day, days.get(r.day) === 'won' || r.won ? 'won' : 'lost');
  }
  const DAY = 86400000, left = 34, top = 16, end = Date.parse(today + 'T00:00:00Z'), start = end - 69 * DAY;
  const monday = start - ((new Date(start).getUTCDay() + 6) % 7) * DAY;
  /** @type {string[]} */
  const cells = [];
  /** @type {{col: number, text: string}[]} */
  const months = [];
  for (let t = start; t <= end; t += DAY) {
    const day = new Date(t).toISOString().slice(0, 10), col = Math.floor((t - monday) / WEEK);
    const state = days.get(day) || 'none';
    const word = state === 'won' ? _('won') : state === 'lost' ? _('lost') : _('not played');
    cells.push(`<rect x="${left + col * 16}" y="${top + ((t - monday) / DAY % 7) * 16}" width="13" height="13" rx="2" class="day ${state}" data-day="${day}"><title>${esc(`${dayText(day)}: ${word}`)}</title></rect>`);
    if (t === start || day.endsWith('-01')) months.push({ col, text: dayShort(t) });
  }
  // A month's label where it begins; the first column's only when the next month is not too near.
  const shown = months.filter((m, i) => i > 0 || months.length < 2 || months[1].col - m.col >= 3);
  const heads = shown.map((m) => label(left + m.col * 16, 11, m.text)).join('');
  const weekdays = [0, 2, 4].map((d) => label(left - 4, top + d * 16 + 11, dayShort(monday + d * DAY, 'weekday'), 'end')).join('');
  const won = [...days.values()].filter((s) => s === 'won').length;
  const text = fill(ngettext('Daily deals over the last ten weeks: %(won)s day won.', 'Daily deals over the last ten weeks: %(won)s days won.', won), { won: num(won) });
  return `<svg class="chart calendar" viewBox="0 0 ${left + 12 * 16} ${top + 112}" role="img" aria-label="${esc(text)}" data-testid="calendar">${heads}${weekdays}${cells.join('')}</svg>
    <p class="small" data-testid="calendar-span">${esc(fill(_('%(from)s to %(to)s'), { from: dayText(new Date(start).toISOString().slice(0, 10)), to: dayText(today) }))}</p>
    <p class="small"><span class="key day-won"></span> ${_('won')} <span class="key day-lost"></span> ${_('lost')} <span class="key day-none"></span> ${_('not played')}</p>`;
}

// How long wins take: bars of 30 s (or wider, to keep a dozen bars; at least six, so one win is
// one bar among empty ones), each with its count, the times under them, the best time marked.
/** @param {Run[]} runs */
export function timesChart(runs) {
  const times = runs.filter((r) => r.won && r.ranked).map((r) => r.time_ms);
  if (!times.length) return `<p class="empty">${_('No ranked wins yet.')}</p>`;
  const best = Math.min(...times), worst = Math.max(...times);
  const width = Math.max(30_000, Math.ceil((worst - best + 1) / 12 / 30_000) * 30_000);
  const used = Math.floor(worst / width) - Math.floor(best / width) + 1, count = Math.max(6, used);
  const first = Math.max(0, Math.floor(best / width) - Math.floor((count - used) / 2)) * width;
  const bins = Array.from({ length: count }, () => 0);
  for (const t of times) bins[Math.floor((t - first) / width)] += 1;
  const W = 320, H = 124, top = 14, bottom = 92, most = Math.max(...bins), bw = W / count;
  const bars = bins.map((n, i) => {
    const h = n ? Math.max(4, Math.round((n / most) * (bottom - top))) : 0;
    const tip = fill(ngettext('%(n)s win between %(from)s and %(to)s', '%(n)s wins between %(from)s and %(to)s', n), { n: num(n), from: clock(first + i * width), to: clock(first + (i + 1) * width) });
    const x = Math.round(i * bw);
    return `<rect x="${x + 1}" y="${bottom - h}" width="${Math.max(2, Math.round(bw) - 2)}" height="${h}" class="win"><title>${esc(tip)}</title></rect>` + (n ? label(x + bw / 2, bottom - h - 3, num(n), 'middle') : '');
  }).join('');
  const every = Math.ceil(count / 5);  // at most six times under the bars
  const ticks = bins.map((_n, i) => (i % every ? '' : label(Math.round(i * bw) + 1, bottom + 12, clock(first + i * width)))).join('');
  const bx = Math.round(((best - first) / width) * bw);
  const text = fill(ngettext('Winning time of %(n)s ranked win; the best is %(best)s.', 'Winning times of %(n)s ranked wins; the best is %(best)s.', times.length), { n: num(times.length), best: clock(best) });
  return `<svg class="chart times" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(text)}" data-testid="times-chart">
    <line x1="0" x2="${W}" y1="${bottom}" y2="${bottom}" class="axis"/>${bars}${ticks}
    <line x1="${bx}" x2="${bx}" y1="${top}" y2="${bottom}" class="best-mark"/><text x="${Math.min(Math.max(bx - 30, 0), W - 70)}" y="${H - 4}" class="best-text">${esc(fill(_('best %(time)s'), { time: clock(best) }))}</text></svg>`;
}
