// The game review's pure parts (frontend/static/frontend/js/pages/review/): stepping and its keys
// and swipes, the marks and words of the analysis, a solver's line played on the table, and the
// gentle asking again for an analysis still pending.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewKey, stepTo, playFrom, swipe, stepDelay } from '../../frontend/static/frontend/js/pages/review/stepper.js';
import { moveText, positionMarks, summary, lineStepText, verdictText } from '../../frontend/static/frontend/js/pages/review/marks.js';
import { seenCards, linePositions, placeOf } from '../../frontend/static/frontend/js/pages/review/line.js';
import { nextWait, AnalysisPoll, POLL_GIVE_UP_S } from '../../frontend/static/frontend/js/pages/review/poll.js';

test('the keys step, go back, jump to either end and play or pause', () => {
  assert.equal(reviewKey({ key: 'ArrowRight' }), 'step');
  assert.equal(reviewKey({ key: 'ArrowLeft' }), 'back');
  assert.equal(reviewKey({ key: 'Home' }), 'home');
  assert.equal(reviewKey({ key: 'End' }), 'end');
  assert.equal(reviewKey({ key: ' ' }), 'toggle');
  assert.equal(reviewKey({ key: 'x' }), null);
  assert.equal(reviewKey({ key: 'ArrowRight', ctrlKey: true }), null);
});

test('a control keeps the keys it takes itself', () => {
  assert.equal(reviewKey({ key: ' ' }, 'button'), null); // Space presses the focused button
  assert.equal(reviewKey({ key: 'ArrowRight' }, 'button'), 'step');
  assert.equal(reviewKey({ key: 'ArrowRight' }, 'input:range'), null); // the slider moves itself
  assert.equal(reviewKey({ key: ' ' }, 'input:range'), 'toggle');
  assert.equal(reviewKey({ key: 'ArrowLeft' }, 'select'), null);
  assert.equal(reviewKey({ key: 'Home' }, 'input:text'), null);
});

test('stepping stays between the deal and the last move', () => {
  assert.equal(stepTo(0, 'back', 10), 0);
  assert.equal(stepTo(10, 'step', 10), 10);
  assert.equal(stepTo(4, 'step', 10), 5);
  assert.equal(stepTo(4, 'back', 10), 3);
  assert.equal(stepTo(4, 'home', 10), 0);
  assert.equal(stepTo(4, 'end', 10), 10);
  assert.equal(stepTo(4, 'toggle', 10), 4);
  assert.equal(stepTo(0, 'end', 0), 0);
});

test('play at speed starts over from the end, and goes faster at 2x and 4x', () => {
  assert.equal(playFrom(10, 10), 0);
  assert.equal(playFrom(3, 10), 3);
  assert.ok(stepDelay(2) < stepDelay(1) && stepDelay(4) < stepDelay(2));
  assert.equal(stepDelay(3), stepDelay(1)); // not a speed: 1x
});

test('a swipe left shows the next move, right the one before; a tap or a scroll nothing', () => {
  assert.equal(swipe(-80, 5), 'step');
  assert.equal(swipe(80, -5), 'back');
  assert.equal(swipe(10, 0), null);
  assert.equal(swipe(-60, 90), null);
});

// A three-card layout: 0 and 1 lie on 2, which is covered until both are gone.
const LAYOUT = {
  name: 'tiny', title: 'Tiny', size: 3,
  slots: [
    { position: 0, x: 0, y: 0, z: 1, covered_by: [] },
    { position: 1, x: 2, y: 0, z: 1, covered_by: [] },
    { position: 2, x: 1, y: 1, z: 0, covered_by: [0, 1] },
  ],
};
const place = (position, card, { free = true, removed = false } = {}) => ({ position, card: removed ? null : card, face_up: Boolean(card) && !removed, free: free && !removed, removed });
const pos = (over) => ({ status: 'playing', seq: 0, moves: 0, waste: '5H', waste_count: 1, stock_left: 2, cards_left: 3, playable: [], can_undo: false, ...over });

// The game: draw (6C), play 0 (7D), undo, play 1 (4S)... as the replay sends it.
const POSITIONS = [
  pos({ positions: [place(0, '6D'), place(1, '4S'), place(2, null, { free: false })] }),
  pos({ waste: '6C', waste_count: 2, stock_left: 1, positions: [place(0, '6D'), place(1, '4S'), place(2, null, { free: false })] }),
  pos({ waste: '6D', waste_count: 3, stock_left: 1, cards_left: 2, positions: [place(0, null, { removed: true }), place(1, '4S'), place(2, null, { free: false })] }),
  pos({ waste: '6C', waste_count: 2, stock_left: 1, positions: [place(0, '6D'), place(1, '4S'), place(2, null, { free: false })] }),
];
const MOVES = [
  { seq: 1, action: 'draw', position: null, elapsed_ms: 900 },
  { seq: 2, action: 'play', position: 0, elapsed_ms: 1800 },
  { seq: 3, action: 'undo', position: null, elapsed_ms: 2500 },
];

test('each move in words, with the card it played or drew', () => {
  assert.equal(moveText(MOVES[0], POSITIONS[0], POSITIONS[1]), 'Drew the 6 of clubs');
  assert.equal(moveText(MOVES[1], POSITIONS[1], POSITIONS[2]), 'Played the 6 of diamonds');
  assert.equal(moveText(MOVES[2], POSITIONS[2], POSITIONS[3]), 'Took back a move');
  assert.equal(moveText({ seq: 4, action: 'restart', position: null, elapsed_ms: 1 }, POSITIONS[3], POSITIONS[0]), 'Started again');
});

const analysis = (over) => ({
  state: 'ready', verdicts: ['winnable', 'winnable', 'lost', 'winnable'], losing_move: 2, winning_line: ['draw', 1, 0, 2],
  par: 4, par_line: [1, 'draw', 0, 2], over_par: null, shorter_from: null, budget_nodes: 100000, ...over,
});
const GAME = { id: 'g', player: { name: 'ann' }, status: 'lost', score: 3, moves: 3, elapsed_ms: 2500, finished_at: '', deal: { source: 'custom', layout: 'tiny', rules_key: 'wrap-closed', number: null, day: null, label: 'Custom deal' } };

test('each position is marked by its verdict, the losing move highlighted', () => {
  const marks = positionMarks(3, analysis());
  assert.deepEqual(marks.map((m) => m.verdict), ['winnable', 'winnable', 'lost', 'winnable']);
  assert.deepEqual(marks.map((m) => m.losing), [false, false, true, false]);
  assert.equal(verdictText('lost'), 'Lost: no way to win from here');
});

test('no marks before the analysis, nor from one that does not fit the game', () => {
  assert.deepEqual(positionMarks(2, null).map((m) => m.verdict), [null, null, null]);
  assert.deepEqual(positionMarks(5, analysis()).map((m) => m.losing), [false, false, false, false, false, false]);
});

test('a lost game names its losing move; a won one its par, how far over it, where a shorter win began', () => {
  const lost = summary(GAME, analysis());
  assert.equal(lost.find((l) => l.id === 'lost-at')?.text, 'The deal was lost at move 2.');
  assert.equal(lost.find((l) => l.id === 'par')?.text, 'Par: 4 moves from the deal.');
  assert.equal(lost.find((l) => l.id === 'over-par'), undefined);
  const won = summary({ ...GAME, status: 'won' }, analysis({ losing_move: null, verdicts: ['winnable', 'winnable', 'winnable', 'winnable'], over_par: 2, shorter_from: 1 }));
  assert.deepEqual(won.map((l) => l.id), ['par', 'over-par', 'shorter']);
  assert.equal(won[1].text, 'You won in 2 moves over par.');
  assert.equal(won[2].text, 'A shorter win existed from move 1.');
  const par = summary({ ...GAME, status: 'won' }, analysis({ losing_move: null, over_par: 0, verdicts: ['winnable', 'winnable', 'winnable', 'winnable'] }));
  assert.equal(par.find((l) => l.id === 'over-par')?.text, 'You won in par.');
});

test('a game lost from the deal, one resigned while winnable and one the budget could not decide say so', () => {
  assert.equal(summary(GAME, analysis({ losing_move: null, verdicts: ['lost', 'lost', 'lost', 'lost'], par: null }))[0].text, 'This deal could not be won from the start.');
  assert.equal(summary(GAME, analysis({ losing_move: null, verdicts: ['winnable', 'winnable', 'winnable', 'winnable'] }))[0].text, 'The deal could still be won at the end.');
  assert.equal(summary(GAME, analysis({ losing_move: null, verdicts: ['unknown', 'unknown', 'lost', 'lost'], par: null }))[0].text, 'Where the deal was lost is not known.');
});

test('the cards the game showed: each layout place, and each draw by the stock count before it', () => {
  const seen = seenCards(MOVES, POSITIONS);
  assert.equal(seen.layout.get(0), '6D');
  assert.equal(seen.layout.has(2), false); // never uncovered
  assert.equal(seen.stock.get(2), '6C');
});

test('a line played on the table: cards go, a covered card turns up, a card never seen stays hidden', () => {
  const seen = seenCards(MOVES, POSITIONS);
  const steps = linePositions(POSITIONS[0], ['draw', 1, 0, 2], LAYOUT, seen, false);
  assert.equal(steps.length, 5);
  assert.equal(steps[1].waste, '6C');
  assert.equal(steps[1].stock_left, 1);
  assert.equal(steps[2].waste, '4S');
  assert.deepEqual(steps[2].positions[1], { position: 1, card: null, face_up: false, free: false, removed: true });
  assert.equal(steps[2].positions[2].free, false);
  assert.equal(steps[3].positions[2].free, true); // both cards over it gone
  assert.equal(steps[3].positions[2].card, null); // never seen in this game: no card shown
  assert.equal(steps[4].waste, null);
  assert.equal(steps[4].status, 'won');
  assert.equal(steps[4].cards_left, 0);
  assert.equal(POSITIONS[0].positions[1].removed, false); // the replay's positions are untouched
  const drawAgain = linePositions(steps[1], ['draw'], LAYOUT, seen, false);
  assert.equal(drawAgain[1].waste, null); // that stock card never turned in the game
});

test('a line step in words, and the place it glows on', () => {
  assert.equal(lineStepText('draw', null), 'Draw from the stock');
  assert.equal(lineStepText(1, '4S'), 'Play the 4 of spades');
  assert.equal(lineStepText(2, null), 'Play an unseen card');
  assert.equal(placeOf('draw'), 'stock');
  assert.equal(placeOf(3), 3);
});

test('asking again for a pending analysis: further apart, a Retry-After obeyed, then no more', () => {
  const waits = [];
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    const w = nextWait(attempt, waited);
    if (w === null) break;
    waits.push(w);
    waited += w;
  }
  assert.equal(waits[0], 2);
  assert.ok(waits.every((w, i) => i === 0 || w >= waits[i - 1]));
  assert.ok(Math.max(...waits) <= 30);
  assert.ok(waited <= POLL_GIVE_UP_S && waits.length < 15);
  assert.equal(nextWait(0, 0, 20), 20);
});

test('the poll asks until the analysis is ready and stops when told', async () => {
  let asks = 0;
  const ready = analysis();
  const got = await new Promise((resolve, reject) => {
    const poll = new AnalysisPoll(async () => ({ analysis: ++asks >= 2 ? ready : null }), { ready: resolve, gaveUp: reject, failed: reject }, () => 0);
    poll.run();
  });
  assert.equal(got, ready);
  assert.equal(asks, 2);
  let late = 0;
  const stopped = new AnalysisPoll(async () => ({ analysis: ready }), { ready: () => { late += 1; }, gaveUp: () => {}, failed: () => {} });
  stopped.stop();
  await stopped.run();
  assert.equal(late, 0);
  let gaveUp = 0;
  await new Promise((resolve) => {
    new AnalysisPoll(async () => ({ analysis: null }), { ready: () => {}, gaveUp: () => { gaveUp += 1; resolve(); }, failed: () => {} }, (n) => (n < 2 ? 0 : null)).run();
  });
  assert.equal(gaveUp, 1);
});

test('the review asks the API only under its own paths, whatever the hash holds', async () => {
  const { reviewPaths } = await import('../../frontend/static/frontend/js/pages/review/paths.js');
  assert.deepEqual(reviewPaths(['7f3d9a97-f883-43e7-9974-f7f0f10f8a21']), {
    replay: 'games/7f3d9a97-f883-43e7-9974-f7f0f10f8a21/replay', analysis: 'games/7f3d9a97-f883-43e7-9974-f7f0f10f8a21/analysis', byLink: false,
  });
  assert.deepEqual(reviewPaths(['s', 'tok_EN-123']), { replay: 'replays/tok_EN-123', analysis: 'replays/tok_EN-123/analysis', byLink: true });
  assert.equal(reviewPaths([]), null);
  assert.equal(reviewPaths(['s']), null);
  // Anything but an id's or a token's letters asks for nothing: never a path that climbs.
  for (const key of ['..', '..%2F..%2Fme', 'a?b#c', 'x'.repeat(129), '７']) assert.equal(reviewPaths([key]), null, key);
  assert.equal(reviewPaths(['s', '../me']), null);
});

test('a reviewed game\'s title and its analysis\' state in words', async () => {
  const { dealName, reviewStateText } = await import('../../frontend/static/frontend/js/pages/review/words.js');
  assert.equal(dealName({ source: 'numbered', number: 42, day: null, rules_key: 'wrap-closed', layout: 'classic', label: '' }), 'Deal #42 · King-Ace on, peaks closed');
  assert.match(dealName({ source: 'random', number: null, day: null, rules_key: 'nowrap-open', layout: 'classic', label: '' }), /^Random deal · /);
  assert.equal(reviewStateText({ state: 'ready', losing_move: true }), 'Losing move found');
  assert.equal(reviewStateText({ state: 'ready', losing_move: false }), 'Analysed');
  assert.equal(reviewStateText({ state: 'pending', losing_move: false }), 'Analysis pending');
  assert.equal(reviewStateText({ state: 'later', losing_move: false }), 'Analysis later');
  assert.equal(reviewStateText({ state: 'none', losing_move: false }), '');
});

test('a finished race\'s results link every racer\'s line to its review for a racer, nothing before the end nor for a watcher', async () => {
  const { replayHref, resultsHtml } = await import('../../frontend/static/frontend/js/pages/race/results.js');
  const ann = { username: 'ann', name: 'Ann', status: 'won', place: 1 }, bob = { username: 'bob', name: 'Bob', status: 'finished', place: 2 };
  const race = { state: 'finished', game: 'g-1', players: [ann, bob], rematch: null };
  assert.equal(replayHref(race, ann, 'ann'), '#/review/g-1');
  assert.equal(replayHref(race, bob, 'ann'), null); // no game of Bob's named: no link
  const named = { ...race, players: [ann, { ...bob, game: 'g-2' }] };
  assert.equal(replayHref(named, named.players[1], 'ann'), '#/review/g-2');
  assert.equal(replayHref(named, named.players[1], 'carol'), null); // a watcher: the server would refuse
  assert.equal(replayHref({ ...race, state: 'running' }, ann, 'ann'), null);
  assert.equal(replayHref({ ...race, game: null }, ann, 'ann'), null);
  assert.match(resultsHtml(race, 'ann', ''), /<a href="#\/review\/g-1">Ann<\/a>/);
});
