// The game's clock on screen. The server keeps the time: the clock shows the view's `elapsed_ms`,
// running on from when that view arrived while `clock_running` says so (format.js elapsedNow),
// woken when its second turns (an idle page's one wake-up a second; 5 ms late, as timers may be).

import { clock, elapsedNow } from '../../format.js';

export class GameClock {
  /**
   * @param {HTMLElement} el where the time is written
   * @param {() => GameView} view the view in hand
   */
  constructor(el, view) {
    this.el = el;
    this.view = view;
    this.receivedAt = performance.now();
    this.running = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  // A new view arrived now.
  received() { this.receivedAt = performance.now(); }

  // Written when it changed (paint.js's paintText, not imported: one module more on the wire).
  // Each view comes with a tick (game.js).
  tick() {
    const v = this.view(), ms = elapsedNow(v, this.receivedAt, performance.now()), text = clock(ms);
    if (this.el.textContent !== text) this.el.textContent = text;
    clearTimeout(this.timer);
    if (this.running && v?.clock_running && !v.paused) this.timer = setTimeout(() => this.tick(), 1005 - ms % 1000);
  }

  start() { this.running = true; this.tick(); }

  stop() { this.running = false; clearTimeout(this.timer); }
}
