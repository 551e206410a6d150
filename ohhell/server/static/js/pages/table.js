// The table page: it joins the controller (table/controller.js: the server's messages, the
// game's state, what was sent) to the socket (net/socket.js) and to the view (table/view.js:
// Preact components drawn from props). Every update goes through `update()`, which lets Preact
// patch the page (only what changed: focus, open menus and scroll survive; the seats, the hand
// and the trick are drawn again only when their picture changed) and reads no layout: the cards'
// flights from their old places to their new ones are planned in the next frame (frame.js).
import { html, render } from "../html.js";
import { t, language } from "../i18n.js";
import { api } from "../net/api.js";
import { TableSocket } from "../net/socket.js";
import { seatsStored, storeSeat, savedName, saveName, getPrefs, onPrefs } from "../storage.js";
import { FramePlanner } from "../frame.js";
import { play as playSound } from "../sound.js";
import { turnChanged, setBaseTitle } from "../notify.js";
import { TableController } from "../table/controller.js";
import { TableView, Loading } from "../table/view.js";
import { JoinForm, NoTable } from "../table/join.js";

export class TablePage {
  constructor(code, root, go) {
    this.code = code;
    this.root = root;
    this.go = go;
    this.ctl = null;
    this.socket = null;
    // What only this view knows: the last trick shown, the bid being changed, the hand's room.
    this.local = { peek: false, changing: false, handWidth: 0, cardWidth: 64 };
    this.on = this.callbacks();
    // A setting switched on in the middle of a bid applies to it (the "teach" line asks now).
    this.unsubscribe = onPrefs(() => { if (this.ctl) this.ctl.askWhatTheBotWouldBid(); this.update(); });
  }

  stop() {
    if (this.ctl) this.ctl.stop();
    if (this.socket) this.socket.stop();
    if (this.resizer) this.resizer.disconnect();
    if (this.planner) this.planner.stop();
    this.unsubscribe();
    this.stopped = true;
    turnChanged(false, "");
  }

  async show() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (fragment.get("seat")) {
      storeSeat(this.code, { token: fragment.get("seat"), seat: null, name: "" });
      history.replaceState(null, "", location.pathname);
    }
    let summary;
    try {
      summary = await api("GET", `/api/tables/${this.code}`);
    } catch (error) {
      render(html`<${NoTable} onLobby=${() => this.go("/")} />`, this.root);
      return;
    }
    const mine = seatsStored()[this.code];
    if (summary.next && summary.next !== this.code) {
      // An old link of a table that played a rematch: the newest game, with the same seat.
      if (mine) storeSeat(summary.next, mine);
      this.go(`/t/${summary.next}${location.search}`, true);
      return;
    }
    this.summary = summary;
    const watching = new URLSearchParams(location.search).has("watch");
    if (!mine && !watching && summary.status === "waiting" && summary.open_seats.length) {
      render(html`<${JoinForm} code=${this.code} seats=${summary.seats} name=${savedName()} onJoin=${(name) => this.join(name)} />`, this.root);
      return;
    }
    const token = mine && !watching ? mine.token : null;
    const hello = { table: this.code, token, lang: language() };
    if (!token && savedName()) hello.name = savedName();
    this.ctl = new TableController({
      code: this.code,
      token,
      send: (message) => (this.socket ? this.socket.send(message) : 0),
      connection: () => (this.socket ? this.socket.connections : 0),
      changed: () => this.update(),
      moved: (from, to) => this.moved(from, to),
      seated: (seat) => {
        const stored = seatsStored()[this.ctl.code];
        if (stored && stored.seat !== seat) storeSeat(this.ctl.code, { ...stored, seat });
      },
      sound: playSound,
      turn: (mine) => turnChanged(mine, t("your_turn")),
      prefs: getPrefs,
    });
    this.socket = new TableSocket(hello, { message: (m) => this.ctl.receive(m), status: (st) => this.ctl.connectionStatus(st) });
  }

  async join(name) {
    saveName(name);
    const result = await api("POST", `/api/tables/${this.code}/join`, { name });
    storeSeat(this.code, { token: result.token, seat: result.seat, name });
    this.go(location.pathname, true);
  }

  /** A rematch moved the game: the seat, the address and the socket go with it. */
  moved(from, to) {
    const mine = seatsStored()[from];
    if (mine) storeSeat(to, mine);
    this.code = to;
    history.replaceState(null, "", `/t/${to}${location.search}`);
    this.socket.moveTo(to);
  }

  /** What the view's clicks do: made once, so that the components get the same functions each time. */
  callbacks() {
    const ctl = () => this.ctl;
    return {
      act: (action) => { this.local.changing = false; ctl().act(action); },
      play: (card) => this.on.act({ type: "play", card }),
      hint: () => ctl().askHint(),
      back: () => ctl().back(),
      start: () => ctl().start(),
      chat: (text) => ctl().chat(text),
      react: (reaction) => ctl().react(reaction),
      rematch: () => ctl().rematch(),
      acceptRematch: () => ctl().acceptRematch(),
      panel: (name, fromTab) => this.togglePanel(name, fromTab),
      peek: () => { this.local.peek = !this.local.peek; this.update(); },
      changing: () => { this.local.changing = !this.local.changing; this.update(); },
      dismissSummary: () => ctl().dismissSummary(),
      dismissNotice: () => ctl().dismissNotice(),
      collected: (id) => ctl().collected(id),
      warn: () => playSound("warn"),
      newTable: () => this.go("/"),
      history: () => this.go(`/t/${this.code}/history`),
    };
  }

  /** Open or close a panel, then put the focus in it (its first control, else its close button). */
  togglePanel(name, fromTab = false) {
    this.ctl.togglePanel(name, fromTab);
    if (this.ctl.ui.panel) {
      const first = this.root.querySelector(".drawer [data-autofocus], .drawer .drawer-close");
      if (first) first.focus();
    }
  }

  /** The hand's width and the card's (the stylesheet's --card-w) decide the fan: watched. */
  measure(zone) {
    if (!zone || this.resizer) return;
    this.resizer = new ResizeObserver(() => {
      const width = zone.clientWidth;
      const cardWidth = parseFloat(getComputedStyle(zone).getPropertyValue("--card-w")) || 64;
      if (!zone.isConnected) { this.resizer.disconnect(); this.resizer = null; return; }
      if (width !== this.local.handWidth || cardWidth !== this.local.cardWidth) {
        this.local.handWidth = width;
        this.local.cardWidth = cardWidth;
        this.update();
      }
    });
    this.resizer.observe(zone);
  }

  update() {
    if (this.stopped || !this.ctl) return;
    const started = performance.now();
    render(this.view(), this.root);
    if (!this.planner) this.planner = new FramePlanner(this.root);
    this.planner.changed();
    // benchmarks/ui_latency.py asks for the time each update takes (off otherwise).
    const s = this.ctl.s;
    if (window.__ohhellUpdates) {
      window.__ohhellUpdates.push({ ms: performance.now() - started, cards: s && s.hand ? s.hand.length : 0,
        at: performance.timeOrigin + started });
    }
    if (!this.resizer) this.measure(this.root.querySelector(".hand"));
  }

  view() {
    const ctl = this.ctl, s = ctl.s;
    if (!s || !s.table) return html`<${Loading} lost=${ctl.status === "lost"} />`;
    setBaseTitle(`${t("table_code", { code: ctl.code })} · ${t("app_title")}`);
    const table = {
      s, ui: ctl.ui, code: ctl.code, token: ctl.token, status: ctl.status, welcome: ctl.welcome, deadlines: ctl.deadlines,
      busy: !!ctl.pendingAction, ownRandomness: ctl.ownRandomness(), reactionOf: (seat) => ctl.reactionOf(seat),
    };
    return html`<${TableView} table=${table} names=${ctl.names(this.summary)} local=${this.local} on=${this.on} />`;
  }
}
