// The move protocol of one game, without any I/O: seq numbering, one move in flight at a time,
// queued moves while a reply (or a connection) is awaited, retries after a dropped connection,
// and resync on a seq mismatch. Every server message carries the whole view, so a newer view
// always wins and an older one is dropped.
//
// A new deal can be asked for on the same connection ("new"): the answer is "started" with the
// new game's view, after which the connection belongs to the new game, or an error. It is asked
// only when no move is in flight, so an error that comes back meanwhile is its answer.
//
// A contest's game (a race, an arena) takes no move once the contest's time is up: the server
// answers "time_up", and from then on moves are not sent (resigning still is).

export class MoveQueue {
  // transmit(move) sends {seq, action, position?}; the answer comes back through receive().
  // onNewError(detail, msg): the server refused a new deal; the current game goes on.
  /**
   * @param {object} handlers
   * @param {(move: SentMove) => void} handlers.transmit
   * @param {(view: GameView, extra: ViewExtra) => void} [handlers.onView]
   * @param {(move: SentMove, detail: string | undefined) => void} [handlers.onRefused]
   * @param {(detail: string, move: SentMove | null, msg: ErrorMessage) => void} [handlers.onError]
   * @param {(detail: string, msg: ErrorMessage) => void} [handlers.onNewError]
   * @param {() => void} [handlers.onTimeUp]
   */
  constructor({ transmit, onView = () => {}, onRefused = () => {}, onError = () => {}, onNewError = () => {}, onTimeUp = () => {} }) {
    this.transmit = transmit;
    this.onView = onView;
    this.onRefused = onRefused;
    this.onError = onError;
    this.onNewError = onNewError;
    this.onTimeUp = onTimeUp;
    this.timeUp = false;
    /** @type {GameView | null} */
    this.view = null;
    /** @type {SentMove | null} */
    this.inflight = null;
    /** @type {Move[]} */
    this.queue = [];
    this.online = true;
    this.starting = false;
  }

  get busy() { return Boolean(this.inflight) || this.queue.length > 0; }

  // A view from anywhere (page load, REST, socket). Returns true when it was taken. A view of
  // another game is taken whatever its seq: the moves made on the old game are dropped.
  /** @param {GameView | null | undefined} game @param {ViewExtra} [extra] */
  accept(game, extra = {}) {
    if (!game) return false;
    const same = this.view !== null && this.view.id === game.id;
    if (same && this.view && game.seq < this.view.seq) return false;
    if (this.view && !same) {
      this.inflight = null;
      this.queue = [];
      this.starting = false;
      this.timeUp = false;
    }
    this.view = game;
    if (this.inflight && game.seq > this.inflight.seq) this.inflight = null;
    this.onView(game, extra);
    return true;
  }

  /** @param {Action} action @param {number | null} [position] */
  push(action, position) {
    if (this.timeUp && action !== 'resign') { this.onTimeUp(); return; }
    /** @type {Move} */
    const move = { action };
    if (position !== undefined && position !== null) move.position = position;
    this.queue.push(move);
    this.pump();
  }

  pump() {
    if (this.inflight || this.starting || !this.online || !this.view || !this.queue.length) return;
    const move = /** @type {Move} */ (this.queue.shift());
    this.inflight = { seq: this.view.seq, ...move };
    this.transmit(this.inflight);
  }

  // The page is about to send {"type": "new", ...}. False (send nothing) when a move is in
  // flight or queued, a new deal is already awaited, or there is no game yet.
  beginNew() {
    if (this.busy || this.starting || !this.view) return false;
    this.starting = true;
    return true;
  }

  // No answer came in time, or the connection dropped: stop waiting (the page starts the deal
  // another way). Moves asked for meanwhile were made on a deal being left: they go too.
  abandonNew() {
    this.starting = false;
    this.queue = [];
  }

  // Word about a game this page has left (a late broadcast of the old game) is dropped.
  /** @param {GameView} game */
  mine(game) { return !this.view || game.id === this.view.id; }

  /** @param {ServerMessage | null | undefined} msg */
  receive(msg) {
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'started') {
      // The connection now belongs to the new game, asked for or not (an answer that came after
      // the page stopped waiting still says which game this connection plays).
      this.starting = false;
      if (msg.game) this.accept(msg.game, { started: true });
    } else if (msg.type === 'view') {
      if (msg.game && this.mine(msg.game)) this.accept(msg.game, { hint: msg.hint, replayed: msg.replayed });
    } else if (msg.type === 'error') {
      const move = this.inflight;
      const game = msg.game && this.mine(msg.game) ? msg.game : null;
      if (msg.code === 'time_up') {
        // Nothing queued can be played any more.
        this.inflight = null;
        this.queue = this.queue.filter((m) => m.action === 'resign');
        this.timeUp = true;
        if (game) this.accept(game);
        this.onTimeUp();
      } else if (msg.code === 'seq_mismatch' && game) {
        // The server's view is the truth: drop what was built on the old one.
        this.inflight = null;
        this.queue = [];
        this.view = null;
        this.accept(game, { resynced: true });
      } else if (move) {
        this.inflight = null;
        if (game) this.accept(game);
        if (msg.code === 'illegal_move') this.onRefused(move, msg.detail);
        else this.onError(msg.detail || 'error', move, msg);
      } else if (this.starting) {
        // The answer to "new": refused, the current game goes on.
        this.starting = false;
        if (game) this.accept(game);
        this.onNewError(msg.detail || 'Could not start the deal', msg);
      } else {
        this.onError(msg.detail || 'error', null, msg);
      }
    }
    this.pump();
  }

  // The connection dropped: nothing is sent until it is back.
  offline() { this.online = false; }

  // Back online: the move whose answer was lost goes again with the same seq (the server
  // answers a retry with the same view, marked replayed), then the queue goes on.
  reconnected() {
    this.online = true;
    if (this.inflight) this.transmit(this.inflight);
    else this.pump();
  }
}
