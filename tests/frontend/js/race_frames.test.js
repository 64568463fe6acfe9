// What the race socket's frames do to the race in hand (pages/race/frames.js): a gap in the
// race's version or a player's seq asks for the whole race again; an older frame changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { raceStep, progressStep } from '../../../frontend/static/frontend/js/pages/race/frames.js';

/** @param {number} version @param {number | null} seq @param {string} [state] */
const race = (version, seq, state = 'running') => ({ version, state, players: [{ username: 'ann', seq }, { username: 'bob', seq: 0 }] });
/** @param {number} version @param {number} seq */
const progress = (version, seq) => ({ type: 'progress', version, player: { username: 'ann', seq } });

test('the next race is taken without a sync', () => {
  assert.deepEqual(raceStep(race(3, 4), race(4, 5)), { take: true, sync: false });
});

test('a race older than the one in hand is dropped', () => {
  assert.deepEqual(raceStep(race(3, 4), race(2, 9)), { take: false, sync: false });
});

test('a skipped version or a skipped move of a player is taken and read again whole', () => {
  assert.deepEqual(raceStep(race(3, 4), race(5, 4)), { take: true, sync: true });
  assert.deepEqual(raceStep(race(3, 4), race(4, 6)), { take: true, sync: true });
});

test('the player\'s own seq is no gap: their own moves never come as progress', () => {
  assert.deepEqual(raceStep(race(3, 4), race(4, 9), 'ann'), { take: true, sync: false });
  assert.deepEqual(raceStep(race(3, 4), race(4, 9), 'bob'), { take: true, sync: true });
  assert.deepEqual(raceStep(race(3, 4), race(5, 9), 'ann'), { take: true, sync: true });
});

test('a player\'s next move changes their line; a move seen already changes nothing', () => {
  const r = race(3, 4);
  assert.deepEqual(progressStep(r, progress(3, 5)), { line: r.players[0], sync: false });
  assert.equal(progressStep(r, progress(3, 4)), null);
  assert.equal(progressStep(r, progress(2, 5)), null);
});

test('a skipped move or a newer race version syncs; progress outside a running race is dropped', () => {
  const r = race(3, 4);
  assert.deepEqual(progressStep(r, progress(3, 7)), { line: r.players[0], sync: true });
  assert.deepEqual(progressStep(r, progress(4, 5)), { line: r.players[0], sync: true });
  assert.equal(progressStep(race(3, 4, 'finished'), progress(3, 5)), null);
  assert.equal(progressStep(r, { type: 'progress', version: 3, player: { username: 'eve', seq: 1 } }), null);
});

test('a player with no move yet (seq null) takes their first', () => {
  const r = race(3, null);
  assert.deepEqual(progressStep(r, progress(3, 0)), { line: r.players[0], sync: false });
});
