// One race (#/races/<id>[/<code>]): who is in, the countdown, the player's own game (the play
// page, mounted through its exported `mount`, beside the others' progress), the results, rematch.
// The race comes over /ws/races/<id>/ on every change (`race` frames), each player's progress
// after each move (`progress` frames: that player's counts); a gap in the race's `version` or in
// a player's `seq` asks the server for the whole race again (`sync`).

import { api } from '../api.js';
import { LiveSocket } from '../socket.js';
import { esc } from '../dialog.js';
import { clock, rulesTitle } from '../format.js';
import { _, digits, fill, num } from '../i18n.js';
import { raceError, raceStyles } from './races.js';

/** @typedef {import('./races.js').Race} Race */
/** @typedef {import('./races.js').RacePlayer} RacePlayer */
/**
 * One player's progress after a move; `version` is the race's the server has shown this socket.
 * @typedef {{type: 'progress', version: number, player: Pick<RacePlayer, 'username' | 'status' | 'cards_left' | 'stock_left' | 'streak' | 'moves' | 'time_ms' | 'seq'>}} ProgressFrame
 */

/** @type {Record<string, () => string>} */
const STATUS = {
  waiting: () => _('waiting'),
  playing: () => _('playing'),
  stuck: () => _('stuck'),
  won: () => _('cleared'),
  finished: () => _('finished'),
  resigned: () => _('resigned'),
  left: () => _('left'),
};

/** A player's line in the progress table (counts only: the server never sends anyone's cards).
 * While the race runs: cards left, streak, stock; once it is over: place, cards left, time, the
 * rating change.
 * @param {RacePlayer} p @param {Race} race @param {string} me
 */
function playerRow(p, race, me) {
  const mine = p.username === me ? ' class="mine"' : '';
  const count = (/** @type {number | null} */ n) => (n == null ? '–' : num(n));
  const status = `<td data-testid="player-status">${esc((STATUS[p.status] || (() => p.status))())}</td>`;
  const cards = `<td data-testid="cards-left">${count(p.cards_left)}</td>`;
  if (race.state !== 'finished') {
    return `<tr${mine} data-player="${esc(p.username)}"><td>${esc(p.name)}</td>${cards}<td>${count(p.streak)}</td><td>${count(p.stock_left)}</td>${status}</tr>`;
  }
  const change = p.rating ? `${p.rating.change >= 0 ? '+' : ''}${num(p.rating.change)}` : '–';
  return `<tr${mine} data-player="${esc(p.username)}"><td>${count(p.place)}</td><td>${esc(p.name)}</td>${cards}<td>${p.time_ms == null ? '–' : clock(p.time_ms)}</td>${status}<td data-testid="rating-change">${change}</td></tr>`;
}

/** @param {Race} race @param {string} me */
function playersTable(race, me) {
  const head = race.state === 'finished'
    ? ['#', _('Player'), _('Cards left'), _('Time'), _('Status'), _('Rating')]
    : [_('Player'), _('Cards left'), _('Streak'), _('Stock'), _('Status')];
  return `<table class="board race-players-table"><caption class="sr-only">${_('Players')}</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
    <tbody>${race.players.map((p) => playerRow(p, race, me)).join('')}</tbody></table>`;
}

/** @type {Mount} */
export async function mount(root, ctx, params) {
  const [raceId, code = ''] = params;
  if (!ctx.user) {
    root.innerHTML = `<p>${_('Sign in to race other players.')} <a href="/accounts/login/?next=/%23/races/${esc(raceId)}">${_('Sign in')}</a></p>`;
    return null;
  }
  raceStyles();
  const me = ctx.user.username;
  const query = code ? `?code=${encodeURIComponent(code)}` : '';
  let race = /** @type {Race} */ (await api(`races/${raceId}${query}`));
  root.innerHTML = `<div class="race" data-testid="race">
    <header class="race-head"><p class="race-state" data-testid="race-state" aria-live="polite"></p>
      <p class="race-info small"></p><div class="race-actions"></div></header>
    <div class="race-body"><div class="race-table" data-testid="race-table"></div>
      <aside class="race-side panel" aria-label="${_('Players')}"><div data-testid="race-players"></div></aside></div></div>`;
  /** @param {string} sel */
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  let offset = Date.parse(race.server_time) - Date.now(); // server clock minus ours
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ticker;
  /** @type {(() => void) | null} */
  let playCleanup = null;
  /** @type {string | null} the game the mounted play page shows */
  let playFor = null;
  let gone = false;
  // When this page last heard of each racer (a move, a change of their line): a racer silent for
  // the race's `absent_s` (30 s) may have lost their connection, and the others get a button to
  // claim against them (the server judges the absence: too early is a 409 that changes nothing).
  const absentMs = () => 1000 * ((/** @type {Race & {absent_s?: number}} */ (race)).absent_s ?? 30);
  /** @type {Map<string, number>} */
  const heard = new Map();
  let claimable = '';

  const act = async (/** @type {string} */ what) => {
    try {
      const against = what.startsWith('claim:') ? what.slice(6) : null;
      const body = against != null ? { player: against } : what === 'join' && code ? { code } : {};
      const path = against != null ? 'claim' : what;
      const answer = /** @type {Race} */ (await api(`races/${raceId}/${path}`, { method: 'POST', body }));
      if (what === 'rematch') { location.hash = `#/races/${answer.id}`; return; }
      show(answer);
    } catch (e) { ctx.notice(raceError(e)); }
  };
  $('.race-actions').addEventListener('click', (e) => {
    const what = /** @type {HTMLElement} */ (e.target).closest('[data-act]')?.getAttribute('data-act');
    if (what) act(what);
  });

  function stateText() {
    const now = Date.now() + offset;
    if (race.state === 'open') return fill(_('Waiting for players: %(n)s of %(seats)s'), { n: num(race.players.length), seats: num(race.seats) });
    if (race.state === 'countdown') return fill(_('Starting in %(s)s…'), { s: digits(String(Math.max(0, Math.ceil((Date.parse(race.starts_at || '') - now) / 1000)))) });
    if (race.state === 'running') return fill(_('Racing: %(left)s left'), { left: clock(Date.parse(race.ends_at || '') - now) });
    const winner = race.players.find((p) => p.place === 1);
    return winner ? fill(_('Finished: %(name)s wins'), { name: winner.name }) : _('Finished');
  }

  function actions() {
    const seated = race.players.some((p) => p.username === me && p.status !== 'left');
    const played = race.players.some((p) => p.username === me && p.place != null);
    /** @param {string} what @param {string} label @param {boolean} [secondary] */
    const button = (what, label, secondary = false) => `<button type="button" class="button${secondary ? ' secondary' : ''}" data-act="${what}" data-testid="race-${what}">${label}</button>`;
    const out = [];
    if (race.state === 'open' && !seated) out.push(button('join', _('Join the race')));
    if (race.state === 'open' && race.host === me) out.push(button('start', _('Start now')));
    if (race.state !== 'finished' && seated) out.push(button('leave', race.state === 'running' ? _('Give up') : _('Leave'), true));
    if (race.state === 'finished' && played) out.push(button('rematch', race.rematch ? _('Join the rematch') : _('Rematch')));
    for (const p of absent()) out.push(`<button type="button" class="button secondary" data-act="claim:${esc(p.username)}" data-testid="race-claim">${fill(_('Claim the win over %(name)s'), { name: esc(p.name) })}</button>`);
    return out.join(' ');
  }

  /** The other racers this page has heard nothing from for `absentMs()`, while the player races. */
  function absent() {
    const racing = (/** @type {RacePlayer} */ p) => p.status === 'playing' || p.status === 'stuck';
    if (race.state !== 'running' || !race.players.some((p) => p.username === me && racing(p))) return [];
    const since = Date.parse(race.starts_at || '') - offset;
    return race.players.filter((p) => p.username !== me && racing(p)
      && Date.now() - Math.max(since, heard.get(p.username) || 0) >= absentMs());
  }

  /** @param {RacePlayer} p */
  function hear(p) {
    const old = race.players.find((o) => o.username === p.username);
    if (!old || old.seq !== p.seq || old.status !== p.status) heard.set(p.username, Date.now());
  }

  function info() {
    const share = race.state === 'open' && !race.public
      ? ' · ' + fill(_('Code %(code)s'), { code: `<strong data-testid="race-code">${esc(race.code)}</strong>` })
      : '';
    return `${esc(rulesTitle(race.rules.key))} · ${fill(_('%(n)s seats'), { n: num(race.seats) })} · ${fill(_('time cap %(t)s'), { t: clock(race.cap_s * 1000) })}${share}`;
  }

  async function showGame() {
    if (!race.game || playFor === race.game) return;
    playFor = race.game;
    const view = /** @type {GameView} */ (await api(`games/${race.game}`));
    if (gone) return;
    const el = document.createElement('div');
    el.className = 'page page-play';
    $('.race-table').replaceChildren(el);
    const play = await import('./play.js');
    /** @type {AppContext} */
    const playCtx = {
      ...ctx,
      hasGame: true,
      takeGame: () => view,
      // A race's game is the race's: a new deal is started from the lobby, not from here.
      startGame: async () => { location.hash = '#/races'; },
      openGame: () => {},
    };
    playCleanup = (await play.mount(el, playCtx, [])) || null;
    if (gone && playCleanup) playCleanup();
  }

  function paint() {
    $('[data-testid=race-state]').textContent = stateText();
    $('[data-testid=race-state]').dataset.state = race.state;
    const now = absent().map((p) => p.username).join(' ');
    if (now !== claimable) { claimable = now; $('.race-actions').innerHTML = actions(); }
  }

  /** @param {Race} next */
  function show(next) {
    if (next !== race) next.players.forEach(hear);
    race = next;
    offset = Date.parse(race.server_time) - Date.now();
    paint();
    $('.race-info').innerHTML = info();
    $('.race-actions').innerHTML = actions();
    $('[data-testid=race-players]').innerHTML = playersTable(race, me);
    if (race.state === 'running' || race.state === 'finished') showGame().catch(() => { playFor = null; });
    clearInterval(ticker);
    if (race.state === 'countdown' || race.state === 'running') ticker = setInterval(paint, 250);
  }

  /** A player's progress: their line in the table, or a sync when a frame was missed.
   * @param {ProgressFrame} m */
  function progress(m) {
    const line = race.players.find((o) => o.username === m.player.username);
    if (m.version < race.version || !line || race.state !== 'running') return;
    if (line.seq != null && m.player.seq != null && m.player.seq <= line.seq) return;
    const gap = m.version > race.version
      || (line.seq != null && m.player.seq != null && m.player.seq > line.seq + 1);
    heard.set(line.username, Date.now());
    Object.assign(line, m.player);
    $('[data-testid=race-players]').innerHTML = playersTable(race, me);
    if (gap) socket.send({ type: 'sync' });
  }

  const socket = new LiveSocket(`/ws/races/${raceId}/${query}`, {
    onMessage: (/** @type {{type: string, race: Race} | ProgressFrame} */ m) => {
      if (m.type === 'progress') { progress(/** @type {ProgressFrame} */ (m)); return; }
      if (m.type !== 'race' || !('race' in m)) return;
      const next = m.race;
      // A frame missed (the channel layer is best-effort): read the whole race again.
      const gap = next.version > race.version + 1
        || next.players.some((p) => { const old = race.players.find((o) => o.username === p.username); return old && old.seq != null && p.seq != null && p.seq > old.seq + 1; });
      if (next.version < race.version) return;
      show(next);
      if (gap) socket.send({ type: 'sync' });
    },
  });

  for (const p of race.players) heard.set(p.username, Date.now());
  show(race);
  return () => {
    gone = true;
    clearInterval(ticker);
    socket.close();
    if (playCleanup) playCleanup();
  };
}
