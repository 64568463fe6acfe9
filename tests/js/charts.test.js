import { test } from 'node:test';
import assert from 'node:assert/strict';
import { weeklyRates, calendar, timesChart, recentChart } from '../../frontend/static/frontend/js/charts.js';

const run = (finished_at, won, extra = {}) => ({ finished_at, won, ranked: true, mode: 'random', time_ms: 90_000, moves: 40, cards_left: won ? 0 : 5, ...extra });

test('win rate by week: Monday to Sunday, ranked runs only', () => {
  const weeks = weeklyRates([
    run('2026-11-23T10:00:00Z', true), run('2026-11-29T23:00:00Z', false), // one week (Mon 23 - Sun 29)
    run('2026-11-30T08:00:00Z', true), run('2026-12-01T08:00:00Z', true, { ranked: false }),
  ]);
  assert.deepEqual(weeks.map((w) => [new Date(w.start).toISOString().slice(0, 10), w.played, w.rate]), [['2026-11-23', 2, 0.5], ['2026-11-30', 1, 1]]);
});

test('the calendar marks daily deals won, lost and not played', () => {
  const svg = calendar([run('x', true, { mode: 'daily', day: '2026-11-30' }), run('x', false, { mode: 'daily', day: '2026-12-01' }), run('x', true, { day: '2026-11-29' })], '2026-12-01');
  assert.match(svg, /class="day won" data-day="2026-11-30"/);
  assert.match(svg, /class="day lost" data-day="2026-12-01"/);
  assert.match(svg, /class="day none" data-day="2026-11-29"/); // not a daily deal
  assert.equal((svg.match(/<rect/g) || []).length, 70);
});

test('winning times: bars of 30 s, the best time marked', () => {
  const svg = timesChart([run('x', true, { time_ms: 65_000 }), run('x', true, { time_ms: 80_000 }), run('x', true, { time_ms: 200_000 }), run('x', false, { time_ms: 5_000 }), run('x', true, { time_ms: 6_000, ranked: false })]);
  assert.match(svg, /best 1:05/);
  assert.match(svg, /3 ranked wins; the best is 1:05/);
});

test('recent results: a six-second win stands above the line, a loss hangs below', () => {
  const svg = recentChart([run('x', true, { time_ms: 6_000 }), run('x', false)]);
  const y = (cls) => Number(svg.match(new RegExp(`y="(\\d+)"[^>]*class="${cls}"`))[1]);
  assert.ok(y('win') < 80 && y('loss') > 80);
});

import { resultsContent } from '../../frontend/static/frontend/js/pages/play/results.js';

test('the results dialog: rank, not ranked, and a share text only after a daily deal', () => {
  const v = { status: 'won', mode: 'daily', ranks: true, ranking_code: 'first-try', day: '2026-12-01', rules: 'wrap-closed', score: 512, elapsed_ms: 90_000, moves: 40, cards_left: 0, result: { board: { rank: 2, lines: 9 }, announcements: [{ text: 'New record on today\'s deal!' }] } };
  const daily = resultsContent(v, { won: 3, lost: 1, win_rate: 0.75, current_streak: 2, best_streak: 2, daily_streak: 1, best_win_ms: 80_000 }, 'Three Peaks');
  assert.equal(daily.title, 'You won!');
  assert.match(daily.body, /#2 of 9/);
  assert.match(daily.body, /New record/);
  assert.match(daily.share, /Rank 2 of 9/);
  assert.doesNotMatch(daily.body, /why-not-ranked/);
  const custom = resultsContent({ ...v, mode: 'custom', ranks: false, ranking_code: 'custom', status: 'lost', cards_left: 3, result: { ranked: false } }, null, 'Pyramid');
  assert.equal(custom.share, null);
  assert.equal(custom.title, 'Deal over');
  assert.match(custom.body, /Not ranked/);
  assert.match(custom.body, /Custom deals never rank/);
  // Issue 38: a guest's win and a held run say why they did not rank; a held run links to its review.
  const guest = resultsContent({ ...v, ranks: false, ranking_code: 'guest', result: { ranked: true, board: null } }, null, 'Three Peaks');
  assert.match(guest.body, /never rank on a leaderboard/);
  const held = resultsContent({ ...v, ranks: false, ranking_code: 'held', result: { ranked: true, held: true, board: null } }, null, 'Three Peaks');
  assert.match(held.body, /Held for review/);
  assert.match(held.body, /href="\/fair-play\/"/);
});
