// A race's rating change as the results and the history show it: held for staff, or signed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { raceChangeText } from '../../../frontend/static/frontend/js/pages/races/words.js';

test('a rating change held for staff review says so instead of a number', () => {
  assert.equal(raceChangeText({ before: 1500, after: null, change: null, held: true }), 'Held for review');
});

test('an applied change is signed as on the ratings page', () => {
  assert.equal(raceChangeText({ before: 1500, after: 1662, change: 162 }), '+162');
  assert.equal(raceChangeText({ before: 1500, after: 1338, change: -162 }), '−162');
  assert.equal(raceChangeText({ before: 1500, after: 1500, change: 0 }), '±0');
});
