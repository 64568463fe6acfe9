// The lobby's lists: the open races (read again every few seconds) and the player's own races.

import { api } from '../../api.js';
import { esc } from '../../dialog.js';
import { rulesTitle } from '../../format.js';
import { paintHtml } from '../../paint.js';
import { _, fill, num } from '../../i18n.js';
import { raceChangeText } from './words.js';

const LOBBY_EVERY_MS = 3000;

/** @param {Race} race */
function lobbyRow(race) {
  const taken = race.players.length;
  return `<tr><td>${esc(race.host)}</td><td>${esc(rulesTitle(race.rules.key))}</td><td>${num(taken)}/${num(race.seats)}</td>
    <td><button type="button" class="button" data-join="${esc(race.id)}">${_('Join')}</button></td></tr>`;
}

/** A race to watch: its rules, where it stands, its racers. @param {Race} race */
function liveRow(race) {
  const where = race.state === 'countdown' ? _('starting') : _('racing');
  return `<tr><td>${esc(rulesTitle(race.rules.key))}</td><td>${where}</td><td>${race.players.map((p) => esc(p.name)).join(', ')}</td>
    <td><a class="button secondary" href="#/races/${esc(race.id)}" data-watch="${esc(race.id)}">${_('Watch')}</a></td></tr>`;
}

/** @param {Race[]} races public races counting down or running */
export function liveHtml(races) {
  return races.length
    ? `<table class="board"><thead><tr><th scope="col">${_('Rules')}</th><th scope="col">${_('Status')}</th><th scope="col">${_('Players')}</th><th scope="col"><span class="sr-only">${_('Watch')}</span></th></tr></thead><tbody>${races.map(liveRow).join('')}</tbody></table>`
    : `<p class="empty">${_('No race is on right now.')}</p>`;
}

/** @param {Race} race @param {string} me */
function historyRow(race, me) {
  const mine = race.players.find((p) => p.username === me);
  const change = mine && mine.rating ? ` (${raceChangeText(mine.rating)})` : '';
  const place = mine && mine.place ? fill(_('%(place)s of %(n)s'), { place: num(mine.place), n: num(race.players.length) }) : '–';
  return `<tr><td><a href="#/races/${esc(race.id)}">${esc(rulesTitle(race.rules.key))}</a></td><td>${place}${change}</td><td>${race.players.map((p) => esc(p.name)).join(', ')}</td></tr>`;
}

/** @param {Race[]} races */
export function lobbyHtml(races) {
  return races.length
    ? `<table class="board"><thead><tr><th scope="col">${_('Host')}</th><th scope="col">${_('Rules')}</th><th scope="col">${_('Players')}</th><th scope="col"><span class="sr-only">${_('Join')}</span></th></tr></thead><tbody>${races.map(lobbyRow).join('')}</tbody></table>`
    : `<p class="empty">${_('No open race right now: open one, or play someone now.')}</p>`;
}

/** @param {Race[]} races @param {string} me */
export function historyHtml(races, me) {
  return races.length
    ? `<table class="board"><thead><tr><th scope="col">${_('Race')}</th><th scope="col">${_('Place')}</th><th scope="col">${_('Players')}</th></tr></thead><tbody>${races.map((r) => historyRow(r, me)).join('')}</tbody></table>`
    : `<p class="empty">${_('You have not raced yet.')}</p>`;
}

/**
 * The open races in `el` and the races to watch in `liveEl`, read again every few seconds until
 * the returned stop is called.
 * @param {HTMLElement} el @param {HTMLElement} liveEl
 * @returns {() => void}
 */
export function watchOpenRaces(el, liveEl) {
  let gone = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  async function round() {
    try {
      const [open, on] = /** @type {{races: Race[]}[]} */ (await Promise.all([api('races?state=open'), api('races?state=live')]));
      if (gone) return;
      paintHtml(el, lobbyHtml(open.races));
      paintHtml(liveEl, liveHtml(on.races));
    } catch { /* the next round tries again */ }
    if (!gone) timer = setTimeout(round, LOBBY_EVERY_MS);
  }
  round();
  return () => { gone = true; clearTimeout(timer); };
}

/**
 * The player's own races in `el` (shown empty when they can't be read).
 * @param {HTMLElement} el @param {string} me @param {() => boolean} gone the page was left
 */
export async function showHistory(el, me, gone) {
  try {
    const { races } = /** @type {{races: Race[]}} */ (await api('races?mine=1'));
    if (gone()) return;
    el.innerHTML = historyHtml(races, me);
  } catch { /* shown empty */ }
}
