// Whom the race page offers to claim the win over (pages/race/absence.js): only those the server
// said a claim would be taken against, and not once a move of theirs is heard; an idle racer the
// server says is here gets no button (before: any racer silent for 30 s got one, and the claim
// was refused 409 not_absent). The page asks the server again when the soonest moment passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Absence } from '../../../frontend/static/frontend/js/pages/race/absence.js';

/** @param {object} bob bob's line's claim fields */
const race = (bob) => ({
  state: 'running',
  absent_s: 30,
  players: [
    { username: 'ann', status: 'playing', claimable: false, claimable_in_s: 10 },
    { username: 'bob', status: 'playing', ...bob },
  ],
});
const names = (list) => list.map((p) => p.username);

test('an idle racer the server says is here gets no button, however long the page heard nothing', () => {
  const here = race({ claimable: false, claimable_in_s: 20 });
  const absence = new Absence(here, 0);
  assert.deepEqual(names(absence.absent(here, 'ann')), []);
  assert.equal(absence.due(here, 'ann', 19_000), false);
  // The soonest moment passes: the page asks again (once until answered), shows nothing yet.
  assert.equal(absence.due(here, 'ann', 60_000), true);
  assert.equal(absence.due(here, 'ann', 61_000), false);
  assert.deepEqual(names(absence.absent(here, 'ann')), []);
  // The server answers: still here (their race page is open): no button, ask later again.
  absence.take(race({ claimable: false, claimable_in_s: 25 }), 62_000);
  assert.deepEqual(names(absence.absent(here, 'ann')), []);
  assert.equal(absence.due(here, 'ann', 80_000), false);
});

test('the server says a claim would be taken: the button, until a move of theirs is heard', () => {
  const gone = race({ claimable: true, claimable_in_s: 0 });
  const absence = new Absence(gone, 0);
  assert.deepEqual(names(absence.absent(gone, 'ann')), ['bob']);
  assert.deepEqual(names(absence.absent(gone, 'bob')), []); // ann: the server said not
  absence.hear('bob', 30, 1000);
  assert.deepEqual(names(absence.absent(gone, 'ann')), []);
  assert.equal(absence.due(gone, 'ann', 30_000), false);
  assert.equal(absence.due(gone, 'ann', 31_000), true);
});

test('a watcher, a racer who left and a race not running offer no claim and ask nothing', () => {
  const gone = race({ claimable: true, claimable_in_s: 0 });
  const absence = new Absence(gone, 0);
  assert.deepEqual(names(absence.absent(gone, 'carol')), []);
  assert.equal(absence.due(race({ claimable: false, claimable_in_s: 1 }), 'carol', 9e9), false);
  const left = { ...gone, players: [{ ...gone.players[0], status: 'left' }, gone.players[1]] };
  assert.deepEqual(names(absence.absent(left, 'ann')), []);
  assert.deepEqual(names(absence.absent({ ...gone, state: 'finished' }, 'ann')), []);
});
