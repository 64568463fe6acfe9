// Issue 38, item 3: every refusal that says how long to wait (a 429, a 503, a socket's error frame
// with retry_after) is said with its wait, in words for what was asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalWords, waitText } from '../../../frontend/static/frontend/js/refusals.js';

test('the wait in seconds, and in minutes past a minute and a half', () => {
  assert.equal(waitText(1), '1 second');
  assert.equal(waitText(33), '33 seconds');
  assert.equal(waitText(90), '90 seconds');
  assert.equal(waitText(91), '2 minutes');
  assert.equal(waitText(3600), '60 minutes');
});

test('each refusal the game page meets says what was refused and its wait', () => {
  assert.equal(refusalWords('hint', 'throttled', 0)(33), 'Too many hints: try again in 33 seconds.');
  assert.equal(refusalWords('hint', 'solver_busy', 503)(1), 'The solver is busy: try again in 1 second.');
  assert.equal(refusalWords('deal', 'pool_empty', 503)(5), 'No new deal of these rules is ready yet: try again in 5 seconds.');
  assert.equal(refusalWords('deal', 'throttled', 0)(20), 'Too many new deals in a short time: try again in 20 seconds.');
  assert.equal(refusalWords('deal', undefined, 429)(20), 'Too many new deals in a short time: try again in 20 seconds.');
  assert.equal(refusalWords('guest', 'throttled', 429)(3000), 'Too many guests from your network: try again in 50 minutes, or sign in.');
  assert.equal(refusalWords('move', 'throttled', 0)(1), 'Too many moves in a short time: try again in 1 second.');
});

test('a refusal of something else still says its wait', () => {
  assert.equal(refusalWords('draw', undefined, 429)(2), 'Too many requests: try again in 2 seconds.');
  assert.equal(refusalWords('deal', 'solver_busy', 503)(1), 'The server is busy: try again in 1 second.');
  assert.equal(refusalWords('move', undefined, 503)(4), 'The server is busy: try again in 4 seconds.');
});

import { MoveQueue } from '../../../frontend/static/frontend/js/protocol.js';

test('a refused move hands the page the server\'s frame, its wait with it', () => {
  const got = [];
  const q = new MoveQueue({ transmit: () => {}, onError: (detail, move, msg) => got.push([detail, move && move.action, msg.code, msg.retry_after]) });
  q.accept({ id: 'g', seq: 3 });
  q.push('hint');
  q.receive({ type: 'error', code: 'throttled', detail: 'too many hints: try again in 33 seconds', retry_after: 33 });
  assert.deepEqual(got, [['too many hints: try again in 33 seconds', 'hint', 'throttled', 33]]);
  assert.equal(q.inflight, null);
});
