// The player's own table in a race: the play page itself, mounted through its exported `mount`
// with the race's game handed in (one table, one move path, nothing of it copied).

import { api } from '../../api.js';

export class RaceTable {
  /** @param {AppContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {string | null} the game the mounted play page shows */
    this.playFor = null;
    /** @type {(() => void) | null} */
    this.cleanup = null;
    this.gone = false;
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
    if (this.gone) return;
    const el = document.createElement('div');
    el.className = 'page page-play';
    into.replaceChildren(el);
    const play = await import('../play.js');
    /** @type {AppContext} */
    const playCtx = {
      ...this.ctx,
      hasGame: true,
      takeGame: () => view,
      // A race's game is the race's: a new deal is started from the lobby, not from here.
      startGame: async () => { location.hash = '#/races'; },
      openGame: () => {},
    };
    this.cleanup = (await play.mount(el, playCtx, [])) || null;
    if (this.gone && this.cleanup) this.cleanup();
  }

  close() {
    this.gone = true;
    if (this.cleanup) this.cleanup();
  }
}
