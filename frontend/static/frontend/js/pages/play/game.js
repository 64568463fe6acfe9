// The game on the page: the view in hand and what a new one does (the table, the game bar, the
// clock, sounds and words, the menu, No more moves and the results), a new deal that the socket
// now plays, and the player's moves, judged at once where the view says enough (moves.js), else
// queued for the server.

import { api } from '../../api.js';
import { closeDialog, dialogOpen } from '../../dialog.js';
import { _, serverText } from '../../i18n.js';
import { showScores } from './screen.js';
import { feedback } from './feedback.js';
import { actionVerdict, cardVerdict } from './moves.js';
import { refusalWords } from '../../refusals.js';

// Sounds are off until the menu turns them on: their module comes with the first one.
const sound = {
  /** @param {SoundName} name */
  play: (name) => { import('../../sound.js').then((s) => s.play(name), () => {}); },
};

export class Game {
  /** @param {GameParts} parts */
  constructor({ root, ctx, layout, view, table, queue, clock, newDeal, socket, dialogs }) {
    this.root = root;
    this.ctx = ctx;
    this.layout = layout;
    this.view = view;
    this.table = table;
    this.queue = queue;
    this.clock = clock;
    this.newDeal = newDeal;
    this.socket = socket;
    this.dialogs = dialogs;
    this.gone = false; // the page was left
    this.finishedShown = false;
    /** @type {string | null} */
    this.menuFor = null; // test_e2e_pause_menu.py
    /** @type {Point | null} where a card dragged to the waste was let go */
    this.dropFrom = null;
  }

  /** @param {string} text for the screen reader's live region */
  announce(text) {
    const el = /** @type {HTMLElement} */ (this.root.querySelector('[data-testid=announce]'));
    el.textContent = text;
  }

  // ------------------------------------------------------------ a view arrives (the move queue)

  /**
   * @param {GameView} v
   * @param {ViewExtra} [extra]
   */
  show(v, extra = {}) {
    if (this.gone) return;
    if (extra.started && !this.startedHere(v)) return;
    const prev = this.view;
    this.view = v;
    this.clock.received();
    this.table.render(v, { dropFrom: this.dropFrom });
    this.dropFrom = null;
    showScores(this.root, v);
    this.clock.tick();
    const said = feedback(prev, v, extra);
    if (said.sound) sound.play(said.sound);
    if (said.glow !== undefined) this.table.hint(said.glow);
    if (said.say) this.announce(said.say);
    if (v.status === 'won' || v.status === 'lost') this.finish(v);
    else if (v.paused) {
      if (this.menuFor !== v.id + v.seq || extra.resynced) this.dialogs().pauseMenu();
      this.menuFor = v.id + v.seq;
    }
    else if (v.status === 'stuck') this.dialogs().stuckDialog();
    else if (dialogOpen('pause') || dialogOpen('stuck')) closeDialog();
  }

  // The socket now plays a new game (its view is `v`). On this table's layout the page carries
  // on with it in place; on another layout a page is built for it (its socket opens to the new
  // game, this one closes). True when this page shows it.
  /** @param {GameView} v */
  startedHere(v) {
    this.newDeal.stopWaiting();
    if (v.layout !== this.layout.name) {
      this.ctx.openGame(v);
      return false;
    }
    this.socket().retarget(`/ws/games/${v.id}/`);
    this.ctx.hasGame = true;
    this.ctx.notice('');
    this.finishedShown = false;
    this.clock.start();
    closeDialog();
    this.announce(_('New deal'));
    return true;
  }

  /** @param {GameView} v a won or lost game's view */
  async finish(v) {
    if (this.finishedShown) return;
    this.finishedShown = true;
    this.ctx.hasGame = false;
    this.clock.stop();
    this.clock.tick();
    // A new deal started meanwhile (N during the bounce) has the table now.
    const over = () => this.gone || this.view.id !== v.id;
    if (v.status === 'won') {
      sound.play('win');
      this.announce(_('You cleared the peaks!'));
      await this.table.bounce();
      if (over()) return;
    }
    /** @type {Stats | null} */
    let stats = (v.result && v.result.stats) || null;
    if (!stats) {
      try { stats = (await api('me/stats')).overall; } catch { stats = null; }
      if (over()) return;
    }
    this.dialogs().results(v, stats);
  }

  // ------------------------------------------------------------ what the server refused

  /**
   * @param {SentMove} move
   * @param {string | undefined} detail
   */
  refused(move, detail) {
    if (move.action === 'play' && move.position !== undefined) this.table.shake(move.position);
    else if (move.action === 'draw') this.table.shake('stock');
    sound.play('shake');
    this.announce(serverText(detail, _('That move is not allowed')));
  }

  /**
   * The server took no move: a refusal with a wait (too many hints, the solver busy, too many
   * moves) is said on screen with it, counted down; a refused hint's old glow goes.
   * @param {string} detail
   * @param {SentMove | null} [move]
   * @param {ErrorMessage} [msg]
   */
  failed(detail, move = null, msg = undefined) {
    if (move && move.action === 'hint') this.table.hint(null);
    if (this.sayWait(move && move.action === 'hint' ? 'hint' : 'move', msg)) return;
    this.announce(serverText(detail, _('The server could not take that move.')));
  }

  /**
   * A refusal that says how long to wait, on screen (the notice, counted down) and to the screen
   * reader. False when `msg` gives no wait.
   * @param {string} what
   * @param {ErrorMessage} [msg]
   */
  sayWait(what, msg) {
    if (!msg || !msg.retry_after) return false;
    const words = refusalWords(what, msg.code, 0);
    this.ctx.noticeWait(words, msg.retry_after);
    this.announce(words(msg.retry_after));
    return true;
  }

  // The contest's time is up (a race's cap, an arena's end): its result comes on its own page.
  timeUp() {
    const text = _('Time is up: no more moves count in this contest.');
    this.ctx.notice(text);
    this.announce(text);
  }

  /** @param {string} detail @param {ErrorMessage} [msg] */
  dealRefused(detail, msg) {
    this.newDeal.stopWaiting();
    if (this.sayWait('deal', msg)) return;
    const text = serverText(detail, _('Could not start the deal.'));
    this.ctx.notice(text);
    this.announce(text);
  }

  // ------------------------------------------------------------ the player's moves

  /**
   * @param {number} p the card's position
   * @param {{dropFrom?: Point | null}} [opts] dragged and let go there
   */
  playCard(p, opts = {}) {
    const verdict = cardVerdict(this.view, p, this.queue);
    if (verdict.kind !== 'send') { this.refuse(verdict); return; }
    this.dropFrom = opts.dropFrom || null;
    this.queue.push('play', p);
  }

  /** @param {Action} action */
  act(action) {
    const verdict = actionVerdict(this.view, action, this.queue);
    if (verdict.kind === 'ask') {
      if (verdict.first === 'hint') this.dialogs().hintFirst();
      else this.dialogs().restartFirst();
    } else if (verdict.kind === 'send') this.queue.push(action);
    else this.refuse(verdict);
  }

  /** @param {Verdict} verdict */
  refuse(verdict) {
    if (verdict.kind !== 'refuse') return;
    if (verdict.shake !== null) {
      this.table.shake(verdict.shake);
      sound.play('shake');
    }
    this.announce(verdict.say);
  }

  focusTable() {
    if (!this.gone) this.table.roving(true);
  }

  // The page is left.
  close() {
    this.gone = true;
    this.clock.stop();
    this.newDeal.stopWaiting();
  }
}
