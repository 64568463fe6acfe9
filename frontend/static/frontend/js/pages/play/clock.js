// The game's clock on screen. The server keeps the time: the clock shows the view's `elapsed_ms`,
// running on from when that view arrived while `clock_running` says so (format.js elapsedNow),
// redrawn four times a second while the deal is on (its text written when it changes).

import { clock, elapsedNow } from '../../format.js';

const TICK_MS = 250;

export class GameClock {
  /**
   * @param {HTMLElement} el where the time is written
   * @param {() => GameView} view the view in hand
   */
  constructor(el, view) {
    this.el = el;
    this.view = view;
    this.receivedAt = performance.now();
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
  }

  // A new view arrived now.
  received() { this.receivedAt = performance.now(); }

  // Written when it changed (as paint.js's paintText does, not imported here: the game page's
  // cold load, on its wire budget, asks for no module more).
  tick() {
    const text = clock(elapsedNow(this.view(), this.receivedAt, performance.now()));
    if (this.el.textContent !== text) this.el.textContent = text;
  }

  start() {
    clearInterval(this.timer);
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  stop() { clearInterval(this.timer); }
}
