// MoveQueue and a new deal asked for on the game's own connection ("new" -> "started" / error).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MoveQueue } from '../../../frontend/static/frontend/js/protocol.js';

function setup() {
  const sent = [], views = [], errors = [], refusedDeals = [];
  const q = new MoveQueue({
    transmit: (m) => sent.push({ ...m }),
    onView: (v, extra) => views.push([v.id, v.seq, extra]),
    onError: (d) => errors.push(d),
    onNewError: (d, msg) => refusedDeals.push([d, msg.code]),
  });
  q.accept({ id: 'old', seq: 7 });
  return { q, sent, views, errors, refusedDeals };
}

test('a new deal is asked for only when no move is in flight or queued', () => {
  const { q } = setup();
  q.push('draw');
  assert.equal(q.beginNew(), false);
  q.receive({ type: 'view', game: { id: 'old', seq: 8 } });
  assert.equal(q.beginNew(), true);
  assert.equal(q.beginNew(), false, 'one new deal awaited at a time');
});

test('no new deal is asked for before there is a game', () => {
  const q = new MoveQueue({ transmit: () => {} });
  assert.equal(q.beginNew(), false);
});

test('started: the new game is taken whatever its seq and moves then carry its seq', () => {
  const { q, sent, views } = setup();
  q.beginNew();
  q.receive({ type: 'started', game: { id: 'new', seq: 0 } });
  assert.equal(q.view.id, 'new');
  assert.equal(q.starting, false);
  assert.deepEqual(views.at(-1), ['new', 0, { started: true }]);
  q.push('play', 5);
  assert.deepEqual(sent, [{ seq: 0, action: 'play', position: 5 }]);
});

test('moves asked for while the new deal is awaited are not sent on the old game', () => {
  const { q, sent } = setup();
  q.beginNew();
  q.push('draw');
  assert.deepEqual(sent, []);
  q.receive({ type: 'started', game: { id: 'new', seq: 0 } });
  assert.deepEqual(sent, [], 'they were made on the deal that was left');
  assert.ok(!q.busy);
});

test('an error while a new deal is awaited is its answer: the current game goes on', () => {
  const { q, sent, errors, refusedDeals } = setup();
  q.beginNew();
  q.receive({ type: 'error', code: 'throttled', detail: 'Too many messages. Try again in 3 seconds.', retry_after: 3 });
  assert.deepEqual(refusedDeals, [['Too many messages. Try again in 3 seconds.', 'throttled']]);
  assert.deepEqual(errors, []);
  assert.equal(q.view.id, 'old');
  assert.equal(q.starting, false);
  q.push('draw');
  assert.deepEqual(sent, [{ seq: 7, action: 'draw' }]);
});

test('abandoning a new deal stops the wait and drops what was queued on the old game', () => {
  const { q, sent } = setup();
  q.beginNew();
  q.push('draw');
  q.abandonNew();
  assert.equal(q.starting, false);
  assert.ok(!q.busy);
  q.push('undo');
  assert.deepEqual(sent, [{ seq: 7, action: 'undo' }]);
});

test('a started that comes after the page stopped waiting still moves the page to the new game', () => {
  const { q } = setup();
  q.beginNew();
  q.abandonNew();
  q.receive({ type: 'started', game: { id: 'new', seq: 0 } });
  assert.equal(q.view.id, 'new');
});

test('a late view of the game that was left is dropped', () => {
  const { q, views } = setup();
  q.beginNew();
  q.receive({ type: 'started', game: { id: 'new', seq: 0 } });
  q.receive({ type: 'view', game: { id: 'old', seq: 9 } });
  assert.equal(q.view.id, 'new');
  assert.deepEqual(views.map((v) => v[0]), ['old', 'new']);
});

test('a seq mismatch about the game that was left does not resync to it', () => {
  const { q, sent } = setup();
  q.receive({ type: 'started', game: { id: 'new', seq: 0 } });
  q.push('draw');
  q.receive({ type: 'error', code: 'seq_mismatch', detail: 'stale', game: { id: 'old', seq: 9 } });
  assert.equal(q.view.id, 'new');
  assert.equal(sent.length, 1);
});

test('taking another game drops the move in flight on the old one', () => {
  const { q, sent } = setup();
  q.push('draw');
  q.push('play', 3);
  q.accept({ id: 'new', seq: 0 });
  assert.ok(!q.busy);
  q.push('undo');
  assert.deepEqual(sent.at(-1), { seq: 0, action: 'undo' });
});
