// One race (#/races/<id>[/<code>]): who is in, the countdown, the player's own game (the play
// page, mounted through its exported `mount`, beside the others' progress), the results, rematch.
// The race comes over /ws/races/<id>/ on every change (`race` frames), each player's progress
// after each move (`progress` frames: that player's counts); a gap in the race's `version` or in
// a player's `seq` asks the server for the whole race again (`sync`). Its parts are in race/.

import { api } from '../api.js';
import { LiveSocket } from '../socket.js';
import { esc } from '../dialog.js';
import { _ } from '../i18n.js';
import { raceError } from './races/words.js';
import { raceStyles } from './races/styles.js';
import { playersTable } from './race/players.js';
import { stateText, infoHtml, actionsHtml } from './race/head.js';
import { Absence } from './race/absence.js';
import { raceStep, progressStep } from './race/frames.js';
import { RaceTable } from './race/table.js';

const markup = () => `<div class="race" data-testid="race">
    <header class="race-head"><p class="race-state" data-testid="race-state" aria-live="polite"></p>
      <p class="race-info small"></p><div class="race-actions"></div></header>
    <div class="race-body"><div class="race-table" data-testid="race-table"></div>
      <aside class="race-side panel" aria-label="${_('Players')}"><div data-testid="race-players"></div></aside></div></div>`;

/** The race in hand and its screen. */
class RaceScreen {
  /** @param {HTMLElement} root @param {AppContext} ctx @param {Race} race @param {string} me */
  constructor(root, ctx, race, me) {
    this.root = root;
    this.ctx = ctx;
    this.race = race;
    this.me = me;
    this.offset = Date.parse(race.server_time) - Date.now(); // the server's clock minus ours
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.ticker = undefined;
    this.claimable = ''; // the absent racers the buttons were drawn for
    this.absence = new Absence(race.players);
    this.table = new RaceTable(ctx);
    /** @type {() => void} */
    this.sync = () => {};
    root.innerHTML = markup();
  }

  /** @param {string} sel */
  $(sel) { return /** @type {HTMLElement} */ (this.root.querySelector(sel)); }

  absent() { return this.absence.absent(this.race, this.me, this.offset); }

  actions() { return actionsHtml(this.race, this.me, this.absent()); }

  paint() {
    this.$('[data-testid=race-state]').textContent = stateText(this.race, Date.now() + this.offset);
    this.$('[data-testid=race-state]').dataset.state = this.race.state;
    const now = this.absent().map((p) => p.username).join(' ');
    if (now !== this.claimable) { this.claimable = now; this.$('.race-actions').innerHTML = this.actions(); }
  }

  /** @param {Race} next */
  show(next) {
    if (next !== this.race) this.absence.hearChanges(this.race, next);
    const race = this.race = next;
    this.offset = Date.parse(race.server_time) - Date.now();
    this.paint();
    this.$('.race-info').innerHTML = infoHtml(race);
    this.$('.race-actions').innerHTML = this.actions();
    this.$('[data-testid=race-players]').innerHTML = playersTable(race, this.me);
    if (race.game && (race.state === 'running' || race.state === 'finished')) this.table.show(race.game, this.$('.race-table'));
    clearInterval(this.ticker);
    if (race.state === 'countdown' || race.state === 'running') this.ticker = setInterval(() => this.paint(), 250);
  }

  /** @param {RaceFrame | ProgressFrame} m */
  receive(m) {
    if (m.type === 'progress') {
      const step = progressStep(this.race, m);
      if (!step) return;
      this.absence.hear(step.line.username);
      Object.assign(step.line, m.player);
      this.$('[data-testid=race-players]').innerHTML = playersTable(this.race, this.me);
      if (step.sync) this.sync();
      return;
    }
    if (m.type !== 'race' || !('race' in m)) return;
    const step = raceStep(this.race, m.race);
    if (step.take) this.show(m.race);
    if (step.sync) this.sync();
  }

  close() {
    clearInterval(this.ticker);
    this.table.close();
  }
}

/**
 * A button pressed: join, start, leave, rematch (its race opens), a claim against an absent racer.
 * @param {RaceScreen} screen @param {string} what @param {string} code a private race's
 */
async function act(screen, what, code) {
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
  const screen = new RaceScreen(root, ctx, /** @type {Race} */ (await api(`races/${raceId}${query}`)), ctx.user.username);
  screen.$('.race-actions').addEventListener('click', (e) => {
    const what = /** @type {HTMLElement} */ (e.target).closest('[data-act]')?.getAttribute('data-act');
    if (what) act(screen, what, code);
  });
  const socket = new LiveSocket(`/ws/races/${raceId}/${query}`, { onMessage: (m) => screen.receive(m) });
  screen.sync = () => socket.send({ type: 'sync' });
  screen.show(screen.race);
  return () => {
    screen.close();
    socket.close();
  };
}
