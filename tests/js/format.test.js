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

test('Space and Enter on a focused button outside the table press the button', () => {
  const undo = { tagName: 'BUTTON', closest: () => null };
  const card = { tagName: 'BUTTON', closest: (sel) => (sel === '.table .pc' ? {} : null) };
  assert.equal(key(' ', { target: undo }), null);
  assert.equal(key('Enter', { target: undo }), null);
  assert.equal(key(' ', { target: { tagName: 'A', closest: () => null } }), null);
  assert.equal(key(' ', { target: card }), 'draw');
  assert.equal(key('Enter', { target: card }), 'activate');
  assert.equal(key('d', { target: undo }), 'draw');
});

test('keys typed into a field or with a modifier are left alone', () => {
  assert.equal(key('d', { target: { tagName: 'INPUT' } }), null);
  assert.equal(key('z', { ctrlKey: true }), null);
  assert.equal(key('q'), null);
});

import { movesText, dealTitle } from '../../frontend/static/frontend/js/format.js';

test('one move, two moves; the deal named by its kind', () => {
  assert.equal(movesText(1), '1 move');
  assert.equal(movesText(0), '0 moves');
  assert.equal(movesText(2), '2 moves');
  assert.equal(dealTitle({ mode: 'numbered', number: 42, rules: 'wrap-closed' }), 'Deal #42 · King-Ace on, peaks closed');
  assert.equal(dealTitle({ mode: 'daily', day: '2026-12-01', rules: 'nowrap-open' }), 'Daily deal Dec 1, 2026 · King-Ace off, peaks open');
});

import { num, digits } from '../../frontend/static/frontend/js/i18n.js';

test('numbers in the locale: Devanagari digits for Nepali', () => {
  assert.equal(num(1234, 'en'), '1,234');
  assert.equal(num(205, 'ne'), '२०५');
  assert.equal(digits('1:05', 'ne'), '१:०५');
  assert.equal(digits('1:05', 'de'), '1:05');
});

import { dailyShareText } from '../../frontend/static/frontend/js/share.js';

test('the daily share text tells the result and rank and no card', () => {
  const v = { status: 'won', elapsed_ms: 201_000, moves: 45, day: '2026-12-01', rules: 'wrap-closed', cards_left: 0, waste: 'KH', positions: [{ card: '7H' }] };
  const text = dailyShareText(v, { rank: 3, lines: 12 });
  assert.equal(text, 'TriPeaks Online · daily deal 2026-12-01\nKing-Ace on, peaks closed\nWon in 3:21 with 45 moves · Rank 3 of 12');
  assert.ok(!/\b[A2-9TJQK][CDHS]\b/.test(text));
  assert.match(dailyShareText({ ...v, status: 'lost', cards_left: 1, moves: 1 }, null), /1 card left after 1 move, 3:21 · Not ranked/);
});

import { readCode } from '../../frontend/static/frontend/js/pages/custom.js';

test('a pasted deal code is read, or says what is wrong', () => {
  const deck = [];
  for (const s of 'CDHS') for (const r of 'A23456789TJQK') deck.push(r + s);
  assert.deepEqual(readCode(deck.join(' ').toLowerCase()).cards, deck);
  assert.match(readCode(deck.slice(1).join(' ')).error, /52 cards; this one has 51/);
  assert.match(readCode([...deck.slice(1), 'XX'].join(' ')).error, /"XX" is not a card/);
  assert.match(readCode([...deck.slice(1), '2C'].join(' ')).error, /2C is in the code twice/);
});
