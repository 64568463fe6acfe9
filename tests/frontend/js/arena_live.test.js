// What the arena socket's frames and the passing clock do to the arena in hand
// (pages/arenas/live.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frameStep, turnAt } from '../../../frontend/static/frontend/js/pages/arenas/live.js';

/** @param {number} version @param {boolean} [final] */
const arena = (version, final = false) => ({ version, final });

test('the watcher\'s own arena is taken when as new as the page, else dropped', () => {
  assert.deepEqual(frameStep(arena(3), { type: 'arena', ...arena(3) }, true), { take: true, sync: false });
  assert.deepEqual(frameStep(arena(3), { type: 'arena', ...arena(4) }, true), { take: true, sync: false });
  assert.deepEqual(frameStep(arena(3), { type: 'arena', ...arena(2) }, true), { take: false, sync: false });
});

test('a standings push is taken only when newer; a gap syncs for a player in the arena', () => {
  assert.deepEqual(frameStep(arena(3), { type: 'standings', ...arena(3) }, true), { take: false, sync: false });
  assert.deepEqual(frameStep(arena(3), { type: 'standings', ...arena(4) }, true), { take: true, sync: false });
  assert.deepEqual(frameStep(arena(3), { type: 'standings', ...arena(6) }, true), { take: true, sync: true });
  assert.deepEqual(frameStep(arena(3), { type: 'standings', ...arena(6) }, false), { take: true, sync: false });
});

test('the final standings are taken even at the same version', () => {
  assert.deepEqual(frameStep(arena(3), { type: 'standings', ...arena(3, true) }, true), { take: true, sync: false });
});

test('the clock passing the start or the end turns the arena', () => {
  const a = { state: 'scheduled', starts_at: '2026-01-01T10:00:00Z', ends_at: '2026-01-01T11:00:00Z' };
  const at = (/** @type {string} */ t) => Date.parse(t);
  assert.equal(turnAt(a, at('2026-01-01T09:59:59Z')), null);
  assert.equal(turnAt(a, at('2026-01-01T10:00:00Z')), 'running');
  assert.equal(turnAt({ ...a, state: 'running' }, at('2026-01-01T10:30:00Z')), null);
  assert.equal(turnAt({ ...a, state: 'running' }, at('2026-01-01T11:00:00Z')), 'finishing');
  assert.equal(turnAt(a, at('2026-01-01T11:00:01Z')), 'finishing');
});

import { actionsHtml } from '../../../frontend/static/frontend/js/pages/arenas/panel.js';

test('the arena\'s buttons: sign in, join, play and a break while it runs; nothing once over', () => {
  const running = { id: 'a1', state: 'running' };
  const line = { active: true };
  const acts = (/** @type {string} */ html) => [...html.matchAll(/data-act="([^"]+)"|href="([^"]+)"/g)].map((m) => m[1] || m[2]);
  assert.deepEqual(acts(actionsHtml(running, null, false)), ['/accounts/login/?next=/%23/arenas/a1']);
  assert.deepEqual(acts(actionsHtml(running, null, true)), ['join']);
  assert.deepEqual(acts(actionsHtml(running, { active: false }, true)), ['join']);
  assert.deepEqual(acts(actionsHtml(running, line, true)), ['play', 'leave']);
  assert.deepEqual(acts(actionsHtml({ ...running, state: 'scheduled' }, line, true)), ['leave']);
  assert.deepEqual(acts(actionsHtml({ ...running, state: 'finished' }, line, true)), []);
  assert.deepEqual(acts(actionsHtml({ ...running, state: 'finishing' }, null, false)), []);
});
