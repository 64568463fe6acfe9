// One race's pure parts: who may be claimed against (pages/race/absence.js), the buttons the
// player gets and the race's one clock (pages/race/head.js), the strip (pages/race/players.js) and
// the race's own results (pages/race/results.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Absence } from '../../../frontend/static/frontend/js/pages/race/absence.js';
import { actionsHtml, raceClockMs } from '../../../frontend/static/frontend/js/pages/race/head.js';
import { stripHtml } from '../../../frontend/static/frontend/js/pages/race/players.js';
import { resultsHtml } from '../../../frontend/static/frontend/js/pages/race/results.js';

/** @param {string} username @param {string} status @param {number | null} [seq] */
const player = (username, status, seq = 0) => ({ username, name: username.toUpperCase(), status, seq, place: null });
/** @param {object} over */
const race = (over) => ({
  state: 'running', host: 'ann', rematch: null, absent_s: 30,
  starts_at: new Date(Date.now() - 120000).toISOString(),
  players: [player('ann', 'playing'), player('bob', 'playing')], ...over,
});
const buttons = (/** @type {string} */ html) => [...html.matchAll(/data-act="([^"]+)"/g)].map((m) => m[1]);

test('a racer the server has not said may be claimed against gets no button', () => {
  const r = race({});
  assert.deepEqual(new Absence(r, 0).absent(r, 'ann'), []);
});

test('a racer the server says may be claimed against gets one, from a player still racing', () => {
  const r = race({ players: [player('ann', 'playing'), { ...player('bob', 'playing'), claimable: true, claimable_in_s: 0 }] });
  const absence = new Absence(r, 0);
  assert.deepEqual(absence.absent(r, 'ann').map((p) => p.username), ['bob']);
  assert.deepEqual(buttons(actionsHtml(r, 'ann', absence.absent(r, 'ann'))), ['leave', 'claim:bob']);
  const done = race({ players: [player('ann', 'won'), player('bob', 'playing')] });
  assert.deepEqual(absence.absent(done, 'ann'), []);
});

test('a racer heard of since the server\'s word gets no button', () => {
  const r = race({ players: [player('ann', 'playing'), { ...player('bob', 'playing'), claimable: true, claimable_in_s: 0 }] });
  const absence = new Absence(r, 0);
  absence.hear('bob', 30, 1000);
  assert.deepEqual(absence.absent(r, 'ann'), []);
});

test('the buttons: join and start while open, end a stuck deal, rematch in the results once over', () => {
  const open = race({ state: 'open', players: [player('ann', 'waiting')] });
  assert.deepEqual(buttons(actionsHtml(open, 'ann', [])), ['start', 'leave']);
  assert.deepEqual(buttons(actionsHtml(open, 'bob', [])), ['join']);
  assert.deepEqual(buttons(actionsHtml(race({}), 'ann', [], true)), ['end', 'leave']);
  const over = race({ state: 'finished', players: [{ ...player('ann', 'won'), place: 1 }, { ...player('bob', 'finished'), place: 2 }] });
  assert.deepEqual(buttons(actionsHtml(over, 'bob', [])), []);
  assert.deepEqual(buttons(resultsHtml(over, 'bob', 'Finished: ANN wins')), ['rematch']);
  assert.deepEqual(buttons(resultsHtml(over, 'eve', 'Finished: ANN wins')), []);
  assert.match(resultsHtml(over, 'eve', ''), /href="#\/races" data-testid="race-next"/);
});

test('the race clock runs from the start and stops at the end, the same for everyone', () => {
  const start = Date.parse('2026-01-01T10:00:00Z');
  const at = (/** @type {number} */ s) => new Date(start + s * 1000).toISOString();
  const running = race({ starts_at: at(0), ends_at: at(300), finished_at: null });
  assert.equal(raceClockMs(running, start + 42000), 42000);
  assert.equal(raceClockMs(running, start + 400000), 300000); // never past the cap
  const over = race({ state: 'finished', starts_at: at(0), ends_at: at(300), finished_at: at(69) });
  assert.equal(raceClockMs(over, start + 69000), 69000);
  assert.equal(raceClockMs(over, start + 200000), 69000); // stopped at the finish
  assert.equal(raceClockMs(race({ state: 'countdown', starts_at: at(3) }), start), 0);
});

test('the strip shows the others: cards left as a bar, streak, status, and no card', () => {
  const r = race({ players: [{ ...player('ann', 'playing'), cards_left: 20, streak: 3 }, { ...player('bob', 'stuck'), cards_left: 7, streak: 0 }] });
  const html = stripHtml(r, 'ann', 28);
  assert.doesNotMatch(html, /data-player="ann"/);
  assert.match(html, /data-player="bob"/);
  assert.match(html, /style="width:25%"/);
  assert.match(html, /×0/);
  assert.match(html, /stuck/);
  assert.equal((stripHtml(r, 'carol', 28).match(/class="racer"/g) || []).length, 2); // a watcher: all
});
