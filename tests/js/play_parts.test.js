// The game page's pure parts (frontend/static/frontend/js/pages/play/): the moves the page
// refuses at once or asks about first, what a new view says, and the keys' commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionVerdict, cardVerdict, ranked } from '../../frontend/static/frontend/js/pages/play/moves.js';
import { feedback } from '../../frontend/static/frontend/js/pages/play/feedback.js';
import { keyCommand } from '../../frontend/static/frontend/js/pages/play/controls.js';

const idle = { busy: false, starting: false };
const busy = { busy: true, starting: false };

function view(over = {}) {
  return {
    id: 'g', seq: 3, mode: 'random', assisted: false, ranks: true, ranking_code: 'first-try', status: 'playing', paused: false,
    moves: 2, stock_left: 10, can_undo: true, waste: '5H',
    positions: [
      { position: 0, card: null, face_up: false, free: false, removed: false },
      { position: 1, card: 'KS', face_up: true, free: true, removed: false },
      { position: 2, card: '4C', face_up: true, free: true, removed: false },
      { position: 3, card: 'QD', face_up: true, free: false, removed: false },
      { position: 4, card: null, face_up: false, free: false, removed: true },
    ],
    playable: [2],
    ...over,
  };
}

test('a playable card goes to the server', () => {
  assert.deepEqual(cardVerdict(view(), 2, idle), { kind: 'send' });
});

test('a card that does not fit, is covered or face down shakes at once with its reason', () => {
  assert.deepEqual(cardVerdict(view(), 1, idle), { kind: 'refuse', shake: 1, say: 'The king of spades does not fit' });
  assert.deepEqual(cardVerdict(view(), 3, idle), { kind: 'refuse', shake: 3, say: 'The queen of diamonds is covered' });
  assert.deepEqual(cardVerdict(view(), 0, idle), { kind: 'refuse', shake: 0, say: 'That card is face down' });
});

test('while moves are queued the view may be stale: the server judges the card', () => {
  assert.deepEqual(cardVerdict(view(), 1, busy), { kind: 'send' });
});

test('a removed card, a paused or finished game, or a new deal awaited: nothing happens', () => {
  assert.equal(cardVerdict(view(), 4, idle).kind, 'ignore');
  assert.equal(cardVerdict(view({ paused: true }), 2, idle).kind, 'ignore');
  assert.equal(cardVerdict(view({ status: 'won' }), 2, idle).kind, 'ignore');
  assert.equal(cardVerdict(view(), 2, { busy: false, starting: true }).kind, 'ignore');
  assert.equal(cardVerdict(view(), 99, idle).kind, 'ignore');
});

test('drawing from an empty stock shakes it; undo with nothing to undo only says so', () => {
  assert.deepEqual(actionVerdict(view({ stock_left: 0 }), 'draw', idle), { kind: 'refuse', shake: 'stock', say: 'The stock is empty' });
  assert.deepEqual(actionVerdict(view({ can_undo: false }), 'undo', idle), { kind: 'refuse', shake: null, say: 'Nothing to undo' });
  assert.equal(actionVerdict(view({ stock_left: 0 }), 'draw', busy).kind, 'send');
});

test('a paused game takes only resume and resign', () => {
  const paused = view({ paused: true });
  assert.equal(actionVerdict(paused, 'resume', idle).kind, 'send');
  assert.equal(actionVerdict(paused, 'resign', idle).kind, 'send');
  assert.equal(actionVerdict(paused, 'undo', idle).kind, 'ignore');
  assert.equal(actionVerdict(paused, 'draw', idle).kind, 'refuse');
});

test('the first hint of a ranked run and starting again after moves ask first', () => {
  assert.deepEqual(actionVerdict(view(), 'hint', idle), { kind: 'ask', first: 'hint' });
  assert.equal(actionVerdict(view({ assisted: true }), 'hint', idle).kind, 'send');
  assert.equal(actionVerdict(view({ mode: 'custom', ranks: false, ranking_code: 'custom' }), 'hint', idle).kind, 'send');
  // Issue 38: a guest's run never ranks, so its hint takes nothing away and asks nothing.
  assert.equal(actionVerdict(view({ ranks: false, ranking_code: 'guest' }), 'hint', idle).kind, 'send');
  assert.deepEqual(actionVerdict(view(), 'restart', idle), { kind: 'ask', first: 'restart' });
  assert.equal(actionVerdict(view({ moves: 0 }), 'restart', idle).kind, 'send');
  assert.equal(ranked(view({ mode: 'daily' })), true);
});

test('a finished game or an awaited new deal takes no action', () => {
  assert.equal(actionVerdict(view({ status: 'lost' }), 'undo', idle).kind, 'ignore');
  assert.equal(actionVerdict(view(), 'draw', { busy: false, starting: true }).kind, 'ignore');
});

test('a card played: the play sound and the new waste card is said', () => {
  const f = feedback(view(), view({ seq: 4, waste: '4C', moves: 3 }));
  assert.deepEqual(f, { sound: 'play', say: 'Waste: 4 of clubs', glow: undefined });
});

test('a draw sounds as a draw; an undo that takes the waste back as an undo', () => {
  assert.equal(feedback(view(), view({ seq: 4, waste: 'TS', stock_left: 9 })).sound, 'draw');
  assert.deepEqual(feedback(view({ waste: null }), view({ seq: 4, waste: null, moves: 3 })), { sound: 'undo', say: null, glow: undefined });
});

test('a resync, an older or the same view, or another game say nothing', () => {
  const quiet = { sound: null, say: null, glow: undefined };
  assert.deepEqual(feedback(view(), view({ seq: 4, waste: '4C' }), { resynced: true }), quiet);
  assert.deepEqual(feedback(view(), view()), quiet);
  assert.deepEqual(feedback(view(), view({ id: 'h', seq: 9, waste: '4C' })), quiet);
  assert.deepEqual(feedback(null, view()), quiet);
});

test('a hint glows on its place and says it; no move or no certain move says why', () => {
  assert.deepEqual(feedback(view(), view(), { hint: { move: { action: 'play', position: 2 } } }), { sound: null, say: 'Hint: play the 4 of clubs', glow: 2 });
  assert.deepEqual(feedback(view(), view(), { hint: { move: { action: 'draw' } } }), { sound: null, say: 'Hint: draw from the stock', glow: 'stock' });
  assert.deepEqual(feedback(view(), view(), { hint: { move: null } }), { sound: null, say: 'No move helps any more', glow: null });
  assert.equal(feedback(view(), view(), { hint: { move: null, certain: false } }).say, 'No certain hint in time: try again in a moment');
});

test('keys: arrows move, Enter plays the focused card or draws on the stock', () => {
  const v = view();
  assert.deepEqual(keyCommand('left', 2, v), { move: 'left' });
  assert.deepEqual(keyCommand('activate', 2, v), { play: 2 });
  assert.deepEqual(keyCommand('activate', 'stock', v), { act: 'draw' });
  assert.deepEqual(keyCommand('activate', null, v), { move: 'right' });
  assert.deepEqual(keyCommand('draw', 2, v), { act: 'draw' });
  assert.deepEqual(keyCommand('undo', 2, v), { act: 'undo' });
  assert.deepEqual(keyCommand('hint', 2, v), { act: 'hint' });
  assert.deepEqual(keyCommand('new', 2, v), { newDeal: true });
  assert.equal(keyCommand('nonsense', 2, v), null);
});

test('P and Esc pause a game on; a paused or finished game has no pause', () => {
  assert.deepEqual(keyCommand('pause', null, view()), { act: 'pause' });
  assert.equal(keyCommand('pause', null, view({ paused: true })), null);
  assert.equal(keyCommand('pause', null, view({ status: 'won' })), null);
});

test('a contest game takes no undo, hint, start again or pause, and its keys do nothing', () => {
  const contest = view({ contest: true });
  for (const action of ['undo', 'hint', 'restart', 'pause']) {
    assert.equal(actionVerdict(contest, action, idle).kind, 'ignore', action);
    assert.equal(actionVerdict(view(), action, idle).kind === 'ignore', false, action);
  }
  assert.equal(actionVerdict(contest, 'draw', idle).kind, 'send');
  assert.equal(actionVerdict(contest, 'resign', idle).kind, 'send');
  for (const key of ['undo', 'hint', 'new', 'pause']) assert.equal(keyCommand(key, null, contest), null, key);
  assert.deepEqual(keyCommand('draw', null, contest), { act: 'draw' });
});
