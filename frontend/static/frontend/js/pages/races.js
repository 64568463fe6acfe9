// Races: the lobby (#/races): a new race, join by code, "play someone now" (quick match), the
// open races and the player's past races. One race (#/races/<id>[/<code>]) is pages/race.js.

import { api, ApiError } from '../api.js';
import { esc } from '../dialog.js';
import { rulesTitle } from '../format.js';
import { _, fill, num, serverText } from '../i18n.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];
const LOBBY_EVERY_MS = 3000;
const QUEUE_EVERY_MS = 1000;

/** @typedef {{username: string, name: string, status: string, place: number|null, cards_left: number|null, rating: {change: number}|null}} RacePlayer */
/** @typedef {{id: string, code: string, state: string, host: string, seats: number, rules: {key: string}, players: RacePlayer[], finished_at: string|null}} Race */

/** The race stylesheet, once (it is only needed on race screens). */
export function raceStyles() {
  if (document.getElementById('race-css')) return;
  const link = document.createElement('link');
  link.id = 'race-css';
  link.rel = 'stylesheet';
  link.href = '/static/frontend/css/races.css';
  document.head.append(link);
}

/** What a refused race request says to the player (the server's codes, in their words). */
export function raceError(e) {
  if (!(e instanceof ApiError)) return _('Could not reach the server: check your connection and try again.');
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
  return words[e.body.code] || serverText(e.message, _('That did not work: try again.'));
}

const rulesOptions = () => RULES.map((k) => `<option value="${k}">${esc(rulesTitle(k))}</option>`).join('');
const rulesBody = (key) => { const [wrap, open] = key.split('-'); return { wrap: wrap === 'wrap', open: open === 'open' }; };

/** @param {Race} race */
function lobbyRow(race) {
  const taken = race.players.length;
  return `<tr><td>${esc(race.host)}</td><td>${esc(rulesTitle(race.rules.key))}</td><td>${num(taken)}/${num(race.seats)}</td>
    <td><button type="button" class="button" data-join="${esc(race.id)}">${_('Join')}</button></td></tr>`;
}

/** @param {Race} race @param {string} me */
function historyRow(race, me) {
  const mine = race.players.find((p) => p.username === me);
  const change = mine && mine.rating ? ` (${mine.rating.change >= 0 ? '+' : ''}${num(mine.rating.change)})` : '';
  const place = mine && mine.place ? fill(_('%(place)s of %(n)s'), { place: num(mine.place), n: num(race.players.length) }) : '–';
  return `<tr><td><a href="#/races/${esc(race.id)}">${esc(rulesTitle(race.rules.key))}</a></td><td>${place}${change}</td><td>${race.players.map((p) => esc(p.name)).join(', ')}</td></tr>`;
}

export async function mount(root, ctx, params = []) {
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
  const $ = (sel) => root.querySelector(sel);
  let gone = false;
  let lobbyTimer = null;
  let queueTimer = null;
  const go = (id, code) => { location.hash = `#/races/${id}${code ? '/' + encodeURIComponent(code) : ''}`; };

  async function showLobby() {
    try {
      const { races } = await api('races?state=open');
      if (gone) return;
      $('[data-testid=lobby]').innerHTML = races.length
        ? `<table class="board"><thead><tr><th scope="col">${_('Host')}</th><th scope="col">${_('Rules')}</th><th scope="col">${_('Players')}</th><th scope="col"><span class="sr-only">${_('Join')}</span></th></tr></thead><tbody>${races.map(lobbyRow).join('')}</tbody></table>`
        : `<p class="empty">${_('No open race right now: open one, or play someone now.')}</p>`;
    } catch { /* the next round tries again */ }
    if (!gone) lobbyTimer = setTimeout(showLobby, LOBBY_EVERY_MS);
  }

  async function showHistory() {
    try {
      const { races } = await api('races?mine=1');
      if (gone) return;
      $('[data-testid=history]').innerHTML = races.length
        ? `<table class="board"><thead><tr><th scope="col">${_('Race')}</th><th scope="col">${_('Place')}</th><th scope="col">${_('Players')}</th></tr></thead><tbody>${races.map((r) => historyRow(r, ctx.user.username)).join('')}</tbody></table>`
        : `<p class="empty">${_('You have not raced yet.')}</p>`;
    } catch { /* shown empty */ }
  }

  const status = (text) => { $('[data-testid=quick-status]').textContent = text; };
  function queueState(answer) {
    const waiting = answer.state === 'waiting';
    $('[data-testid=quick-match]').hidden = waiting;
    $('[data-testid=quick-cancel]').hidden = !waiting;
    if (answer.state === 'matched') { status(_('Found someone: the race starts…')); go(answer.race); return; }
    if (!waiting) { status(''); return; }
    status(answer.empty ? _('Nobody else is waiting for these rules yet: still looking…') : _('Looking for a player…'));
    queueTimer = setTimeout(pollQueue, QUEUE_EVERY_MS);
  }
  async function pollQueue() {
    if (gone) return;
    try { queueState(await api('quickmatch')); } catch (e) {
      if (e instanceof ApiError && e.status === 503) { status(_('Looking for a player…')); queueTimer = setTimeout(pollQueue, QUEUE_EVERY_MS); }
      else status(raceError(e));
    }
  }

  $('[data-testid=quick-match]').addEventListener('click', async () => {
    status(_('Looking for a player…'));
    try { queueState(await api('quickmatch', { method: 'POST', body: { rules: rulesBody(root.querySelector('[name=quick-rules]').value) } })); } catch (e) {
      if (e instanceof ApiError && e.body.code === 'already_queued') pollQueue();
      else status(raceError(e));
    }
  });
  $('[data-testid=quick-cancel]').addEventListener('click', async () => {
    clearTimeout(queueTimer);
    try { queueState(await api('quickmatch', { method: 'DELETE' })); } catch (e) { status(raceError(e)); }
  });
  $('[data-testid=race-form]').addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    const body = { rules: rulesBody(form.rules.value), seats: Number(form.seats.value), public: form.public.checked, layout: ctx.layoutName() };
    try { const race = await api('races', { method: 'POST', body }); go(race.id, race.public ? '' : race.code); } catch (err) { ctx.notice(raceError(err)); }
  });
  $('[data-testid=code-form]').addEventListener('submit', async (e) => {
    e.preventDefault();
    const code = /** @type {HTMLFormElement} */ (e.target).code.value.trim().toUpperCase();
    try { const race = await api(`races?code=${encodeURIComponent(code)}`); go(race.id, code); } catch (err) { ctx.notice(raceError(err)); }
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
