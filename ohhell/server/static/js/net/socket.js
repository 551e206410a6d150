// One WebSocket to a table (protocol ohhell-ws/1): hello with the seat's token, reconnection
// with growing pauses, and every message handed to the page. The socket knows nothing of the
// page; the page knows nothing of frames.
const PAUSES_MS = [300, 700, 1500, 3000, 5000];

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
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.on.status("connecting");
    ws.onopen = () => {
      this.attempt = 0;
      ws.send(JSON.stringify({ type: "hello", ...this.hello }));
      this.on.status("open");
    };
    ws.onmessage = (event) => this.on.message(JSON.parse(event.data));
    ws.onclose = () => {
      if (this.stopped || this.ws !== ws) return;
      this.on.status("lost");
      const pause = PAUSES_MS[Math.min(this.attempt++, PAUSES_MS.length - 1)];
      setTimeout(() => this.connect(), pause);
    };
  }

  /** Say hello to another table with the same token (after a rematch moved the game). */
  moveTo(table) {
    this.hello = { ...this.hello, table };
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
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
    if (this.ws) this.ws.close();
  }
}
