// The race's bar (pure): where the race stands, its one clock, its name, and the player's buttons.

import { esc } from '../../dialog.js';
import { clock, rulesTitle } from '../../format.js';
import { _, digits, fill, num } from '../../i18n.js';

/**
 * Waiting, the countdown, the time left, or who won.
 * @param {Race} race @param {number} now the server's time, in ms
 */
export function stateText(race, now) {
  if (race.state === 'open') return fill(_('Waiting for players: %(n)s of %(seats)s'), { n: num(race.players.length), seats: num(race.seats) });
  if (race.state === 'countdown') return fill(_('Starting in %(s)s…'), { s: digits(String(secondsTo(race, now))) });
  if (race.state === 'running') return fill(_('Racing: %(left)s left'), { left: clock(Date.parse(race.ends_at || '') - now) });
  const winner = race.players.find((p) => p.place === 1);
  return winner ? fill(_('Finished: %(name)s wins'), { name: winner.name }) : _('Finished');
}

/** Whole seconds to the start (the countdown on the table). @param {Race} race @param {number} now */
export function secondsTo(race, now) {
  return Math.max(0, Math.ceil((Date.parse(race.starts_at || '') - now) / 1000));
}

/**
 * The race's one clock, the same for every racer and watcher: from the start, and stopped at the
 * race's end (its finish, else its cap), whatever any one game's own clock says.
 * @param {Race} race @param {number} now the server's time, in ms
 */
export function raceClockMs(race, now) {
  if (!race.starts_at || race.state === 'open' || race.state === 'countdown') return 0;
  const start = Date.parse(race.starts_at);
  const cap = Date.parse(race.ends_at || '') || Infinity;
  const end = race.state === 'finished' ? Date.parse(race.finished_at || '') || cap : Infinity;
  return Math.max(0, Math.min(now, end, cap) - start);
}

/** The race's name, for the bar's title: a race on these rules. @param {Race} race */
export const raceTitle = (race) => fill(_('Race · %(rules)s'), { rules: rulesTitle(race.rules.key) });

/** The rules, the seats, the time cap, and a private race's code while it is open. @param {Race} race */
export function infoHtml(race) {
  const share = race.state === 'open' && !race.public
    ? ' · ' + fill(_('Code %(code)s'), { code: `<strong data-testid="race-code">${esc(race.code)}</strong>` })
    : '';
  return `${esc(rulesTitle(race.rules.key))} · ${fill(_('%(n)s seats'), { n: num(race.seats) })} · ${fill(_('time cap %(t)s'), { t: clock(race.cap_s * 1000) })}${share}`;
}

/** @param {string} what @param {string} label @param {boolean} [secondary] */
export const button = (what, label, secondary = false) => `<button type="button" class="button${secondary ? ' secondary' : ''}" data-act="${what}" data-testid="race-${what}">${label}</button>`;

/**
 * Join, start, leave or give up, end a stuck deal, and a claim against each absent racer. (Rematch
 * and the next race are the results' own: race/results.js.)
 * @param {Race} race @param {string} me @param {RacePlayer[]} absent @param {boolean} stuck the player's deal has no move left
 */
export function actionsHtml(race, me, absent, stuck = false) {
  const seated = race.players.some((p) => p.username === me && p.status !== 'left');
  const out = [];
  if (race.state === 'open' && !seated) out.push(button('join', _('Join the race')));
  if (race.state === 'open' && race.host === me) out.push(button('start', _('Start now')));
  if (race.state === 'running' && stuck) out.push(button('end', _('End deal')));
  if (race.state !== 'finished' && seated) out.push(button('leave', race.state === 'running' ? _('Give up') : _('Leave'), true));
  for (const p of absent) out.push(`<button type="button" class="button secondary" data-act="claim:${esc(p.username)}" data-testid="race-claim">${fill(_('Claim the win over %(name)s'), { name: esc(p.name) })}</button>`);
  return out.join(' ');
}
