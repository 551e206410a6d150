// The table page: a small controller (the game state from the server, this page's own state,
// the socket) and a view drawn from them. Every update goes through `update()`, which remembers
// where the cards are, lets Preact patch the page (only what changed: focus, open menus and
// scroll survive) and then moves the cards from their old places to their new ones.
import { html, render } from "../html.js";
import { t, language, levelName } from "../i18n.js";
import { api } from "../net/api.js";
import { TableSocket } from "../net/socket.js";
import { seatsStored, storeSeat, savedName, saveName, getPrefs, onPrefs } from "../storage.js";
import { snapshot, animate } from "../anim.js";
import { play as playSound } from "../sound.js";
import { turnChanged, setBaseTitle } from "../notify.js";
import { sortHand } from "../cards.js";
import { seatsFromMe, actingSeats, isMyTurn, forbiddenBid, places, lastTrick } from "../game.js";
import { contributionToSend, contributionsAt, markRefused } from "../fair.js";
import { Seat } from "../table/seat.js";
import { Trick } from "../table/trick.js";
import { Hand } from "../table/hand.js";
import { Prompt } from "../table/prompt.js";
import { HandSummary, GameOver } from "../table/summary.js";
import { TopBar } from "../table/topbar.js";
import { Drawer } from "../table/drawer.js";
import { WaitingRoom } from "../table/waiting.js";

const REACTION_MS = 2600;
const SUMMARY_MIN_MS = 4000;
const PENDING_MS = 5000;

/** A person's name for a seat: a bot is "Bot 3" (its level is on the seat's status line). */
export function seatName(seat, index) {
  if (seat.kind === "human") return seat.name;
  if (seat.kind === "bot") return t("bot_n", { n: index + 1 });
  return t("status_open");
}

export class TablePage {
  constructor(code, root, go) {
    this.code = code;
    this.root = root;
    this.go = go;
    this.s = null; // the game as the server last described it
    this.welcome = null;
    this.socket = null;
    this.status = "connecting";
    this.ui = {
      panel: null, // "sheet" | "history" | "chat" | "rules" | "settings"
      summaryHand: null, // index of the finished hand whose summary is open
      summaryDismissed: -1,
      collecting: null, // a finished trick on its way to the winner
      collected: new Set(), // ids of tricks already gone
      peek: false,
      changing: false,
      hint: null,
      notice: "",
      chat: [],
      chatAvailable: false,
      chatError: "",
      unread: 0,
      reactions: {}, // by seat (or "spectators"): {reaction, at}
      rematch: { available: true, asked: false, error: "" },
      history: null,
      handWidth: 0,
      cardWidth: 64,
    };
    this.deadlines = {};
    this.lastTurnMine = false;
    this.pendingAction = null;
    this.sentKinds = new Map(); // message id -> what it was ("act", "chat", "rematch", …)
    this.contributed = {}; // hand -> the connection its contribution was sent on
    this.contributionIds = new Map(); // message id -> {hand, resend}
    this.kept = contributionsAt(code); // this browser's contributions at this table (fair.js)
    this.unsubscribe = onPrefs(() => this.update());
  }

  stop() {
    clearTimeout(this.summaryTimer);
    if (this.socket) this.socket.stop();
    if (this.resizer) this.resizer.disconnect();
    this.unsubscribe();
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
      render(html`<div class="panel narrow"><p class="error" role="alert">${t("bad_code")}</p>
        <p><a href="/" onClick=${(e) => { e.preventDefault(); this.go("/"); }}>${t("back_to_lobby")}</a></p></div>`, this.root);
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
      this.showJoin(summary);
      return;
    }
    this.token = mine && !watching ? mine.token : null;
    const hello = { table: this.code, token: this.token, lang: language() };
    if (!this.token && savedName()) hello.name = savedName();
    this.socket = new TableSocket(hello, { message: (m) => this.receive(m), status: (st) => this.connectionStatus(st) });
  }

  connectionStatus(status) {
    this.status = status;
    // An action sent into a connection that is gone never arrived (or its answer never will):
    // the new connection's state says where the game is, and the player may act again.
    if (status === "lost") this.pendingAction = null;
    this.update();
  }

  showJoin(summary) {
    const submit = async (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      const name = form.querySelector("#join-name").value.trim();
      const message = form.querySelector(".form-message");
      if (!name) { message.textContent = t("name_required"); return; }
      saveName(name);
      try {
        const result = await api("POST", `/api/tables/${this.code}/join`, { name });
        storeSeat(this.code, { token: result.token, seat: result.seat, name });
        this.go(location.pathname, true);
      } catch (error) { message.textContent = error.message; }
    };
    render(html`<form class="panel narrow" onSubmit=${submit}>
      <h2>${t("join_title", { code: this.code })}</h2>
      <ul class="plain seats-list">${summary.seats.map((seat, i) => html`<li>${t("seat_n", { n: i + 1 })}: ${seatName(seat, i)}
        ${seat.kind === "bot" ? html` <span class="muted">(${levelName(seat.bot)})</span>` : null}</li>`)}</ul>
      <label>${t("your_name")}<input id="join-name" maxlength="24" value=${savedName()} required autocomplete="nickname" /></label>
      <p class="error form-message" role="alert"></p>
      <div class="row"><button type="submit" class="primary" id="take-seat">${t("take_seat")}</button>
        <a class="button" href=${`/t/${this.code}?watch`} id="watch">${t("watch")}</a></div>
    </form>`, this.root);
  }

  // ------------------------------------------------------------------------ the server's messages

  send(message) { return this.socket ? this.socket.send(message) : 0; }

  act(action) {
    if (!this.s) return;
    this.ui.hint = null;
    this.ui.changing = false;
    const id = this.sendTracked("act", { type: "act", version: this.s.version, action });
    if (!id) return; // not connected: nothing was sent
    // Until the server answers, the hand and the bids wait (no second card by a quick double
    // tap); an answer that never comes (a lost connection) frees them after a few seconds.
    const pending = { action, id, version: this.s.version, retried: false };
    this.pendingAction = pending;
    setTimeout(() => { if (this.pendingAction === pending) { this.pendingAction = null; this.update(); } }, PENDING_MS);
    this.update();
  }

  receive(message) {
    const ui = this.ui;
    switch (message.type) {
      case "welcome":
        this.welcome = message;
        this.pendingAction = null; // a new connection: whatever was on its way is in the state
        if (message.seat === null && this.token) this.token = null; // the token was refused: watch
        if (this.token && message.seat !== null && message.seat !== undefined) {
          const mine = seatsStored()[this.code];
          if (mine && mine.seat !== message.seat) storeSeat(this.code, { ...mine, seat: message.seat });
        }
        ui.chatAvailable = Array.isArray(message.chat);
        ui.chat = message.chat || [];
        return;
      case "state": {
        const before = this.s;
        const next = message.full || !before ? { ...message.changes } : { ...before, ...message.changes };
        this.receiveState(before, next);
        return;
      }
      case "error":
        this.receiveError(message);
        return;
      case "hint":
        ui.hint = message;
        break;
      case "history":
        ui.history = message;
        break;
      case "chat":
        ui.chat = [...ui.chat, message].slice(-200);
        if (message.seat !== null && message.seat !== undefined && this.s && message.seat !== this.s.seat) {
          ui.reactions = { ...ui.reactions, [message.seat]: { text: message.text, at: Date.now() } };
          setTimeout(() => this.update(), REACTION_MS + 50);
        }
        if (ui.panel !== "chat" && !getPrefs().chatMuted && !getPrefs().mutedNames.includes(message.name || t("spectator"))) {
          ui.unread += 1;
          playSound("chat");
        }
        break;
      case "reaction":
        ui.reactions = { ...ui.reactions, [message.seat ?? "spectators"]: { reaction: message.reaction, at: Date.now(), name: message.name } };
        setTimeout(() => this.update(), REACTION_MS + 50);
        break;
      case "moved":
        this.moveTo(message.table);
        return;
      case "fair":
        // A commitment to the coming deal: add this browser's randomness to it. (After the hand
        // the same message type reveals the seed; the history page reads it from the record.)
        if (message.commitment && !message.reveal) this.contribute(message.hand);
        return;
      default:
        return;
    }
    this.update();
  }

  receiveState(before, s) {
    const ui = this.ui;
    const now = Date.now();
    this.deadlines = {};
    for (const [seat, left] of Object.entries((s.table && s.table.deadlines) || {})) this.deadlines[seat] = now + left * 1000;
    if (ui.hint && ui.hint.version !== s.version) ui.hint = null;
    if (before && before.version !== s.version) ui.notice = "";
    // A trick was completed: show it a moment, then send it to its winner.
    const doneBefore = before ? before.completed_tricks.length : 0;
    const sameHand = before && before.hand_index === s.hand_index;
    if (s.completed_tricks.length > (sameHand ? doneBefore : 0) && s.completed_tricks.length) {
      const last = s.completed_tricks[s.completed_tricks.length - 1];
      const id = `${s.hand_index}-${s.completed_tricks.length}`;
      if (!ui.collected.has(id)) ui.collecting = { id, cards: last.cards, winner: last.winner, hurry: !before };
    }
    // The hand ended with this move: its last trick is the state's closing_trick until the next
    // deal; show it with its last card, send it to its winner, then show the hand's summary.
    const finishedBefore = before ? before.finished_hands.length : s.finished_hands.length;
    if (s.finished_hands.length > finishedBefore) {
      const closing = s.closing_trick;
      const id = `${s.finished_hands.length - 1}-last`;
      if (before && closing && closing.cards.length && !ui.collected.has(id))
        ui.collecting = { id, cards: closing.cards, winner: closing.winner, hurry: false };
      ui.summaryHand = s.finished_hands.length - 1;
    }
    if (ui.collecting && s.current_trick.length) ui.collecting = { ...ui.collecting, hurry: true };
    if (s.game_over) ui.summaryHand = null;
    // Sounds and the hidden tab's title.
    const mine = isMyTurn(s);
    if (mine && !this.lastTurnMine) playSound("turn");
    this.lastTurnMine = mine;
    const played = (view) => view.current_trick.length + view.completed_tricks.length * 100 + view.finished_hands.length * 10000;
    if (before && played(s) > played(before)) playSound("card");
    turnChanged(mine, t("your_turn"));
    if (ui.panel === "history" && before && s.finished_hands.length !== before.finished_hands.length) this.send({ type: "history" });
    this.s = s;
    if (this.pendingAction && this.pendingAction.version !== s.version) this.pendingAction = null;
    // A deal announced before this connection (or while the last one was lost) that still
    // takes contributions: this browser's randomness goes in too.
    const fair = s.table && s.table.fair;
    if (fair && fair.open) this.contribute(fair.hand);
    this.closeSummaryWhenPlayGoesOn();
    this.update();
  }

  /**
   * The summary of a hand stays until dismissed, or until the next hand's first card once it
   * has been seen for a few seconds (it would cover the trick).
   */
  closeSummaryWhenPlayGoesOn() {
    const ui = this.ui, s = this.s;
    if (ui.summaryHand === null || !s || s.finished_hands.length - 1 !== ui.summaryHand) return;
    if (!(s.phase === "playing" && (s.current_trick.length || s.completed_tricks.length))) return;
    const seen = ui.summaryShownAt ? Date.now() - ui.summaryShownAt : 0;
    if (ui.summaryShownAt && seen >= SUMMARY_MIN_MS) { ui.summaryHand = null; return; }
    clearTimeout(this.summaryTimer);
    this.summaryTimer = setTimeout(() => { this.closeSummaryWhenPlayGoesOn(); this.update(); }, SUMMARY_MIN_MS - seen + 50);
  }

  receiveError(message) {
    const pending = this.pendingAction;
    const kind = this.sentKinds.get(message.id) || "";
    if (pending && pending.id === message.id) {
      if (message.code === "stale" && !pending.retried && this.s) {
        // Somebody acted first (secret bids, a bid change): try again if it is still legal.
        const still = (this.s.legal_actions || []).some((a) => JSON.stringify(a) === JSON.stringify(pending.action));
        if (still) {
          pending.retried = true;
          pending.version = this.s.version;
          pending.id = this.sendTracked("act", { type: "act", version: this.s.version, action: pending.action });
          return;
        }
      }
      this.pendingAction = null;
    }
    if (kind === "contribute") {
      this.contributionRefused(message);
      return;
    }
    if (message.code === "unknown-type") {
      // The server does not have this feature yet (an older ohhell serve).
      if (kind === "chat" || kind === "react") this.ui.chatAvailable = false;
      if (kind === "rematch") this.ui.rematch = { ...this.ui.rematch, available: false, error: t("not_available") };
    } else if ((kind === "chat" || kind === "react") && message.code === "rate-limited") {
      this.ui.chatError = message.message;
      setTimeout(() => { this.ui.chatError = ""; this.update(); }, 4000);
    } else if (kind === "rematch") {
      this.ui.rematch = { ...this.ui.rematch, asked: false, error: message.message };
    } else {
      this.ui.notice = message.detail || message.message;
    }
    this.update();
  }

  /** Send this browser's contribution to the deal of `hand` (kept first: fair.js). */
  contribute(hand) {
    if (!this.s || this.s.seat === null || this.s.seat === undefined || !this.token || !this.socket) return;
    const connection = this.socket.connections;
    if (this.contributed[hand] === connection) return; // already sent on this connection
    const resend = !!this.kept[hand]; // sent before (a reload, a lost connection): the same value
    const value = contributionToSend(this.code, hand);
    const id = this.sendTracked("contribute", { type: "contribute", hand, value });
    if (!id) return;
    this.contributed[hand] = connection;
    this.contributionIds.set(id, { hand, resend });
    this.kept = contributionsAt(this.code);
  }

  /** Whether the deal on the table holds this browser's randomness (sent, and not refused). */
  ownRandomness() {
    const s = this.s, fair = s && s.table && s.table.fair;
    if (!fair || fair.open || s.seat === null || s.game_over || fair.hand !== s.hand_index) return false;
    const kept = this.kept[fair.hand];
    return !!kept && !kept.refused;
  }

  contributionRefused(message) {
    const sent = this.contributionIds.get(message.id);
    if (!sent) return;
    // A value sent again after a reconnection is refused when the first one had arrived: that is
    // no refusal. Otherwise the deal goes on without it (the seat was away, or it came too late).
    if (message.code === "too-late" || !sent.resend) {
      markRefused(this.code, sent.hand, message.code);
      this.kept = contributionsAt(this.code);
      this.update();
    }
  }

  moveTo(code) {
    const mine = seatsStored()[this.code];
    if (mine) storeSeat(code, mine);
    this.code = code;
    this.s = null;
    this.contributed = {};
    this.kept = contributionsAt(code);
    this.pendingAction = null;
    this.ui.collected = new Set();
    this.ui.collecting = null;
    this.ui.summaryHand = null;
    this.ui.summaryShownHand = null;
    this.ui.rematch = { available: true, asked: false, error: "" };
    this.ui.history = null;
    history.replaceState(null, "", `/t/${code}${location.search}`);
    this.socket.moveTo(code);
  }

  // ------------------------------------------------------------------------ what the page does

  /** Send a message and remember its kind, so that an error naming its id is understood. */
  sendTracked(kind, message) {
    const id = this.send(message);
    this.sentKinds.set(id, kind);
    if (this.sentKinds.size > 200) this.sentKinds.delete(this.sentKinds.keys().next().value);
    return id;
  }

  togglePanel(name) {
    const fromTab = document.activeElement && document.activeElement.classList.contains("drawer-tab");
    this.ui.panel = this.ui.panel === name && !fromTab ? null : name;
    if (this.ui.panel === "history") this.send({ type: "history" });
    if (this.ui.panel === "chat") this.ui.unread = 0;
    this.update();
    if (this.ui.panel) {
      const first = this.root.querySelector(".drawer [data-autofocus], .drawer .drawer-close");
      if (first) first.focus();
    }
  }

  names() {
    const seats = (this.s && this.s.table ? this.s.table : this.summary).seats;
    return seats.map((seat, i) => seatName(seat, i));
  }

  measure(zone) {
    if (!zone || this.resizer) return;
    this.resizer = new ResizeObserver(() => {
      const width = zone.clientWidth;
      const cardWidth = parseFloat(getComputedStyle(zone).getPropertyValue("--card-w")) || 64;
      if (!zone.isConnected) { this.resizer.disconnect(); this.resizer = null; return; }
      if (width !== this.ui.handWidth || cardWidth !== this.ui.cardWidth) {
        this.ui.handWidth = width;
        this.ui.cardWidth = cardWidth;
        this.update();
      }
    });
    this.resizer.observe(zone);
  }

  update() {
    const started = performance.now();
    const before = snapshot(this.root);
    render(this.view(), this.root);
    animate(this.root, before);
    // benchmarks/ui_latency.py asks for the time each update takes (off otherwise).
    if (window.__ohhellUpdates) window.__ohhellUpdates.push({ ms: performance.now() - started, cards: this.s && this.s.hand ? this.s.hand.length : 0 });
    if (!this.resizer) this.measure(this.root.querySelector(".hand"));
  }

  // ------------------------------------------------------------------------ the view

  view() {
    const s = this.s;
    if (!s || !s.table) return html`<p class="muted loading">${this.status === "lost" ? t("reconnecting") : "…"}</p>`;
    const names = this.names();
    setBaseTitle(`${t("table_code", { code: this.code })} · ${t("app_title")}`);
    if (s.table.status === "waiting") return html`<${WaitingRoom} ctl=${this} names=${names} />`;
    const ui = this.ui;
    const me = s.seat;
    const count = names.length;
    const order = seatsFromMe(count, me);
    const orderOf = {};
    order.forEach((seat, k) => { orderOf[seat] = k; });
    const acting = actingSeats(s);
    const myTurn = isMyTurn(s);
    const forbidden = forbiddenBid(s);
    const ranking = s.game_over ? Object.fromEntries(places(s.totals).map((p) => [p.seat, p])) : {};
    const plays = new Set((s.legal_actions || []).filter((a) => a.type === "play").map((a) => a.card));
    const playing = s.phase === "playing" && s.turn === me && !this.pendingAction;
    const hand = me !== null && s.hand ? sortHand(s.hand, s.trump) : [];
    const hintedCard = ui.hint && ui.hint.action.type === "play" ? ui.hint.action.card : null;
    const lastDone = lastTrick(s);
    const peeking = ui.peek && lastDone && !ui.collecting;
    const trickCards = peeking ? lastDone.cards : s.current_trick;
    const summaryHand = ui.summaryHand !== null && (!ui.collecting) ? s.finished_hands[ui.summaryHand] : null;
    if (summaryHand && ui.summaryShownHand !== ui.summaryHand) { ui.summaryShownHand = ui.summaryHand; ui.summaryShownAt = Date.now(); }
    const away = me !== null && s.table.seats[me].away;
    const classes = ["table-page", `seats-${count}`, myTurn ? "my-turn" : "", me === null ? "watching" : "", s.game_over ? "over" : ""].join(" ");
    return html`<div class=${classes}>
      <${TopBar} ctl=${this} s=${s} />
      <div class="table-body"><div class="play-area">
      ${ui.notice ? html`<p class="notice" role="alert" onClick=${() => { ui.notice = ""; this.update(); }}>${ui.notice}</p>` : null}
      ${s.table.paused ? html`<p class="notice paused" role="status">${t("paused")}</p>` : null}
      ${me !== null && !away && s.table.seats[me].timeouts > 0 ? html`<p class="notice" role="status">${t("timed_out_notice")}</p>` : null}
      ${away ? html`<p class="notice away" role="alert">${t("away_notice")} <button type="button" class="primary" id="back"
          onClick=${() => this.send({ type: "back" })}>${t("im_back")}</button></p>` : null}
      <div class="felt-wrap">
        <div class="felt" role="region" aria-label=${t("the_table")}>
          <div class="oval" aria-hidden="true"></div>
          ${order.map((seat, k) => html`<${Seat} key=${seat} s=${s} seat=${seat} k=${k} count=${count} name=${names[seat]}
            acting=${acting.includes(seat)} deadline=${this.deadlines[seat]} timerLength=${s.table.timer || 0}
            place=${ranking[seat]} reaction=${this.reactionOf(seat)} onWarn=${() => playSound("warn")} />`)}
          <${Trick} cards=${trickCards} collecting=${peeking ? null : ui.collecting} orderOf=${orderOf} count=${count} names=${names}
            onCollected=${(id) => this.collected(id)} />
          ${this.centre(s, names, acting)}
          ${summaryHand ? html`<${HandSummary} hand=${summaryHand} number=${ui.summaryHand + 1} names=${names} me=${me}
            onClose=${() => { ui.summaryHand = null; this.update(); }} />` : null}
        </div>
      </div>
      ${s.game_over ? html`<${GameOver} s=${s} names=${names} host=${me !== null && me === s.table.host} rematch=${ui.rematch}
          stake=${this.welcome && this.welcome.rules.stake}
          onRematch=${() => this.rematch()} onNewTable=${() => this.go("/")} onSheet=${() => this.togglePanel("sheet")}
          historyPath=${`/t/${this.code}/history`} onHistory=${() => this.go(`/t/${this.code}/history`)} />` : null}
      ${me !== null && !s.game_over ? html`<div class=${"hand-zone" + (myTurn ? " my-turn" : "")}>
          <${Prompt} s=${s} names=${names} forbidden=${forbidden} hint=${ui.hint} changing=${ui.changing} myTurn=${myTurn}
            busy=${!!this.pendingAction}
            onAct=${(a) => this.act(a)} onChanging=${() => { ui.changing = !ui.changing; this.update(); }}
            onHint=${() => this.send({ type: "hint", version: s.version })} />
          <${Hand} cards=${hand} playable=${playing ? plays : new Set()} myTurn=${playing} width=${ui.handWidth} cardWidth=${ui.cardWidth}
            hinted=${hintedCard} dealer=${s.dealer} onPlay=${(card) => this.act({ type: "play", card })} />
        </div>` : me === null ? html`<div class="hand-zone watching"><p class="badge watching-note">${t("spectating")}</p>
          ${s.game_over ? null : html`<${Prompt} s=${s} names=${names} forbidden=${forbidden} hint=${null} changing=${false} myTurn=${false}
            onAct=${() => {}} onChanging=${() => {}} onHint=${() => {}} />`}</div>` : null}
      </div>
      <${Drawer} ctl=${this} s=${s} names=${names} /></div>
    </div>`;
  }

  reactionOf(seat) {
    const r = this.ui.reactions[seat];
    return r && Date.now() - r.at < REACTION_MS ? r : null;
  }

  collected(id) {
    this.ui.collected.add(id);
    if (this.ui.collecting && this.ui.collecting.id === id) this.ui.collecting = null;
    this.update();
  }

  rematch() {
    this.ui.rematch = { ...this.ui.rematch, asked: true, error: "" };
    this.sendTracked("rematch", { type: "rematch" });
    this.update();
  }

  centre(s, names, acting) {
    let line = "";
    if (s.game_over) line = "";  // the game's end is told below the table
    else if (s.phase === "bidding" && acting.length > 1) line = t("waiting_for_bids");
    else if (acting.length === 1 && acting[0] !== s.seat && !s.current_trick.length && !this.ui.collecting)
      line = s.phase === "bidding" ? t("name_bids", { name: names[acting[0]] }) : t("name_leads", { name: names[acting[0]] });
    return html`<div class="centre" aria-live="polite">${line ? html`<span class="centre-line">${line}</span>` : null}</div>`;
  }
}
