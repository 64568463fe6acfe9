// One arena: its countdown, join / leave / play, live standings (the arena socket), and its
// podium once over. Its games are played here, on the whole screen, the standings beside the
// table (arenas/at_table.js); "Standings" goes back to this page, "Play the next game" deals the
// next. The panel's words are arenas/panel.js, the standings arenas/standings.js, what a frame or
// the clock changes arenas/live.js.

import { api } from '../api.js';
import { LiveSocket } from '../socket.js';
import { rulesTitle, arenaName } from '../format.js';
import { esc } from '../dialog.js';
import { _, fill, num } from '../i18n.js';
import { scoringText, arenaError } from './arenas/words.js';
import { standingsTable, podiumItems } from './arenas/standings.js';
import { clockText, actionsHtml, meText } from './arenas/panel.js';
import { frameStep, turnAt } from './arenas/live.js';
import { ArenaTable } from './arenas/at_table.js';
import { raceStyles } from './races/styles.js';
import { clock } from '../format.js';
import { paintHtml, paintText } from '../paint.js';

/** @param {ArenaScoring} scoring */
const markup = (scoring) => `<div class="arena-page"><section class="panel"><h2 data-testid="arena-name"></h2><p class="small arena-rules"></p>
      <p data-testid="arena-clock" aria-live="off"></p><div class="controls arena-actions"></div><p class="arena-me" data-testid="arena-me"></p></section>
    <section class="arena-podium" hidden><h2>${_('Podium')}</h2><ol data-testid="podium"></ol></section>
    <section><h2>${_('Standings')} <span class="live-dot">${_('live')}</span></h2><div class="board-out" aria-live="polite"></div></section>
    <section class="panel"><h2>${_('Scoring')}</h2><p>${esc(scoringText(scoring))}</p>
      <p class="small">${_('Each game is played here, the standings beside the table.')}</p></section></div>
    <section class="arena-at-table play" data-testid="arena-table" aria-label="${_('Game')}" hidden></section>`;

/** The arena in hand and its screen. */
class ArenaScreen {
  /** @param {HTMLElement} root @param {Arena} arena @param {User | null} user */
  constructor(root, arena, user) {
    this.root = root;
    this.user = user;
    this.me = user ? user.username : null;
    this.arena = arena;
    this.skew = Date.parse(arena.server_time) - Date.now(); // the server's clock minus ours
    /** @type {ArenaLine | null | undefined} */
    this.mine = arena.me;
    root.innerHTML = markup(arena.scoring);
    this.atTable = new ArenaTable(this.$('[data-testid=arena-table]'));
  }

  /** Its games' table, or its page. @param {string | null} game the game to play; null: the page */
  async atTheTable(game) {
    this.$('.arena-page').hidden = Boolean(game);
    if (!game) { this.atTable.show(false); return; }
    this.drawTable();
    await this.atTable.play(game);
  }

  drawTable() {
    const left = this.arena.state === 'running' ? clock(Date.parse(this.arena.ends_at) - this.now()) : '–';
    this.atTable.draw(this.arena, this.mine, this.me, left);
  }

  /** @param {string} sel */
  $(sel) { return /** @type {HTMLElement} */ (this.root.querySelector(sel)); }

  now() { return Date.now() + this.skew; }

  drawClock() {
    paintText(this.$('[data-testid=arena-clock]'), clockText(this.arena, this.now()));
    if (this.atTable.on) this.drawTable();
  }

  drawActions() {
    paintHtml(this.$('.arena-actions'), actionsHtml(this.arena, this.mine, Boolean(this.user)));
    this.$('[data-testid=arena-me]').textContent = meText(this.mine);
  }

  drawStandings() {
    paintHtml(this.$('.board-out'), standingsTable(this.arena.standings, this.mine, this.me, this.arena.replays));
    this.$('.arena-podium').hidden = !this.arena.podium;
    if (this.arena.podium) paintHtml(this.$('[data-testid=podium]'), podiumItems(this.arena.podium));
    if (this.atTable.on) this.drawTable();
  }

  draw() {
    const { arena } = this;
    this.$('[data-testid=arena-name]').textContent = arenaName(arena.name);
    this.$('.arena-rules').textContent = `${rulesTitle(arena.rules)} · ${fill(_('%(n)s players'), { n: num(arena.standings.total) })}`;
    this.drawClock();
    this.drawActions();
    this.drawStandings();
  }

  /** @param {Arena} next */
  take(next) {
    // A `standings` frame (everyone's) carries no replays: the viewer's own stay.
    this.arena = next.replays === undefined ? { ...next, replays: this.arena.replays } : next;
    this.skew = Date.parse(next.server_time) - Date.now();
    if (next.me !== undefined) this.mine = next.me;
    else if (this.me) this.mine = next.standings.lines.find((l) => l.player.username === this.me) || this.mine;
    this.draw();
  }
}

/**
 * A button pressed: join, leave, play the next game (here, at the table), end a stuck deal, back
 * to the standings.
 * @param {ArenaScreen} screen @param {AppContext} ctx @param {HTMLElement} b
 */
async function press(screen, ctx, b) {
  const act = b.dataset.act;
  if (act === 'back') { screen.atTheTable(null); return; }
  if (act === 'end') { screen.atTable.endDeal(); return; }
  b.setAttribute('disabled', '');
  try {
    const body = await api(`arenas/${encodeURIComponent(screen.arena.id)}/${act}`, { method: 'POST' });
    b.removeAttribute('disabled');
    if (act === 'play') { await screen.atTheTable(/** @type {{game_id: string}} */ (body).game_id); return; }
    screen.take(/** @type {Arena} */ (body));
  } catch (err) {
    ctx.notice(arenaError(err, act || ''));
    b.removeAttribute('disabled');
  }
}

/**
 * @param {HTMLElement} root
 * @param {AppContext} ctx
 * @param {string} id the arena's id
 * @returns {Promise<() => void>}
 */
export async function mount(root, ctx, id) {
  raceStyles();
  const view = new ArenaScreen(root, /** @type {Arena} */ (await api(`arenas/${encodeURIComponent(id)}`)), ctx.user);
  view.draw();
  const socket = new LiveSocket(`/ws/arenas/${encodeURIComponent(id)}/`, {
    onMessage: (/** @type {ArenaFrame} */ m) => {
      const step = frameStep(view.arena, m, Boolean(view.mine));
      if (step.sync) socket.send({ type: 'sync' });
      if (step.take) view.take(m);
    },
  });
  root.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('button[data-act]');
    if (b) press(view, ctx, /** @type {HTMLElement} */ (b));
  });
  const timer = setInterval(() => {
    const turned = turnAt(view.arena, view.now());
    if (turned) { view.arena.state = turned; socket.send({ type: 'sync' }); view.drawActions(); }
    view.drawClock();
  }, 1000);
  return () => { clearInterval(timer); socket.close(); view.atTable.close(); };
}
