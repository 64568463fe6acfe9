import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MoveQueue } from '../../frontend/static/frontend/js/protocol.js';

function setup() {
  const sent = [], views = [], refused = [], errors = [];
  const q = new MoveQueue({
    transmit: (m) => sent.push({ ...m }),
    onView: (v, extra) => views.push([v.seq, extra]),
    onRefused: (m) => refused.push(m),
    onError: (d) => errors.push(d),
  });
  q.accept({ id: 'g', seq: 3 });
  return { q, sent, views, refused, errors };
}

test('a move goes out with the seq of the view it was made on', () => {
  const { q, sent } = setup();
  q.push('play', 12);
  assert.deepEqual(sent, [{ seq: 3, action: 'play', position: 12 }]);
});

test('one move in flight at a time; the next goes once the answer is in, with the new seq', () => {
  const { q, sent } = setup();
  q.push('play', 12);
  q.push('draw');
  assert.equal(sent.length, 1);
  q.receive({ type: 'view', game: { id: 'g', seq: 4 } });
  assert.deepEqual(sent[1], { seq: 4, action: 'draw' });
  assert.ok(q.busy);
  q.receive({ type: 'view', game: { id: 'g', seq: 5 } });
  assert.ok(!q.busy);
});

test('an older view never replaces a newer one', () => {
  const { q, views } = setup();
  q.receive({ type: 'view', game: { id: 'g', seq: 5 } });
  q.receive({ type: 'view', game: { id: 'g', seq: 4 } });
  assert.equal(q.view.seq, 5);
  assert.deepEqual(views.map((v) => v[0]), [3, 5]);
});

test('a refused move is reported and the view stays', () => {
  const { q, refused } = setup();
  q.push('play', 7);
  q.receive({ type: 'error', code: 'illegal_move', detail: 'does not fit' });
  assert.deepEqual(refused, [{ seq: 3, action: 'play', position: 7 }]);
  assert.equal(q.view.seq, 3);
  assert.ok(!q.busy);
});

test('a seq mismatch resyncs to the server view and drops the moves built on the old one', () => {
  const { q, sent, views } = setup();
  q.push('play', 1);
  q.push('play', 2);
  q.receive({ type: 'error', code: 'seq_mismatch', game: { id: 'g', seq: 9 } });
  assert.equal(q.view.seq, 9);
  assert.equal(sent.length, 1);
  assert.ok(!q.busy);
  assert.deepEqual(views.at(-1), [9, { resynced: true }]);
});

test('moves wait while offline and the lost one is sent again with the same seq', () => {
  const { q, sent } = setup();
  q.push('draw');
  q.offline();
  q.push('play', 4);
  assert.equal(sent.length, 1);
  q.reconnected();
  assert.deepEqual(sent[1], { seq: 3, action: 'draw' });
  // The retry is answered as replayed: the queue moves on.
  q.receive({ type: 'view', game: { id: 'g', seq: 4 }, replayed: true });
  assert.deepEqual(sent[2], { seq: 4, action: 'play', position: 4 });
});

test('a view from another tab that is newer ends the move in flight', () => {
  const { q } = setup();
  q.push('draw');
  q.receive({ type: 'view', game: { id: 'g', seq: 6 } });
  assert.ok(!q.busy);
});

test('the hint travels with its view', () => {
  const { q, views } = setup();
  q.push('hint');
  const hint = { move: { action: 'draw' }, winnable: true };
  q.receive({ type: 'view', game: { id: 'g', seq: 4 }, hint });
  assert.deepEqual(views.at(-1)[1].hint, hint);
});

test('errors without a move in flight are reported', () => {
  const { q, errors } = setup();
  q.receive({ type: 'error', code: 'bad_message', detail: 'a message must be JSON' });
  assert.deepEqual(errors, ['a message must be JSON']);
});

test('a new game replaces the old view whatever its seq', () => {
  const { q } = setup();
  q.accept({ id: 'h', seq: 0 });
  assert.equal(q.view.id, 'h');
});

test('time up: the move is dropped, the queue too, and later moves are not sent; resigning is', () => {
  const sent = [], timeUps = [], errors = [];
  const q = new MoveQueue({
    transmit: (m) => sent.push({ ...m }),
    onError: (d) => errors.push(d),
    onTimeUp: () => timeUps.push(true),
  });
  q.accept({ id: 'g', seq: 3 });
  q.push('play', 12);
  q.push('draw');
  q.receive({ type: 'error', code: 'time_up', detail: 'time is up', game: { id: 'g', seq: 3 } });
  assert.equal(sent.length, 1);
  assert.ok(!q.busy);
  assert.deepEqual(errors, []);
  assert.equal(timeUps.length, 1);
  q.push('play', 7);
  assert.equal(sent.length, 1);
  assert.equal(timeUps.length, 2);
  q.push('resign');
  assert.deepEqual(sent[1], { seq: 3, action: 'resign' });
});

test('time up ends with the game: the next game takes moves again', () => {
  const sent = [];
  const q = new MoveQueue({ transmit: (m) => sent.push({ ...m }) });
  q.accept({ id: 'g', seq: 3 });
  q.push('draw');
  q.receive({ type: 'error', code: 'time_up', game: { id: 'g', seq: 3 } });
  q.accept({ id: 'h', seq: 0 });
  q.push('draw');
  assert.deepEqual(sent[1], { seq: 0, action: 'draw' });
});
