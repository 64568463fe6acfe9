// A contest's own table (a race's, an arena's): the shared Table (../../table.js), play's move
// queue (../../protocol.js) and its transport (../play/transport.js: the game socket, REST when it
// is down), with nothing a contest refuses. No undo, hint, start again, pause or new deal, no solo
// game bar, no solo dialog: the contest's page owns the bar (its title, its one clock) and the end
// (its own results). Moves are judged first as the play page judges them (../play/moves.js), and
// the keys are the play page's (../play/controls.js keyCommand refuses a contest's).

import { LiveSocket } from '../../socket.js';
import { MoveQueue } from '../../protocol.js';
import { Table } from '../../table.js';
import { bindKeys } from '../../input.js';
import { _ } from '../../i18n.js';
import { contestMoveText } from '../races/words.js';
import * as sound from '../../sound.js';
import { MoveTransport } from '../play/transport.js';
import { keyCommand } from '../play/controls.js';
import { cardVerdict, actionVerdict, over } from '../play/moves.js';
import { feedback } from '../play/feedback.js';

/**
 * @typedef {object} ContestHooks
 * @property {(v: GameView) => void} onView each view taken (the page's bar, its end)
 * @property {(text: string) => void} say for the screen reader (and, when `notice`, on screen)
 */

export class ContestTable {
  /**
   * @param {HTMLElement} wrap where the table goes (it takes that element's size)
   * @param {Layout} layout the game's
   * @param {GameView} view the game's first view
   * @param {ContestHooks} hooks
   */
  constructor(wrap, layout, view, hooks) {
    this.view = view;
    this.hooks = hooks;
    this.gone = false;
    /** @type {Point | null} where a card dragged to the waste was let go */
    this.dropFrom = null;
    this.table = new Table(wrap, layout, {
      onCard: (p, opts = {}) => this.playCard(p, opts),
      onStock: () => this.act('draw'),
    });
    const transport = new MoveTransport({ gameId: () => this.view.id, receive: (m) => this.queue.receive(m), inflight: () => this.queue.inflight });
    this.queue = new MoveQueue({
      transmit: (move) => transport.send(move),
      onView: (v, extra) => this.show(v, extra),
      onRefused: (move) => this.shake(move.action === 'play' && move.position !== undefined ? move.position : 'stock', _('That move is not allowed')),
      onError: (_detail, _move, msg) => hooks.say(contestMoveText(msg)),
      onTimeUp: () => hooks.say(_('Time is up: no more moves count in this contest.')),
    });
    this.socket = new LiveSocket(`/ws/games/${view.id}/`, {
      onMessage: (m) => this.queue.receive(m),
      onClose: () => transport.socketClosed(),
    });
    transport.use(this.socket);
    this.unbind = bindKeys((action) => this.key(action));
    // For the browser tests, as the play page gives them (tests/frontend/helpers.py).
    window.__tpGame = { drop: () => this.socket.drop(), view: () => this.view, socketPath: () => this.socket.path, patience: () => {} };
    this.queue.accept(view);
    this.table.roving(true);
  }

  /** @param {GameView} v @param {ViewExtra} [extra] */
  show(v, extra = {}) {
    if (this.gone) return;
    const prev = this.view;
    this.view = v;
    this.table.render(v, { dropFrom: this.dropFrom });
    this.dropFrom = null;
    const said = feedback(prev, v, extra);
    if (said.sound) sound.play(said.sound);
    if (said.say) this.hooks.say(said.say);
    if (v.status === 'won' && prev.status !== 'won') {
      sound.play('win');
      this.table.bounce();
    }
    this.hooks.onView(v);
  }

  /** @param {string} action a key's (input.js KEYS) */
  key(action) {
    const c = keyCommand(action, this.table.focusId, this.view);
    if (!c) return;
    if ('act' in c) this.act(c.act);
    else if ('move' in c) this.table.move(c.move);
    else if ('play' in c) this.playCard(c.play);
  }

  /** @param {number} p @param {{dropFrom?: Point | null}} [opts] */
  playCard(p, opts = {}) {
    const verdict = cardVerdict(this.view, p, this.queue);
    if (verdict.kind === 'refuse') { this.shake(verdict.shake, verdict.say); return; }
    if (verdict.kind !== 'send') return;
    this.dropFrom = opts.dropFrom || null;
    this.queue.push('play', p);
  }

  /** @param {Action} action only what a contest takes: draw, resign */
  act(action) {
    const verdict = actionVerdict(this.view, action, this.queue);
    if (verdict.kind === 'refuse') this.shake(verdict.shake, verdict.say);
    else if (verdict.kind === 'send') this.queue.push(action);
  }

  // No more moves: the player ends their deal (it counts as lost; the race places them).
  endDeal() { if (!over(this.view)) this.queue.push('resign'); }

  /** @param {PlaceId | null} id @param {string} say */
  shake(id, say) {
    if (id !== null) {
      this.table.shake(id);
      sound.play('shake');
    }
    this.hooks.say(say);
  }

  // The page is left.
  close() {
    this.gone = true;
    this.unbind();
    this.socket.close();
    this.table.destroy();
    delete window.__tpGame;
  }
}
