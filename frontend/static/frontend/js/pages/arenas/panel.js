// One arena's panel as text (pure): its clock, what the viewer may do, the viewer's own line.

import { countdown } from '../../format.js';
import { esc } from '../../dialog.js';
import { _, fill, num } from '../../i18n.js';
import { timeText } from './words.js';

/**
 * When the arena starts or ends, or when it ended.
 * @param {ArenaSummary} arena
 * @param {number} now the server's time, in ms
 * @returns {string}
 */
export function clockText(arena, now) {
  if (arena.state === 'scheduled') {
    return fill(_('Starts in %(countdown)s, at %(time)s.'), { countdown: countdown(Date.parse(arena.starts_at) - now), time: timeText(arena.starts_at) });
  }
  if (arena.state === 'running' && Date.parse(arena.ends_at) > now) {
    return fill(_('Ends in %(countdown)s.'), { countdown: countdown(Date.parse(arena.ends_at) - now) });
  }
  return fill(_('Ended at %(time)s.'), { time: timeText(arena.ends_at) });
}

/**
 * The buttons: sign in to join, join, play the next game and take a break.
 * @param {Arena} arena
 * @param {ArenaLine|null|undefined} mine the viewer's line
 * @param {boolean} signedIn
 * @returns {string}
 */
export function actionsHtml(arena, mine, signedIn) {
  const open = arena.state === 'scheduled' || arena.state === 'running';
  if (!open) return '';
  if (!signedIn) return `<a class="button" href="/accounts/login/?next=/%23/arenas/${esc(arena.id)}">${_('Sign in to join')}</a>`;
  if (!(mine && mine.active)) return `<button type="button" class="button" data-act="join">${_('Join')}</button>`;
  return (arena.state === 'running' ? `<button type="button" class="button" data-act="play">${_('Play the next game')}</button> ` : '')
    + `<button type="button" class="button secondary" data-act="leave">${_('Take a break')}</button>`;
}

/**
 * The viewer's own points, place and streak.
 * @param {ArenaLine|null|undefined} mine
 * @returns {string}
 */
export function meText(mine) {
  if (!mine) return '';
  return fill(_('You: %(points)s points, place %(rank)s, %(streak)s wins in a row.'), { points: num(mine.points), rank: num(mine.rank), streak: num(mine.streak) }) + (mine.fire ? ' 🔥' : '');
}
