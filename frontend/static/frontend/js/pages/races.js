// Races: the lobby (#/races): a new race, join by code, "play someone now" (quick match), the
// open races and the player's past races. One race (#/races/<id>[/<code>]) is pages/race.js.

import { api, ApiError } from '../api.js';
import { esc } from '../dialog.js';
import { rulesTitle } from '../format.js';
import { _, fill, num, serverText } from '../i18n.js';
import { changeText } from './ratings.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];
const LOBBY_EVERY_MS = 3000;
const QUEUE_EVERY_MS = 1000;

/**
 * A player in a race as the server tells it: counts, never cards.
 * @typedef {object} RacePlayer
 * @property {string} username
 * @property {string} name
 * @property {string} status waiting, playing, stuck, won, finished, resigned or left
 * @property {number | null} cards_left
 * @property {number | null} stock_left
 * @property {number | null} streak
 * @property {number | null} moves
 * @property {number | null} time_ms
 * @property {number | null} seq
 * @property {number | null} place
 * @property {{before: number, after: number | null, change: number | null, held?: boolean} | null} rating held: the change waits for staff
 */
/**
 * A race (GET /api/races/{id}, the race socket's frames).
 * @typedef {object} Race
 * @property {string} id
 * @property {string} code
 * @property {'open' | 'countdown' | 'running' | 'finished'} state
 * @property {string} host
 * @property {number} seats
 * @property {{key: string}} rules
 * @property {boolean} public
 * @property {number} cap_s
 * @property {string | null} starts_at
 * @property {string | null} ends_at
 * @property {string | null} finished_at
 * @property {string} server_time
 * @property {number} version
 * @property {string | null} rematch
 * @property {string | null} game the viewer's own game in the race
 * @property {RacePlayer[]} players
 */
/** @typedef {{state: 'idle' | 'waiting' | 'matched', race?: string, empty?: boolean}} QueueAnswer */

/** The race stylesheet, once (it is only needed on race screens). */
export function raceStyles() {
  if (document.getElementById('race-css')) return;
  const link = document.createElement('link');
  link.id = 'race-css';
  link.rel = 'stylesheet';
  link.href = '/static/frontend/css/races.css';
  document.head.append(link);
}

/**
 * What a refused race request says to the player (the server's codes, in their words).
 * @param {unknown} e
 */
export function raceError(e) {
  if (!(e instanceof ApiError)) return _('Could not reach the server: check your connection and try again.');
  /** @type {Record<string, string>} */
  const words = {
    race_full: _('That race is full.'),
    not_open: _('That race has begun: it takes no more players.'),
    already_joined: _('You are in this race already.'),
    in_another_race: _('You are in another race: leave it first.'),
    in_race: _('You are in a race: finish it first.'),
    already_queued: _('You are already waiting for a race.'),
    not_found: _('There is no such race (a private race needs its code).'),
    too_few_players: _('A race needs two players at least.'),
  };
  const code = String(e.body.code || '');
  return words[code] || serverText(e.message, _('That did not work: try again.'));
}

const rulesOptions = () => RULES.map((k) => `<option value="${k}">${esc(rulesTitle(k))}</option>`).join('');
/** @param {string} key */
const rulesBody = (key) => { const [wrap, open] = key.split('-'); return { wrap: wrap === 'wrap', open: open === 'open' }; };

/** @param {Race} race */
function lobbyRow(race) {
  const taken = race.players.length;
  return `<tr><td>${esc(race.host)}</td><td>${esc(rulesTitle(race.rules.key))}</td><td>${num(taken)}/${num(race.seats)}</td>
    <td><button type="button" class="button" data-join="${esc(race.id)}">${_('Join')}</button></td></tr>`;
}

/**
 * A race's rating change as a player reads it: "+12", "−8", or held for staff review.
 * @param {NonNullable<RacePlayer['rating']>} rating
 */
export function raceChangeText(rating) {
  if (rating.held || rating.change == null) return _('Held for review');
  return changeText(rating.change);
}

/** @param {Race} race @param {string} me */
function historyRow(race, me) {
  const mine = race.players.find((p) => p.username === me);
  const change = mine && mine.rating ? ` (${raceChangeText(mine.rating)})` : '';
  const place = mine && mine.place ? fill(_('%(place)s of %(n)s'), { place: num(mine.place), n: num(race.players.length) }) : '–';
  return `<tr><td><a href="#/races/${esc(race.id)}">${esc(rulesTitle(race.rules.key))}</a></td><td>${place}${change}</td><td>${race.players.map((p) => esc(p.name)).join(', ')}</td></tr>`;
}

/** @type {Mount} */
export async function mount(root, ctx, params) {
  if (params[0]) return (await import('./race.js')).mount(root, ctx, params);
  if (!ctx.user) {
    root.innerHTML = `<p>${_('Sign in to race other players.')} <a href="/accounts/login/?next=/%23/races">${_('Sign in')}</a></p>`;
    return null;
  }
  raceStyles();
  root.innerHTML = `<div class="races">
    <section class="panel"><h2>${_('Play someone now')}</h2>
      <p class="help">${_('You are paired with a player of about your rating within seconds; the race starts at once.')}</p>
      <label>${_('Rules')} <select name="quick-rules">${rulesOptions()}</select></label>
      <button type="button" class="button" data-testid="quick-match">${_('Play someone now')}</button>
      <button type="button" class="button secondary" data-testid="quick-cancel" hidden>${_('Stop waiting')}</button>
      <p data-testid="quick-status" aria-live="polite"></p></section>
    <section class="panel"><h2>${_('New race')}</h2>
      <form data-testid="race-form" class="race-form">
        <label>${_('Rules')} <select name="rules">${rulesOptions()}</select></label>
        <label>${_('Seats')} <select name="seats">${[2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}"${n === 4 ? ' selected' : ''}>${num(n)}</option>`).join('')}</select></label>
        <label><input type="checkbox" name="public" checked> ${_('Listed in the lobby')}</label>
        <button type="submit" class="button">${_('Open a race')}</button>
      </form></section>
    <section class="panel"><h2>${_('Join with a code')}</h2>
      <form data-testid="code-form" class="race-form"><label>${_('Code')} <input name="code" maxlength="8" autocomplete="off" autocapitalize="characters" required></label>
        <button type="submit" class="button">${_('Join')}</button></form></section>
    <section class="panel"><h2>${_('Open races')}</h2><div data-testid="lobby" aria-live="polite"></div></section>
    <section class="panel"><h2>${_('Your races')}</h2><div data-testid="history"></div></section>
  </div>`;
  const user = ctx.user;
  /** @param {string} sel */
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  let gone = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let lobbyTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let queueTimer;
  /** @param {string} id @param {string} [code] */
  const go = (id, code) => { location.hash = `#/races/${id}${code ? '/' + encodeURIComponent(code) : ''}`; };

  async function showLobby() {
    try {
      const { races } = /** @type {{races: Race[]}} */ (await api('races?state=open'));
      if (gone) return;
      $('[data-testid=lobby]').innerHTML = races.length
        ? `<table class="board"><thead><tr><th scope="col">${_('Host')}</th><th scope="col">${_('Rules')}</th><th scope="col">${_('Players')}</th><th scope="col"><span class="sr-only">${_('Join')}</span></th></tr></thead><tbody>${races.map(lobbyRow).join('')}</tbody></table>`
        : `<p class="empty">${_('No open race right now: open one, or play someone now.')}</p>`;
    } catch { /* the next round tries again */ }
    if (!gone) lobbyTimer = setTimeout(showLobby, LOBBY_EVERY_MS);
  }

  async function showHistory() {
    try {
      const { races } = /** @type {{races: Race[]}} */ (await api('races?mine=1'));
      if (gone) return;
      $('[data-testid=history]').innerHTML = races.length
        ? `<table class="board"><thead><tr><th scope="col">${_('Race')}</th><th scope="col">${_('Place')}</th><th scope="col">${_('Players')}</th></tr></thead><tbody>${races.map((r) => historyRow(r, user.username)).join('')}</tbody></table>`
        : `<p class="empty">${_('You have not raced yet.')}</p>`;
    } catch { /* shown empty */ }
  }

  /** @param {string} text */
  const status = (text) => { $('[data-testid=quick-status]').textContent = text; };
  /** @param {QueueAnswer} answer */
  function queueState(answer) {
    const waiting = answer.state === 'waiting';
    $('[data-testid=quick-match]').hidden = waiting;
    $('[data-testid=quick-cancel]').hidden = !waiting;
    if (answer.state === 'matched') { status(_('Found someone: the race starts…')); go(String(answer.race)); return; }
    if (!waiting) { status(''); return; }
    status(answer.empty ? _('Nobody else is waiting for these rules yet: still looking…') : _('Looking for a player…'));
    queueTimer = setTimeout(pollQueue, QUEUE_EVERY_MS);
  }
  async function pollQueue() {
    if (gone) return;
    try { queueState(/** @type {QueueAnswer} */ (await api('quickmatch'))); } catch (e) {
      if (e instanceof ApiError && e.status === 503) { status(_('Looking for a player…')); queueTimer = setTimeout(pollQueue, QUEUE_EVERY_MS); }
      else status(raceError(e));
    }
  }

  $('[data-testid=quick-match]').addEventListener('click', async () => {
    status(_('Looking for a player…'));
    const rules = /** @type {HTMLSelectElement} */ ($('[name=quick-rules]')).value;
    try { queueState(/** @type {QueueAnswer} */ (await api('quickmatch', { method: 'POST', body: { rules: rulesBody(rules) } }))); } catch (e) {
      if (e instanceof ApiError && e.body.code === 'already_queued') pollQueue();
      else status(raceError(e));
    }
  });
  $('[data-testid=quick-cancel]').addEventListener('click', async () => {
    clearTimeout(queueTimer);
    try { queueState(/** @type {QueueAnswer} */ (await api('quickmatch', { method: 'DELETE' }))); } catch (e) { status(raceError(e)); }
  });
  $('[data-testid=race-form]').addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
    const body = { rules: rulesBody(field('rules').value), seats: Number(field('seats').value), public: field('public').checked, layout: ctx.layoutName() };
    try { const race = /** @type {Race} */ (await api('races', { method: 'POST', body })); go(race.id, race.public ? '' : race.code); } catch (err) { ctx.notice(raceError(err)); }
  });
  $('[data-testid=code-form]').addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    const code = /** @type {HTMLInputElement} */ (form.elements.namedItem('code')).value.trim().toUpperCase();
    try { const race = /** @type {Race} */ (await api(`races?code=${encodeURIComponent(code)}`)); go(race.id, code); } catch (err) { ctx.notice(raceError(err)); }
  });
  root.addEventListener('click', async (e) => {
    const id = /** @type {HTMLElement} */ (e.target).closest('[data-join]')?.getAttribute('data-join');
    if (!id) return;
    try { await api(`races/${id}/join`, { method: 'POST', body: {} }); go(id); } catch (err) {
      if (err instanceof ApiError && err.body.code === 'already_joined') go(id);
      else ctx.notice(raceError(err));
    }
  });

  showLobby();
  showHistory();
  pollQueue();
  return () => { gone = true; clearTimeout(lobbyTimer); clearTimeout(queueTimer); };
}
