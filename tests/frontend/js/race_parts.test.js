// One race's pure parts: who may be claimed against (pages/race/absence.js) and the buttons the
// player gets (pages/race/head.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Absence } from '../../../frontend/static/frontend/js/pages/race/absence.js';
import { actionsHtml } from '../../../frontend/static/frontend/js/pages/race/head.js';

/** @param {string} username @param {string} status @param {number | null} [seq] */
const player = (username, status, seq = 0) => ({ username, name: username.toUpperCase(), status, seq, place: null });
/** @param {object} over */
const race = (over) => ({
  state: 'running', host: 'ann', rematch: null, absent_s: 30,
  starts_at: new Date(Date.now() - 120000).toISOString(),
  players: [player('ann', 'playing'), player('bob', 'playing')], ...over,
});
const buttons = (/** @type {string} */ html) => [...html.matchAll(/data-act="([^"]+)"/g)].map((m) => m[1]);

test('a racer heard of just now cannot be claimed against', () => {
  const r = race({});
  assert.deepEqual(new Absence(r.players).absent(r, 'ann', 0), []);
});

test('a racer silent for the race\'s absent_s can be, by a player still racing', () => {
  const r = race({});
  const absence = new Absence(r.players);
  absence.heard.set('bob', Date.now() - 31000);
  assert.deepEqual(absence.absent(r, 'ann', 0).map((p) => p.username), ['bob']);
  assert.deepEqual(buttons(actionsHtml(r, 'ann', absence.absent(r, 'ann', 0))), ['leave', 'claim:bob']);
  const done = race({ players: [player('ann', 'won'), player('bob', 'playing')] });
  assert.deepEqual(absence.absent(done, 'ann', 0), []);
});

test('a racer whose line changed is heard of again', () => {
  const r = race({});
  const absence = new Absence(r.players);
  absence.heard.set('bob', Date.now() - 31000);
  absence.hearChanges(r, race({ players: [player('ann', 'playing'), player('bob', 'playing', 1)] }));
  assert.deepEqual(absence.absent(r, 'ann', 0), []);
});

test('the buttons: join and start while open, rematch once over', () => {
  const open = race({ state: 'open', players: [player('ann', 'waiting')] });
  assert.deepEqual(buttons(actionsHtml(open, 'ann', [])), ['start', 'leave']);
  assert.deepEqual(buttons(actionsHtml(open, 'bob', [])), ['join']);
  const over = race({ state: 'finished', players: [{ ...player('ann', 'won'), place: 1 }, { ...player('bob', 'finished'), place: 2 }] });
  assert.deepEqual(buttons(actionsHtml(over, 'bob', [])), ['rematch']);
  assert.deepEqual(buttons(actionsHtml(over, 'eve', [])), []);
});
