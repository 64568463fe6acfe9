// A WebSocket that reconnects by itself (backing off up to 5 s) and says when it is up or down.

const STAYED_MS = 10000;

export class LiveSocket {
  /**
   * @param {string} path
   * @param {object} handlers
   * @param {(msg: any) => void} handlers.onMessage each message parsed (the receiver checks it)
   * @param {() => void} [handlers.onOpen]
   * @param {(code: number) => void} [handlers.onClose]
   */
  constructor(path, { onMessage, onOpen = () => {}, onClose = () => {} }) {
    this.path = path;
    this.url = '';
    this.retarget(path);
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.delay = 250;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.connect();
  }

  // Where the next connection goes (a new deal started over this one belongs to a new game): the
  // connection that is up stays up.
  /** @param {string} path */
  retarget(path) {
    this.path = path;
    this.url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + path;
  }

  get open() { return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN); }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    let openedAt = 0;
    ws.onopen = () => { openedAt = Date.now(); this.onOpen(); };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.onClose(e.code);
      // 4401/4404: not signed in or not this player's game; 4409: the game (or the account, or
      // the network) has all the sockets it may have open. Do not hammer the server.
      if (this.closed || e.code === 4401 || e.code === 4404 || e.code === 4409) return;
      // The wait starts again from 250 ms only after a connection that lasted: a server that
      // accepts and closes at once (1013, too many opens) is knocked on less and less often.
      if (openedAt && Date.now() - openedAt >= STAYED_MS) this.delay = 250;
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
    ws.onerror = () => {};
  }

  /** @param {object} obj @returns {boolean} sent (the socket is up) */
  send(obj) {
    if (!this.ws || !this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  // For tests and a lost network: drop the connection and let it come back by itself.
  drop() { if (this.ws) this.ws.close(); }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
