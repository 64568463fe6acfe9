// The move protocol of one game, without any I/O: seq numbering, one move in flight at a time,
// queued moves while a reply (or a connection) is awaited, retries after a dropped connection,
// and resync on a seq mismatch. Every server message carries the whole view, so a newer view
// always wins and an older one is dropped.

export class MoveQueue {
  // transmit(move) sends {seq, action, position?}; the answer comes back through receive().
  constructor({ transmit, onView = () => {}, onRefused = () => {}, onError = () => {} }) {
    this.transmit = transmit;
    this.onView = onView;
    this.onRefused = onRefused;
    this.onError = onError;
    this.view = null;
    this.inflight = null;
    this.queue = [];
    this.online = true;
  }

  get busy() { return Boolean(this.inflight) || this.queue.length > 0; }

  // A view from anywhere (page load, REST, socket). Returns true when it was taken.
  accept(game, extra = {}) {
    if (!game) return false;
    if (this.view && this.view.id === game.id && game.seq < this.view.seq) return false;
    this.view = game;
    if (this.inflight && game.seq > this.inflight.seq) this.inflight = null;
    this.onView(game, extra);
    return true;
  }

  push(action, position) {
    const move = { action };
    if (position !== undefined && position !== null) move.position = position;
    this.queue.push(move);
    this.pump();
  }

  pump() {
    if (this.inflight || !this.online || !this.view || !this.queue.length) return;
    const move = this.queue.shift();
    this.inflight = { seq: this.view.seq, ...move };
    this.transmit(this.inflight);
  }

  receive(msg) {
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'view') {
      this.accept(msg.game, { hint: msg.hint, replayed: msg.replayed });
    } else if (msg.type === 'error') {
      const move = this.inflight;
      if (msg.code === 'seq_mismatch' && msg.game) {
        // The server's view is the truth: drop what was built on the old one.
        this.inflight = null;
        this.queue = [];
        this.view = null;
        this.accept(msg.game, { resynced: true });
      } else if (move) {
        this.inflight = null;
        if (msg.game) this.accept(msg.game);
        if (msg.code === 'illegal_move') this.onRefused(move, msg.detail);
        else this.onError(msg.detail || 'error', move);
      } else {
        this.onError(msg.detail || 'error', null);
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
