import { test } from 'node:test';
import assert from 'node:assert/strict';
import { step, ordered } from '../../frontend/static/frontend/js/nav.js';

// A bottom row of four cards, one card above, the stock below.
const PLACES = [
  { id: 18, x: 0, y: 3 }, { id: 19, x: 2, y: 3 }, { id: 20, x: 4, y: 3 }, { id: 21, x: 6, y: 3 },
  { id: 10, x: 3, y: 2 },
  { id: 'stock', x: 2, y: 6 },
];

test('right and left move along a row', () => {
  assert.equal(step(PLACES, 18, 'right'), 19);
  assert.equal(step(PLACES, 20, 'left'), 19);
});

test('the row wraps round at its ends', () => {
  assert.equal(step(PLACES, 21, 'right'), 18);
  assert.equal(step(PLACES, 18, 'left'), 21);
});

test('up goes to the nearest card above, down to the stock', () => {
  assert.equal(step(PLACES, 20, 'up'), 10);
  assert.equal(step(PLACES, 19, 'down'), 'stock');
  assert.equal(step(PLACES, 'stock', 'up'), 19);
});

test('nowhere to go keeps the place; an unknown place starts at the first', () => {
  assert.equal(step(PLACES, 10, 'up'), 10);
  assert.equal(step(PLACES, 99, 'left'), 18);
  assert.equal(step([], 5, 'left'), 5);
});

test('reading order is top to bottom, left to right', () => {
  assert.deepEqual(ordered(PLACES).map((p) => p.id), [10, 18, 19, 20, 21, 'stock']);
});
