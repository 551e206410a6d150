// One WebSocket to a table (protocol ohhell-ws/1): hello with the seat's token, reconnection
// with growing pauses, and every message handed to the page. The socket knows nothing of the
// page; the page knows nothing of frames.
//
// A server process may be stopped (not dead) with its sockets open: the connection then looks
// fine and nothing ever comes back, and the browser would not notice for minutes. So the socket
// pings every few seconds and gives the connection up when nothing at all has come back within
// ANSWER_MS of a ping (or of the hello); the new connection goes through the load balancer to a
// process that answers.
const PAUSES_MS = [300, 700, 1500, 3000, 5000];
const PING_EVERY_MS = 4000;
const ANSWER_MS = 3000;
const OPEN_WITHIN_MS = 5000; // a handshake that hangs is given up too
const TICK_MS = 500;

export class TableSocket {
  /**
   * @param {{table: string, token: string|null, lang: string, name?: string}} hello
   * @param {{message: (m: object) => void, status: (s: "connecting"|"open"|"lost") => void}} on
   */
  constructor(hello, on) {
    this.hello = hello;
    this.on = on;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.nextId = 0;
    this.retry = null;
    this.connections = 0; // how many connections were opened: the page tells them apart
    this.connect();
    this.watch = setInterval(() => this.check(), TICK_MS);
  }

  connect() {
    clearTimeout(this.retry);
    this.retry = null;
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // The table's code in the URL: a load balancer hashes it to the process that owns the table
    // (docs/architecture.md, "Table affinity"); the hello still names the table.
    const ws = new WebSocket(`${scheme}://${location.host}/ws?table=${encodeURIComponent(this.hello.table)}`);
    this.ws = ws;
    this.startedAt = Date.now();
    this.awaiting = null; // when the oldest unanswered ping (or the hello) was sent
    this.on.status("connecting");
    ws.onopen = () => {
      this.attempt = 0;
      this.connections += 1;
      ws.send(JSON.stringify({ type: "hello", ...this.hello }));
      this.awaiting = Date.now();
      this.lastPing = Date.now();
      this.on.status("open");
    };
    ws.onmessage = (event) => {
      this.awaiting = null; // anything at all says that the process is alive
      this.on.message(JSON.parse(event.data));
    };
    ws.onclose = () => {
      if (this.stopped || this.ws !== ws) return;
      this.lost();
    };
  }

  /** The connection is gone (closed, or stuck): forget it and try again after a pause. */
  lost() {
    const old = this.ws;
    this.ws = null;
    if (old) {
      // A stuck process never answers the close handshake: stop listening to it at once.
      old.onopen = old.onmessage = old.onclose = null;
      try { old.close(); } catch (error) { /* already closed */ }
    }
    this.on.status("lost");
    const pause = PAUSES_MS[Math.min(this.attempt++, PAUSES_MS.length - 1)];
    this.retry = setTimeout(() => this.connect(), pause);
  }

  /** Every tick: a ping when one is due; a connection that does not answer is given up. */
  check() {
    const ws = this.ws;
    if (this.stopped || !ws) return;
    const now = Date.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.startedAt > OPEN_WITHIN_MS) this.lost();
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    if (this.awaiting !== null && now - this.awaiting > ANSWER_MS) { this.lost(); return; }
    if (now - this.lastPing >= PING_EVERY_MS) {
      this.lastPing = now;
      if (this.awaiting === null) this.awaiting = now;
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  /** Say hello to another table with the same token (after a rematch moved the game). */
  moveTo(table) {
    this.hello = { ...this.hello, table };
    const old = this.ws;
    this.ws = null;
    if (old) { old.onopen = old.onmessage = old.onclose = null; old.close(); }
    this.connect();
  }

  /** Send a message; returns its id (answers and errors repeat it), or 0 when not connected. */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return 0;
    this.nextId += 1;
    this.ws.send(JSON.stringify({ ...message, id: this.nextId }));
    return this.nextId;
  }

  stop() {
    this.stopped = true;
    clearInterval(this.watch);
    clearTimeout(this.retry);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
  }
}
