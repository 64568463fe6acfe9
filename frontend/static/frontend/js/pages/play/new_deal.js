// A new deal asked for on the game's own socket ({"type": "new", ...}; the answer is "started"
// with the new game's view, or an error). REST is the way round: when the socket is down, a move
// is awaited, or no answer comes in time (starting again resigns whatever is unfinished, so a
// second start is harmless).

// How long a new deal asked for over the socket may take before it is started by REST instead.
export const NEW_DEAL_WAIT_MS = 4000;

export class NewDealRequest {
  /**
   * @param {object} parts
   * @param {MoveQueue} parts.queue
   * @param {() => LiveSocket} parts.socket
   * @param {(body: DealRequest) => Promise<void>} parts.startGame the REST way (app.js)
   * @param {() => boolean} parts.gone the page was left
   */
  constructor({ queue, socket, startGame, gone }) {
    this.queue = queue;
    this.socket = socket;
    this.startGame = startGame;
    this.gone = gone;
    this.waitMs = NEW_DEAL_WAIT_MS;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {DealRequest | null} what was asked */
    this.asked = null;
  }

  /** @param {DealRequest} body */
  async start(body) {
    const { queue } = this;
    if (queue.starting) return;
    const socket = this.socket();
    if (socket.open && queue.beginNew()) {
      if (socket.send({ type: 'new', ...body })) {
        this.asked = body;
        this.timer = setTimeout(() => this.byRest(), this.waitMs);
        return;
      }
      queue.abandonNew();
    }
    await this.startGame(body);
  }

  // No answer in time, or the socket closed while one was awaited: start it by REST.
  byRest() {
    this.stopWaiting();
    if (this.gone() || !this.queue.starting || !this.asked) return;
    this.queue.abandonNew();
    this.startGame(this.asked);
  }

  // The answer came (started or refused), or the page is left.
  stopWaiting() { clearTimeout(this.timer); }
}
