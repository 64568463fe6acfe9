// One race (#/races/<id>[/<code>]), on the whole screen as a game is: the race's bar (its name,
// its one clock, where it stands, the player's buttons), a compact strip of the other racers'
// progress, and the table: the countdown on it, then the player's own game (race/game.js: the
// shared table with nothing a contest refuses), then the race's own results. Anyone may watch a
// public race: the strip, big, in the table's place (counts only: the server sends a watcher no
// card, docs/races.md). The race comes over /ws/races/<id>/ on every change (`race` frames), each
// other player's progress after each move (`progress` frames: that player's counts; never the
// player's own); a gap in the race's `version` or in another player's `seq` asks the server for the
// whole race again (`sync`).

import { api, layoutNamed } from '../api.js';
import { LiveSocket } from '../socket.js';
import { esc } from '../dialog.js';
import { clock } from '../format.js';
import { paintHtml, paintText } from '../paint.js';
import { _, digits, fill, num } from '../i18n.js';
import { raceError } from './races/words.js';
import { raceStyles } from './races/styles.js';
import { stripHtml } from './race/players.js';
import { stateText, infoHtml, actionsHtml, raceClockMs, raceTitle, secondsTo } from './race/head.js';
import { resultsHtml } from './race/results.js';
import { Absence } from './race/absence.js';
import { raceStep, progressStep } from './race/frames.js';
import { RaceTable } from './race/table.js';

/** @param {string} key @param {string} label @param {string} [value] */
const score = (key, label, value = '–') => `<div><dt>${label}</dt><dd data-testid="${key}">${value}</dd></div>`;

const markup = () => `<section class="race play" data-testid="race" aria-label="${_('Race')}">
    <div class="topbar race-bar"><dl class="scores">${score('race-clock', _('Time'), digits('0:00'))}${score('race-cards', _('Cards left'))}${score('race-stock', _('Stock'))}${score('race-moves', _('Moves'))}</dl>
      <span class="deal-title" data-testid="deal-title"></span>
      <p class="race-state" data-testid="race-state" aria-live="polite"></p><div class="race-actions"></div></div>
    <div class="race-strip" data-testid="race-players" role="group" aria-label="${_('Players')}"></div>
    <div class="race-stage" data-testid="race-table"><div class="table-wrap"></div>
      <div class="race-notice" data-testid="race-notice" hidden><p class="race-count" data-testid="race-countdown" aria-hidden="true"></p><p class="race-info small"></p></div>
      <section class="race-results panel" data-testid="race-results" aria-label="${_('Results')}" hidden></section></div>
    <p class="sr-only" aria-live="polite" data-testid="announce"></p></section>`;

/** The race in hand and its screen. */
class RaceScreen {
  /** @param {HTMLElement} root @param {AppContext} ctx @param {Race} race @param {string} me @param {number} total the layout's cards */
  constructor(root, ctx, race, me, total) {
    this.root = root;
    this.ctx = ctx;
    this.race = race;
    this.me = me;
    this.total = total;
    this.offset = Date.parse(race.server_time) - Date.now(); // the server's clock minus ours
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.ticker = undefined;
    this.absence = new Absence(race); // whom the server says a claim would be taken against
    this.table = new RaceTable({ onView: (v) => this.ownView(v), say: (text) => { this.$('[data-testid=announce]').textContent = text; } });
    /** @type {() => void} */
    this.sync = () => {};
    root.innerHTML = markup();
  }

  /** @param {string} sel */
  $(sel) { return /** @type {HTMLElement} */ (this.root.querySelector(sel)); }

  now() { return Date.now() + this.offset; }

  watching() { return !this.race.players.some((p) => p.username === this.me) || (this.race.state !== 'open' && !this.race.game); }

  absent() { return this.absence.absent(this.race, this.me); }

  actions() { return actionsHtml(this.race, this.me, this.absent(), this.table.stuck()); }

  // Every quarter second: the state, the clock, the countdown, and the buttons when they change.
  paint() {
    const { race } = this;
    const now = this.now();
    const state = this.$('[data-testid=race-state]');
    paintText(state, stateText(race, now));
    if (state.dataset.state !== race.state) state.dataset.state = race.state;
    paintText(this.$('[data-testid=race-clock]'), clock(raceClockMs(race, now)));
    paintText(this.$('[data-testid=race-countdown]'), race.state === 'countdown' ? digits(String(secondsTo(race, now))) : '');
    paintHtml(this.$('.race-actions'), this.actions());
    if (this.absence.due(race, this.me)) this.sync(); // a racer's soonest claim came: ask the server
  }

  /** The player's own game moved: the bar's counts, the buttons. @param {GameView} v */
  ownView(v) {
    this.$('[data-testid=race-cards]').textContent = num(v.cards_left);
    this.$('[data-testid=race-stock]').textContent = num(v.stock_left);
    this.$('[data-testid=race-moves]').textContent = num(v.moves);
    this.paint();
  }

  /** What the table's place shows: the notice (waiting, the countdown), the game, the results. */
  stage() {
    const { race } = this;
    const over = race.state === 'finished';
    const playing = !over && Boolean(race.game) && race.state === 'running';
    const watching = this.watching() && race.state === 'running';
    this.root.querySelector('.race')?.classList.toggle('watching', watching);
    this.$('[data-testid=race-notice]').hidden = over || playing || watching;
    paintHtml(this.$('.race-info'), watching ? '' : infoHtml(race));
    this.$('.table-wrap').hidden = over || !race.game;
    const results = this.$('[data-testid=race-results]');
    results.hidden = !over;
    if (over) paintHtml(results, resultsHtml(race, this.me, stateText(race, this.now())));
    if (race.game && (race.state === 'running' || over)) this.table.show(race.game, this.$('.table-wrap'));
  }

  strip() { paintHtml(this.$('[data-testid=race-players]'), this.race.state === 'finished' ? '' : stripHtml(this.race, this.me, this.total)); }

  /** @param {Race} next */
  show(next) {
    this.absence.take(next);
    const race = this.race = next;
    this.offset = Date.parse(race.server_time) - Date.now();
    this.$('[data-testid=deal-title]').textContent = this.watching() && race.state !== 'open' ? fill(_('Watching · %(race)s'), { race: raceTitle(race) }) : raceTitle(race);
    this.strip();
    this.stage();
    this.paint();
    clearInterval(this.ticker);
    if (race.state === 'countdown' || race.state === 'running') this.ticker = setInterval(() => this.paint(), 250);
  }

  /** @param {RaceFrame | ProgressFrame} m */
  receive(m) {
    if (m.type === 'progress') {
      const step = progressStep(this.race, m);
      if (!step) return;
      this.absence.hear(step.line.username, this.race.absent_s ?? 30);
      Object.assign(step.line, m.player);
      this.strip();
      if (step.sync) this.sync();
      return;
    }
    if (m.type !== 'race' || !('race' in m)) return;
    const step = raceStep(this.race, m.race, this.me);
    if (step.take) this.show(m.race);
    if (step.sync) this.sync();
  }

  close() {
    clearInterval(this.ticker);
    this.table.close();
  }
}

/**
 * A button pressed: join, start, leave, rematch (its race opens), end a stuck deal, a claim
 * against an absent racer.
 * @param {RaceScreen} screen @param {string} what @param {string} code a private race's
 */
async function act(screen, what, code) {
  if (what === 'end') { screen.table.game?.endDeal(); return; }
  try {
    const against = what.startsWith('claim:') ? what.slice(6) : null;
    const body = against != null ? { player: against } : what === 'join' && code ? { code } : {};
    const path = against != null ? 'claim' : what;
    const answer = /** @type {Race} */ (await api(`races/${screen.race.id}/${path}`, { method: 'POST', body }));
    if (what === 'rematch') { location.hash = `#/races/${answer.id}`; return; }
    screen.show(answer);
  } catch (e) { screen.ctx.notice(raceError(e)); }
}

/** @type {Mount} */
export async function mount(root, ctx, params) {
  const [raceId, code = ''] = params;
  if (!ctx.user) {
    root.innerHTML = `<p>${_('Sign in to race other players.')} <a href="/accounts/login/?next=/%23/races/${esc(raceId)}">${_('Sign in')}</a></p>`;
    return null;
  }
  raceStyles();
  const query = code ? `?code=${encodeURIComponent(code)}` : '';
  const race = /** @type {Race} */ (await api(`races/${raceId}${query}`));
  const total = (await layoutNamed(race.layout)).slots.length;
  document.body.classList.add('playing'); // the whole screen, as a game has it
  const screen = new RaceScreen(root, ctx, race, ctx.user.username, total);
  root.addEventListener('click', (e) => {
    const what = /** @type {HTMLElement} */ (e.target).closest('[data-act]')?.getAttribute('data-act');
    if (what) act(screen, what, code);
  });
  const socket = new LiveSocket(`/ws/races/${raceId}/${query}`, { onMessage: (m) => screen.receive(m) });
  screen.sync = () => socket.send({ type: 'sync' });
  screen.show(screen.race);
  return () => {
    screen.close();
    socket.close();
    document.body.classList.remove('playing');
  };
}
