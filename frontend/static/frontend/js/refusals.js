// A refusal said with its wait, pure (tested with node --test): what a 429 or 503 (or a socket's
// error frame with `retry_after`) means for the player, in words that count the wait down.
// `app.js` shows them in the notice (`noticeWait`), one second at a time, until the wait is over.

import { _, ngettext, fill, num } from './i18n.js';

/** @param {number} seconds @returns {string} "33 seconds", "2 minutes" */
export function waitText(seconds) {
  if (seconds > 90) {
    const minutes = Math.ceil(seconds / 60);
    return fill(ngettext('%(n)s minute', '%(n)s minutes', minutes), { n: num(minutes) });
  }
  return fill(ngettext('%(n)s second', '%(n)s seconds', seconds), { n: num(seconds) });
}

/** @type {Record<string, () => string>} by what was asked and the server's code (or status) */
const WORDS = {
  'hint:throttled': () => _('Too many hints: try again in %(wait)s.'),
  'hint:solver_busy': () => _('The solver is busy: try again in %(wait)s.'),
  'deal:pool_empty': () => _('No new deal of these rules is ready yet: try again in %(wait)s.'),
  'deal:throttled': () => _('Too many new deals in a short time: try again in %(wait)s.'),
  'guest:throttled': () => _('Too many guests from your network: try again in %(wait)s, or sign in.'),
  'move:throttled': () => _('Too many moves in a short time: try again in %(wait)s.'),
  throttled: () => _('Too many requests: try again in %(wait)s.'),
  busy: () => _('The server is busy: try again in %(wait)s.'),
};

/**
 * The words for a refusal that says how long to wait, as a function of the seconds left.
 * @param {string} what 'hint', 'deal', 'guest', 'move' (a draw, a play, an undo...)
 * @param {string | undefined} code the server's (`throttled`, `solver_busy`, `pool_empty`...)
 * @param {number} status 429, 503 (0: a socket's frame)
 * @returns {(left: number) => string}
 */
export function refusalWords(what, code, status) {
  const kind = code && code !== 'invalid' ? code : status === 503 ? 'busy' : 'throttled';
  const words = WORDS[`${what}:${kind}`] || WORDS[kind === 'solver_busy' || kind === 'pool_empty' || kind === 'busy' ? 'busy' : 'throttled'];
  return (left) => fill(words(), { wait: waitText(left) });
}
