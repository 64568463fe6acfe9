import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratingText, changeText, boardHtml, historyHtml } from '../../frontend/static/frontend/js/pages/ratings.js';

test('a provisional rating carries a question mark', () => {
  assert.equal(ratingText(1500, true), '1,500?');
  assert.equal(ratingText(1712, false), '1,712');
});

test('a change of rating shows its sign', () => {
  assert.equal(changeText(12), '+12');
  assert.equal(changeText(-8), '−8');
  assert.equal(changeText(0), '±0');
});

test('the board escapes names and marks the player\'s own line', () => {
  const board = {
    rules: 'wrap-closed', provisional_races: 10, provisional: 1, me: null,
    lines: [
      { rank: 1, player: { username: 'x', display_name: '<b>X</b>' }, rating: 1700, rd: 60, races: 12 },
      { rank: 2, player: { username: 'me', display_name: 'Me' }, rating: 1600, rd: 70, races: 10 },
    ],
  };
  const html = boardHtml(board, { user: { username: 'me' } });
  assert.ok(html.includes('&lt;b&gt;X&lt;/b&gt;') && !html.includes('<b>X</b>'));
  assert.match(html, /<tr class="mine"><td>2<\/td><td>Me<\/td>/);
  assert.match(html, /1 player with a provisional rating is not listed yet/);
  const empty = boardHtml({ ...board, lines: [], provisional: 0 }, { user: null });
  assert.match(empty, /Nobody has an established rating/);
});

test('the player\'s latest races show the place and the change', () => {
  const html = historyHtml({ rules: 'wrap-closed', history: [{ race: 'race-2', place: 2, players: 4, before: 1512, after: 1498, change: -14, rd: 200, at: '' }] });
  assert.match(html, /Place 2 of 4: 1,512 → 1,498 <strong>\(−14\)<\/strong>/);
  assert.equal(historyHtml(undefined), '');
  assert.equal(historyHtml({ rules: 'wrap-closed', history: [] }), '');
});
