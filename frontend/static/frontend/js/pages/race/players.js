// The racers while the race runs (pure): a compact strip of the others (name, cards left as a
// bar, streak, status) that never takes the table's room; a watcher sees every racer. Counts only:
// the server never sends anyone's cards.

import { esc } from '../../dialog.js';
import { _, fill, num } from '../../i18n.js';

/** @type {Record<string, () => string>} */
export const STATUS = {
  waiting: () => _('waiting'),
  playing: () => _('playing'),
  stuck: () => _('stuck'),
  won: () => _('cleared'),
  finished: () => _('finished'),
  resigned: () => _('resigned'),
  left: () => _('left'),
};

/** @param {RacePlayer} p */
export const statusText = (p) => (STATUS[p.status] || (() => p.status))();

/**
 * One racer: the name, the cards left (a bar: the full width is the whole layout), the streak and
 * the status.
 * @param {RacePlayer} p @param {number} total the layout's cards
 */
function racer(p, total) {
  const left = p.cards_left == null ? total : p.cards_left;
  const pct = total ? Math.round((100 * Math.min(left, total)) / total) : 0;
  const label = fill(_('%(n)s cards left'), { n: num(left) });
  return `<li class="racer" data-player="${esc(p.username)}" data-status="${esc(p.status)}">
    <span class="racer-name">${esc(p.name)}</span>
    <span class="racer-bar" role="meter" aria-valuemin="0" aria-valuemax="${total}" aria-valuenow="${left}" aria-label="${esc(label)}"><i style="width:${pct}%"></i></span>
    <span class="racer-left" data-testid="cards-left" title="${esc(label)}">${num(left)}</span>
    <span class="racer-streak" title="${esc(_('Streak'))}">×${num(p.streak || 0)}</span>
    <span class="racer-status" data-testid="player-status">${esc(statusText(p))}</span></li>`;
}

/**
 * The strip: everybody but the player (a watcher: everybody).
 * @param {Race} race @param {string} me @param {number} total the layout's cards
 */
export function stripHtml(race, me, total) {
  const others = race.players.filter((p) => p.username !== me);
  return `<ul class="race-racers">${others.map((p) => racer(p, total)).join('')}</ul>`;
}
