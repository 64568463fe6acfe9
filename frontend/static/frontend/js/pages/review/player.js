// The replay on the table: the position in hand (a move of the game, or a step of a solver's line
// shown from one of its positions), drawn with the play table's own drawing (table.js) and never
// taking a move; stepping, playing at speed, the bar, the move in words.

import { Table } from '../../table.js';
import { clock } from '../../format.js';
import { _, fill, num, digits } from '../../i18n.js';
import { stepTo, playFrom, stepDelay } from './stepper.js';
import { positionMarks, lineStepText } from './marks.js';
import { linePositions, placeOf, seenCards } from './line.js';
import { positionText, showCurrent, showMarks, lostHere } from './side.js';
import { icon } from './screen.js';

/** @typedef {import('./stepper.js').StepCommand} StepCommand */
/** @typedef {{name: string, tokens: LineToken[], from: number, positions: ReplayPosition[], at: number}} ShownLine */

const noMove = () => {};

export class ReviewPlayer {
  /** @param {HTMLElement} root the review's screen (screen.js) @param {ReplayPayload} replay */
  constructor(root, replay) {
    this.root = root;
    this.replay = replay;
    this.last = replay.moves.length;
    this.index = 0;
    this.speed = 1;
    this.playing = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ShownLine | null} a solver's line on the table instead of the game */
    this.line = null;
    this.marks = positionMarks(this.last, null);
    this.seen = seenCards(replay.moves, replay.positions);
    const wrap = /** @type {HTMLElement} */ (root.querySelector('.review-table'));
    this.table = new Table(wrap, replay.layout, { onCard: noMove, onStock: noMove });
    this.table.el.classList.add('readonly');
    // The stage's room changes without the window's (a longer line of words, the sheet arriving):
    // the table is fitted again whenever its place changes size.
    this.resized = new ResizeObserver(() => this.table.place());
    this.resized.observe(wrap);
    /** @type {() => void} the page's word that the line shown changed */
    this.onLine = noMove;
  }

  /** @param {string} sel @returns {HTMLElement} */
  $(sel) { return /** @type {HTMLElement} */ (this.root.querySelector(sel)); }

  /** @param {AnalysisPayload} a */
  setAnalysis(a) {
    this.marks = positionMarks(this.last, a);
    showMarks(this.root, this.marks);
    this.draw();
  }

  /** Back to the game's own positions, at `index`. @param {number} index */
  show(index) {
    if (this.line) { this.line = null; this.onLine(); }
    this.index = Math.max(0, Math.min(this.last, index));
    this.draw();
  }

  /** @param {StepCommand} command */
  command(command) {
    if (command === 'toggle') { if (this.playing) this.pause(); else this.play(); return; }
    this.pause();
    if (this.line) { this.line.at = stepTo(this.line.at, command, this.line.tokens.length); this.draw(); return; }
    this.show(stepTo(this.index, command, this.last));
  }

  play() {
    if (this.line) this.line.at = playFrom(this.line.at, this.line.tokens.length);
    else this.index = playFrom(this.index, this.last);
    this.playing = true;
    this.draw();
    this.tick();
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
    this.drawToggle();
  }

  /** @param {number} speed */
  setSpeed(speed) {
    this.speed = speed;
    if (this.playing) { clearTimeout(this.timer); this.tick(); }
  }

  tick() {
    this.timer = setTimeout(() => {
      const line = this.line;
      const end = line ? line.tokens.length : this.last;
      const at = line ? line.at : this.index;
      if (at >= end) { this.pause(); return; }
      if (line) line.at += 1;
      else this.index += 1;
      this.draw();
      if (at + 1 >= end) this.pause();
      else this.tick();
    }, stepDelay(this.speed));
  }

  /**
   * A solver's line shown on the table from position `from` of the game.
   * @param {string} name its title @param {LineToken[]} tokens @param {number} from
   */
  showLine(name, tokens, from) {
    this.pause();
    const start = this.replay.positions[from];
    const positions = linePositions(start, tokens, this.replay.layout, this.seen, this.replay.rules.open);
    this.index = from;
    this.line = { name, tokens, from, positions, at: 0 };
    this.onLine();
    this.draw();
    this.$('.review-stage').scrollIntoView({ block: 'nearest' });
  }

  /** @returns {ReplayPosition} */
  position() { return this.line ? this.line.positions[this.line.at] : this.replay.positions[this.index]; }

  draw() {
    const p = this.position();
    const view = /** @type {GameView} */ (/** @type {unknown} */ ({ ...p, id: this.replay.game.id, paused: false, can_undo: false }));
    this.table.render(view);
    for (const b of this.table.el.querySelectorAll('button')) b.tabIndex = -1; // read-only: no card takes the focus
    const line = this.line;
    this.$('.review-stage').classList.toggle('on-line', Boolean(line));
    this.table.hint(line && line.at < line.tokens.length ? placeOf(line.tokens[line.at]) : null);
    this.$('[data-testid=review-at]').textContent = `${digits(this.index)}/${digits(this.last)}`;
    this.$('[data-testid=review-time]').textContent = clock(this.index ? this.replay.moves[this.index - 1].elapsed_ms : 0);
    this.$('[data-testid=review-stock]').textContent = digits(p.stock_left);
    /** @type {HTMLInputElement} */ (this.$('[data-testid=review-slider]')).value = String(this.index);
    this.$('[data-testid=review-move]').textContent = this.words();
    showCurrent(this.root, this.index);
    this.drawToggle();
  }

  /** @returns {string} the position on the table, in words */
  words() {
    const line = this.line;
    if (line) {
      const where = fill(_('%(line)s: step %(at)s of %(n)s'), { line: line.name, at: num(line.at), n: num(line.tokens.length) });
      if (line.at >= line.tokens.length) return `${where} · ${_('The table is clear')}`;
      const token = line.tokens[line.at];
      const card = token === 'draw' ? null : line.positions[line.at].positions[token]?.card || this.seen.layout.get(token) || null;
      return `${where} · ${_('Next')}: ${lineStepText(token, card)}`;
    }
    const i = this.index;
    const head = i === 0 ? _('The deal') : fill(_('Move %(n)s of %(total)s: %(what)s'), { n: num(i), total: num(this.last), what: positionText(this.replay, i) });
    return this.marks[i].losing ? `${head} · ${lostHere()}` : head;
  }

  drawToggle() {
    // Played at speed, the moves are not read out one after another (only where it stops).
    this.$('[data-testid=review-move]').setAttribute('aria-live', this.playing ? 'off' : 'polite');
    const b = this.$('[data-act=toggle]');
    /** @type {HTMLElement} */ (b.querySelector('.ico')).innerHTML = icon(this.playing ? 'pause' : 'play');
    /** @type {HTMLElement} */ (b.querySelector('.lbl')).textContent = this.playing ? _('Pause') : _('Play');
  }

  destroy() {
    this.pause();
    this.resized.disconnect();
    this.table.destroy();
  }
}
