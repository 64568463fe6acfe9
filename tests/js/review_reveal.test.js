// A numbered deal's solver's lines kept back on the review until the viewer reveals them
// (frontend/static/frontend/js/pages/review/reveal.js), and the ranking code the reveal brings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linesOffer, revealWarning, signInLink, refusedReveal } from '../../frontend/static/frontend/js/pages/review/reveal.js';
import { ApiError } from '../../frontend/static/frontend/js/api.js';
import { rankingReason } from '../../frontend/static/frontend/js/pages/play/screen.js';

const hidden = { state: 'ready', verdicts: ['winnable', 'lost'], losing_move: 1, winning_line: null, par: 2, par_line: null, over_par: null, shorter_from: null, budget_nodes: 1, lines_hidden: true };

test('hidden lines offer the reveal to a signed-in viewer and the way to sign in to anyone else', () => {
  assert.equal(linesOffer(hidden, true), 'reveal');
  assert.equal(linesOffer(hidden, false), 'sign-in');
  const shown = { ...hidden, winning_line: ['draw'], par_line: [0, 'draw'], lines_hidden: false };
  assert.equal(linesOffer(shown, true), 'lines');
  assert.equal(linesOffer(shown, false), 'lines');
  // An analysis from before the lines could be hidden (no field) shows them as it did.
  const older = { ...shown };
  delete older.lines_hidden;
  assert.equal(linesOffer(older, false), 'lines');
});

test('the warning says the ranking on the deal ends', () => {
  assert.match(revealWarning(), /ends your ranking on this deal/);
});

test('the sign-in link comes back to the review', () => {
  const link = signInLink('#/review/s/abc_-1');
  assert.equal(link, '/accounts/login/?next=%2F%23%2Freview%2Fs%2Fabc_-1');
  assert.equal(decodeURIComponent(link.split('next=')[1]), '/#/review/s/abc_-1');
});

test('a 401 asks the viewer to sign in; any other refusal is a failure as the analysis\'s own', () => {
  assert.equal(refusedReveal(new ApiError(401, { code: 'sign_in_to_reveal' })), 'sign-in');
  assert.equal(refusedReveal(new ApiError(404, { code: 'not_found' })), 'failed');
  assert.equal(refusedReveal(new ApiError(403, { code: 'csrf' })), 'failed');
  assert.equal(refusedReveal(new TypeError('offline')), 'failed');
});

test('a run after the reveal says why it does not rank, in the page\'s words', () => {
  const v = /** @type {any} */ ({ ranking_code: 'answer_seen', ranking_reason: 'the server\'s words' });
  assert.equal(rankingReason(v), 'You opened the solver\'s line for this deal, so no run on it ranks.');
});
