// "Play someone now": the quick match's queue, asked again every second while the player waits;
// a match opens the race.

import { api, ApiError } from '../../api.js';
import { _ } from '../../i18n.js';
import { raceError } from './words.js';
import { rulesBody, goToRace } from './rules.js';

const QUEUE_EVERY_MS = 1000;

/**
 * Binds the quick match's buttons in `root` and asks where the player stands (a reload while
 * waiting goes on waiting); returns the stop.
 * @param {HTMLElement} root
 * @returns {() => void}
 */
export function quickMatch(root) {
  /** @param {string} sel */
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  let gone = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @param {string} text */
  const status = (text) => { $('[data-testid=quick-status]').textContent = text; };

  /** @param {QueueAnswer} answer */
  function queueState(answer) {
    const waiting = answer.state === 'waiting';
    $('[data-testid=quick-match]').hidden = waiting;
    $('[data-testid=quick-cancel]').hidden = !waiting;
    if (answer.state === 'matched') { status(_('Found someone: the race starts…')); goToRace(String(answer.race)); return; }
    if (!waiting) { status(''); return; }
    status(answer.empty ? _('Nobody else is waiting for these rules yet: still looking…') : _('Looking for a player…'));
    timer = setTimeout(poll, QUEUE_EVERY_MS);
  }
  async function poll() {
    if (gone) return;
    try { queueState(/** @type {QueueAnswer} */ (await api('quickmatch'))); } catch (e) {
      if (e instanceof ApiError && e.status === 503) { status(_('Looking for a player…')); timer = setTimeout(poll, QUEUE_EVERY_MS); }
      else status(raceError(e));
    }
  }

  $('[data-testid=quick-match]').addEventListener('click', async () => {
    status(_('Looking for a player…'));
    const rules = /** @type {HTMLSelectElement} */ ($('[name=quick-rules]')).value;
    try { queueState(/** @type {QueueAnswer} */ (await api('quickmatch', { method: 'POST', body: { rules: rulesBody(rules) } }))); } catch (e) {
      if (e instanceof ApiError && e.body.code === 'already_queued') poll();
      else status(raceError(e));
    }
  });
  $('[data-testid=quick-cancel]').addEventListener('click', async () => {
    clearTimeout(timer);
    try { queueState(/** @type {QueueAnswer} */ (await api('quickmatch', { method: 'DELETE' }))); } catch (e) { status(raceError(e)); }
  });
  poll();
  return () => { gone = true; clearTimeout(timer); };
}
