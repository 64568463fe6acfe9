import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardName, clock, elapsedNow, countdown, rulesTitle, parseKey } from '../../frontend/static/frontend/js/format.js';

test('cards announce rank and suit, or face down', () => {
  assert.equal(cardName('7H'), '7 of hearts');
  assert.equal(cardName('TS'), '10 of spades');
  assert.equal(cardName('AC'), 'ace of clubs');
  assert.equal(cardName(null), 'face down');
});

test('clock shows minutes and seconds, hours when needed', () => {
  assert.equal(clock(0), '0:00');
  assert.equal(clock(65_400), '1:05');
  assert.equal(clock(3_725_000), '1:02:05');
});

test('the clock ticks only while the server says it runs', () => {
  const v = { elapsed_ms: 1000, clock_running: true, paused: false };
  assert.equal(elapsedNow(v, 500, 2500), 3000);
  assert.equal(elapsedNow({ ...v, clock_running: false }, 500, 2500), 1000);
  assert.equal(elapsedNow({ ...v, paused: true }, 500, 2500), 1000);
});

test('countdown and rule titles', () => {
  assert.equal(countdown(3_723_000), '1h 02m 03s');
  assert.equal(rulesTitle('nowrap-open'), 'King-Ace off, peaks open');
  assert.deepEqual(parseKey('wrap-closed'), { key: 'wrap-closed', wrap: true, open: false, start: 'waste' });
});

import { keyAction } from '../../frontend/static/frontend/js/input.js';

const key = (k, extra = {}) => keyAction({ key: k, target: { tagName: 'BODY' }, ...extra });

test('the keyboard map: draw, move, play, undo, hint, new deal, pause', () => {
  assert.equal(key('d'), 'draw');
  assert.equal(key('D'), 'draw');
  assert.equal(key(' '), 'draw');
  assert.equal(key('ArrowUp'), 'up');
  assert.equal(key('Enter'), 'activate');
  for (const k of ['z', 'U', 'Backspace']) assert.equal(key(k), 'undo');
  assert.equal(key('h'), 'hint');
  assert.equal(key('n'), 'new');
  assert.equal(key('Escape'), 'pause');
  assert.equal(key('p'), 'pause');
});

test('keys typed into a field or with a modifier are left alone', () => {
  assert.equal(key('d', { target: { tagName: 'INPUT' } }), null);
  assert.equal(key('z', { ctrlKey: true }), null);
  assert.equal(key('q'), null);
});
