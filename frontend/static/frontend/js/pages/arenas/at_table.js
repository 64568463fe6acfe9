// An arena's games, played on the arena's own page, on the whole screen as a game is: the arena's
// bar (its name, its clock, the player's points, place and streak), the table (../race/table.js:
// the contest table, nothing a contest refuses), and the standings beside it (a one-line strip on
// a phone). Between games, the table's place says how the deal went and offers the next one.

import { esc } from '../../dialog.js';
import { arenaName } from '../../format.js';
import { paintHtml } from '../../paint.js';
import { _, fill, num } from '../../i18n.js';
import { RaceTable } from '../race/table.js';
import { standingsTable } from './standings.js';

/** @param {string} key @param {string} label */
const score = (key, label) => `<div><dt>${label}</dt><dd data-testid="${key}">–</dd></div>`;

const markup = () => `<div class="topbar arena-bar"><dl class="scores">${score('arena-bar-clock', _('Time left'))}${score('arena-points', _('Points'))}${score('arena-place', _('Place'))}${score('arena-streak', _('Streak'))}</dl>
    <span class="deal-title" data-testid="deal-title"></span>
    <div class="arena-table-actions"><button type="button" class="button" data-act="end" data-testid="arena-end" hidden>${_('End deal')}</button> <button type="button" class="button secondary" data-act="back" data-testid="arena-back">${_('Standings')}</button></div></div>
  <div class="arena-body"><div class="arena-stage"><div class="table-wrap"></div>
      <div class="arena-between" data-testid="arena-between" hidden><p class="arena-outcome" data-testid="arena-outcome"></p>
        <button type="button" class="button" data-act="play">${_('Play the next game')}</button></div></div>
    <aside class="arena-side" data-testid="arena-side" aria-label="${_('Standings')}"></aside></div>
  <p class="sr-only" aria-live="polite" data-testid="announce"></p>`;

/** The compact standings: the first ten and the player's own line; a strip on a phone. @param {ArenaStandings} s @param {ArenaLine | null | undefined} mine @param {string | null} me */
function sideHtml(s, mine, me) {
  const chips = [...s.lines.slice(0, 10), ...(mine && !s.lines.slice(0, 10).some((l) => l.player.username === me) ? [mine] : [])]
    .map((l) => `<li${l.player.username === me ? ' class="mine"' : ''}>${num(l.rank)}. ${esc(l.player.display_name)} <strong>${num(l.points)}</strong>${l.fire ? ' 🔥' : ''}</li>`).join('');
  return `<ol class="arena-chips">${chips}</ol>${standingsTable({ ...s, lines: s.lines.slice(0, 10) }, mine, me)}`;
}

export class ArenaTable {
  /** @param {HTMLElement} el where the table section goes (hidden until a game) */
  constructor(el) {
    this.el = el;
    this.on = false;
    el.innerHTML = markup();
    this.table = new RaceTable({ onView: (v) => this.ownView(v), say: (text) => { this.$('[data-testid=announce]').textContent = text; } });
  }

  /** @param {string} sel */
  $(sel) { return /** @type {HTMLElement} */ (this.el.querySelector(sel)); }

  /** Plays `game` here: the table takes the screen. @param {string} game its id */
  async play(game) {
    this.show(true);
    this.$('[data-testid=arena-between]').hidden = true;
    this.$('.table-wrap').hidden = false;
    await this.table.show(game, this.$('.table-wrap'));
  }

  /** The table, or the arena's page. @param {boolean} on */
  show(on) {
    this.on = on;
    this.el.hidden = !on;
    document.body.classList.toggle('playing', on);
  }

  /** A view of the game: over, the table's place says how it went and offers the next. @param {GameView} v */
  ownView(v) {
    const over = v.status === 'won' || v.status === 'lost';
    this.$('[data-testid=arena-end]').hidden = v.status !== 'stuck'; // no more moves: the way out
    this.$('[data-testid=arena-between]').hidden = !over;
    this.$('.table-wrap').hidden = over;
    if (over) this.$('[data-testid=arena-outcome]').textContent = v.status === 'won' ? _('You cleared the peaks!') : fill(_('Deal over: %(n)s cards left.'), { n: num(v.cards_left) });
  }

  /**
   * The bar and the standings beside the table.
   * @param {Arena} arena @param {ArenaLine | null | undefined} mine @param {string | null} me @param {string} clockText
   */
  draw(arena, mine, me, clockText) {
    this.$('[data-testid=deal-title]').textContent = arenaName(arena.name);
    this.$('[data-testid=arena-bar-clock]').textContent = clockText;
    this.$('[data-testid=arena-points]').textContent = mine ? num(mine.points) : '–';
    this.$('[data-testid=arena-place]').textContent = mine ? num(mine.rank) : '–';
    this.$('[data-testid=arena-streak]').textContent = mine ? num(mine.streak) + (mine.fire ? ' 🔥' : '') : '–';
    paintHtml(this.$('[data-testid=arena-side]'), sideHtml(arena.standings, mine, me));
  }

  // No more moves: the player ends the deal (it counts as not won).
  endDeal() { this.table.game?.endDeal(); }

  close() {
    this.table.close();
    document.body.classList.remove('playing');
  }
}
