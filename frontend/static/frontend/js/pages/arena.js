// One arena: its countdown, join / leave / play, live standings (the arena socket), and its
// podium once over. A game is played on the ordinary play page (#/play); the player comes back
// here (Back, or the Arenas link) for the next one.

import { api, ApiError } from '../api.js';
import { LiveSocket } from '../socket.js';
import { countdown, rulesTitle } from '../format.js';
import { esc } from '../dialog.js';
import { _, fill, num, serverText } from '../i18n.js';
import { scoringText, timeText } from './arenas.js';

/**
 * @typedef {import('./arenas.js').ArenaSummary} ArenaSummary
 * @typedef {import('./arenas.js').Scoring} Scoring
 * @typedef {{rank: number, player: {username: string, display_name: string}, points: number,
 *   wins: number, games: number, streak: number, best_streak: number, fire: boolean,
 *   active: boolean}} Line
 * @typedef {{version: number, total: number, lines: Line[]}} Standings
 * @typedef {ArenaSummary & {server_time: string, scoring: Scoring, version: number,
 *   standings: Standings, podium: Line[]|null, me?: Line|null}} Arena
 */

/**
 * @param {Line} l
 * @param {string|null} me the viewer's username
 * @returns {string}
 */
function row(l, me) {
  const fire = l.fire ? ` <span title="${esc(_('On fire: the next win scores double'))}" aria-label="${esc(_('on fire'))}">🔥</span>` : '';
  const away = l.active ? '' : ` <span class="small">(${esc(_('away'))})</span>`;
  return `<tr${me && l.player.username === me ? ' class="mine"' : ''}><td>${num(l.rank)}</td><td>${esc(l.player.display_name)}${fire}${away}</td><td>${num(l.points)}</td><td>${num(l.wins)}</td><td>${num(l.games)}</td></tr>`;
}

/**
 * The standings table, the viewer's own line under it when it is not on the page.
 * @param {Standings} s
 * @param {Line|null|undefined} mine
 * @param {string|null} me
 * @returns {string}
 */
export function standingsTable(s, mine, me) {
  if (!s.lines.length) return `<p class="empty">${_('Nobody has joined yet.')}</p>`;
  const own = mine && !s.lines.some((l) => l.player.username === me) ? `<tfoot>${row(mine, me)}</tfoot>` : '';
  return `<table class="board" data-testid="standings"><caption class="sr-only">${_('Standings')}</caption>
    <thead><tr><th scope="col">#</th><th scope="col">${_('Player')}</th><th scope="col">${_('Points')}</th><th scope="col">${_('Wins')}</th><th scope="col">${_('Games')}</th></tr></thead>
    <tbody>${s.lines.map((l) => row(l, me)).join('')}</tbody>${own}</table>`;
}

/**
 * @param {HTMLElement} root
 * @param {any} ctx the app's shared context (app.js)
 * @param {string} id the arena's id
 * @returns {Promise<() => void>}
 */
export async function mount(root, ctx, id) {
  const me = ctx.user ? ctx.user.username : null;
  /** @type {Arena} */
  let arena = await api(`arenas/${encodeURIComponent(id)}`);
  let skew = Date.parse(arena.server_time) - Date.now();
  /** @type {Line|null|undefined} */
  let mine = arena.me;
  root.innerHTML = `<section class="panel"><h2 data-testid="arena-name"></h2><p class="small arena-rules"></p>
      <p data-testid="arena-clock" aria-live="off"></p><div class="controls arena-actions"></div><p class="arena-me" data-testid="arena-me"></p></section>
    <section class="arena-podium" hidden><h2>${_('Podium')}</h2><ol data-testid="podium"></ol></section>
    <section><h2>${_('Standings')} <span class="live-dot">${_('live')}</span></h2><div class="board-out" aria-live="polite"></div></section>
    <section class="panel"><h2>${_('Scoring')}</h2><p>${esc(scoringText(arena.scoring))}</p>
      <p class="small">${_('Each game opens on the play page; come back here for the next one.')}</p></section>`;
  const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (root.querySelector(sel));

  const drawClock = () => {
    const now = Date.now() + skew;
    const text = arena.state === 'scheduled'
      ? fill(_('Starts in %(countdown)s, at %(time)s.'), { countdown: countdown(Date.parse(arena.starts_at) - now), time: timeText(arena.starts_at) })
      : arena.state === 'running' && Date.parse(arena.ends_at) > now
        ? fill(_('Ends in %(countdown)s.'), { countdown: countdown(Date.parse(arena.ends_at) - now) })
        : fill(_('Ended at %(time)s.'), { time: timeText(arena.ends_at) });
    $('[data-testid=arena-clock]').textContent = text;
  };

  const drawActions = () => {
    const open = arena.state === 'scheduled' || arena.state === 'running';
    const joined = Boolean(mine && mine.active);
    let html = '';
    if (!ctx.user) html = open ? `<a class="button" href="/accounts/login/?next=/%23/arenas/${esc(id)}">${_('Sign in to join')}</a>` : '';
    else if (open && !joined) html = `<button type="button" class="button" data-act="join">${_('Join')}</button>`;
    else if (open) {
      html = (arena.state === 'running' ? `<button type="button" class="button" data-act="play">${_('Play the next game')}</button> ` : '')
        + `<button type="button" class="button secondary" data-act="leave">${_('Take a break')}</button>`;
    }
    $('.arena-actions').innerHTML = html;
    $('[data-testid=arena-me]').textContent = mine
      ? fill(_('You: %(points)s points, place %(rank)s, %(streak)s wins in a row.'), { points: num(mine.points), rank: num(mine.rank), streak: num(mine.streak) }) + (mine.fire ? ' 🔥' : '')
      : '';
  };

  const drawStandings = () => {
    $('.board-out').innerHTML = standingsTable(arena.standings, mine, me);
    const podium = $('.arena-podium');
    podium.hidden = !arena.podium;
    if (arena.podium) {
      $('[data-testid=podium]').innerHTML = arena.podium.map((l) => `<li>${esc(l.player.display_name)} · ${esc(fill(_('%(n)s points'), { n: num(l.points) }))}</li>`).join('');
    }
  };

  const draw = () => {
    $('[data-testid=arena-name]').textContent = arena.name;
    $('.arena-rules').textContent = `${rulesTitle(arena.rules)} · ${fill(_('%(n)s players'), { n: num(arena.standings.total) })}`;
    drawClock();
    drawActions();
    drawStandings();
  };
  draw();

  /** @param {Arena} next */
  const take = (next) => {
    arena = next;
    skew = Date.parse(next.server_time) - Date.now();
    if (next.me !== undefined) mine = next.me;
    else if (me) mine = next.standings.lines.find((l) => l.player.username === me) || mine;
    draw();
  };

  const socket = new LiveSocket(`/ws/arenas/${encodeURIComponent(id)}/`, {
    onMessage: (/** @type {any} */ m) => {
      // Only what is as new as the page (a socket's first message may have been read before
      // the page's own join); a standings push only when newer; a gap is read again whole.
      const newer = m.version > arena.version || (m.final && !arena.final);
      if (m.type === 'arena' && (newer || m.version === arena.version)) take(m);
      else if (m.type === 'standings' && newer) {
        if (m.version > arena.version + 1 && mine) socket.send({ type: 'sync' });
        take(m);
      }
    },
  });

  root.addEventListener('click', async (e) => {
    const b = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (e.target).closest('button[data-act]'));
    if (!b) return;
    const act = b.dataset.act;
    b.setAttribute('disabled', '');
    try {
      const body = await api(`arenas/${encodeURIComponent(id)}/${act}`, { method: 'POST' });
      if (act === 'play') { ctx.openGame(body.game); return; }
      take(body);
    } catch (err) {
      ctx.notice(err instanceof ApiError ? serverText(err.message, _('The arena refused: reload the page and try again.')) : _('Could not reach the server: try again.'));
      b.removeAttribute('disabled');
    }
  });

  const timer = setInterval(() => {
    // The clock passing the start or the end changes what one may do: read the arena again.
    const now = Date.now() + skew;
    const turn = (arena.state === 'scheduled' && now >= Date.parse(arena.starts_at)) || (arena.state === 'running' && now >= Date.parse(arena.ends_at));
    if (turn) { arena.state = now >= Date.parse(arena.ends_at) ? 'finishing' : 'running'; socket.send({ type: 'sync' }); drawActions(); }
    drawClock();
  }, 1000);
  return () => { clearInterval(timer); socket.close(); };
}
