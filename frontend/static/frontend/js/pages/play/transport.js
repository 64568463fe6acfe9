// How a move travels: over the game socket when it is up, else by REST (POST
// /api/games/{id}/moves, the same answers, handed to the move queue as socket messages). A move
// whose socket closed before its answer came is sent again by REST with the same seq.

import { api, ApiError } from '../../api.js';

const REST_RETRY_MS = 1000;

export class MoveTransport {
  /**
   * @param {object} game
   * @param {() => string} game.gameId the game the moves are for
   * @param {(msg: ServerMessage) => void} game.receive where answers go (the move queue)
   * @param {() => SentMove | null} game.inflight the move whose answer is awaited
   */
  constructor({ gameId, receive, inflight }) {
    this.gameId = gameId;
    this.receive = receive;
    this.inflight = inflight;
    /** @type {LiveSocket | null} */
    this.socket = null;
    /** @type {'ws' | 'rest'} how the last move went */
    this.sentVia = 'ws';
  }

  /** @param {LiveSocket} socket */
  use(socket) { this.socket = socket; }

  /** @param {SentMove} move */
  send(move) {
    if (this.socket && this.socket.send(move)) {
      this.sentVia = 'ws';
      return;
    }
    this.sentVia = 'rest';
    this.rest(move);
  }

  /** @param {SentMove} move */
  async rest(move) {
    try {
      /** @type {GameView} */
      const body = await api(`games/${this.gameId()}/moves`, { method: 'POST', body: move });
      this.receive({ type: 'view', game: body, hint: body.hint, replayed: body.replayed });
    } catch (e) {
      // A refusal with its wait (a 429, a 503 with a code): the wait travels as a socket's does.
      const wait = e instanceof ApiError && e.retryAfter ? { retry_after: e.retryAfter } : {};
      if (e instanceof ApiError && e.body && e.body.code) this.receive({ type: 'error', ...e.body, code: e.body.code, ...wait });
      else if (e instanceof ApiError && e.status === 429) this.receive({ type: 'error', code: 'throttled', detail: e.message, ...wait });
      else if (e instanceof ApiError && e.status < 500) this.receive({ type: 'error', code: 'invalid', detail: e.message });
      // No answer (network, a 5xx): the same move again while it is still the one awaited.
      else setTimeout(() => { if (this.inflight() === move) this.send(move); }, REST_RETRY_MS);
    }
  }

  // The socket closed: the answer to a move sent on it may be lost, so it goes again by REST.
  socketClosed() {
    const move = this.inflight();
    if (move && this.sentVia === 'ws') this.send(move);
  }
}
