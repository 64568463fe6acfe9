// The player's own table in a contest (a race, an arena): the game's view and layout read once,
// then a ContestTable (game.js: the shared table and play's move path, nothing a contest refuses)
// in the page's place for it. The page keeps the bar, the clock and the end.

import { api, layoutNamed } from '../../api.js';
import { ContestTable } from './game.js';

export class RaceTable {
  /** @param {import('./game.js').ContestHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** @type {string | null} the game the table shows */
    this.playFor = null;
    /** @type {ContestTable | null} */
    this.game = null;
    this.gone = false;
    /** @type {ResizeObserver | null} */
    this.sizes = null;
  }

  /** Shows `game` in `into` (once: the same game again changes nothing). @param {string} game @param {HTMLElement} into */
  async show(game, into) {
    if (this.playFor === game) return;
    this.playFor = game;
    try {
      await this.mount(game, into);
    } catch { this.playFor = null; }
  }

  /** @param {string} game @param {HTMLElement} into */
  async mount(game, into) {
    const view = /** @type {GameView} */ (await api(`games/${game}`));
    const layout = await layoutNamed(view.layout);
    if (this.gone) return;
    this.drop();
    this.game = new ContestTable(into, layout, view, this.hooks);
    // The table takes its place's size: again whenever that changes (the strip, the bar, a turn).
    const table = this.game.table;
    this.sizes = new ResizeObserver(() => table.place());
    this.sizes.observe(into);
  }

  /** The player's deal has no move left. */
  stuck() { return Boolean(this.game && this.game.view.status === 'stuck'); }

  drop() {
    if (this.sizes) this.sizes.disconnect();
    if (this.game) this.game.close();
    this.game = null;
  }

  close() {
    this.gone = true;
    this.drop();
  }
}
