// The table page: a small controller (the game state from the server, this page's own state,
// the socket) and a view drawn from them. Every update goes through `update()`, which remembers
// where the cards are, lets Preact patch the page (only what changed: focus, open menus and
// scroll survive) and then moves the cards from their old places to their new ones.
import { html, render } from "../html.js";
import { t, tn, language, levelName, cardSpoken, suitWord, SUIT_SYMBOLS } from "../i18n.js";
import { api } from "../net/api.js";
import { TableSocket } from "../net/socket.js";
import { seatsStored, storeSeat, savedName, saveName, getPrefs, setPrefs, onPrefs } from "../storage.js";
import { snapshot, animate } from "../anim.js";
import { play as playSound } from "../sound.js";
import { turnChanged, setBaseTitle, askPermission } from "../notify.js";
import { sortHand } from "../cards.js";
import { seatsFromMe, actingSeats, isMyTurn, bidTotal, forbiddenBid, places } from "../game.js";
import { ScoreTable } from "../sheet.js";
import { Seat, statusText } from "../table/seat.js";
import { Trick } from "../table/trick.js";
import { Hand } from "../table/hand.js";
import { Prompt } from "../table/prompt.js";
import { Card } from "../table/card.js";
import { HandSummary, GameOver } from "../table/summary.js";
import { History } from "../table/history.js";
import { Chat, Reactions } from "../table/chat.js";

const REACTION_MS = 2600;
const SUMMARY_MIN_MS = 4000;

/** A person's name for a seat: a bot is "Bot 3" (its level is on the seat's status line). */
export function seatName(seat, index) {
  if (seat.kind === "human") return seat.name;
  if (seat.kind === "bot") return t("bot_n", { n: index + 1 });
  return t("status_open");
}

function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return [...values].map((v) => v.toString(16).padStart(2, "0")).join("");
}

export class TablePage {
  constructor(code, root, go) {
    this.code = code;
    this.root = root;
    this.go = go;
    this.s = null; // the game as the server last described it
    this.welcome = null;
    this.knobs = null; // every rule knob's value (for the hook's explanation)
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
    this.socket = new TableSocket(hello, { message: (m) => this.receive(m), status: (st) => { this.status = st; this.update(); } });
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
    const id = this.send({ type: "act", version: this.s.version, action });
    this.pendingAction = { action, id, retried: false };
  }

  receive(message) {
    const ui = this.ui;
    switch (message.type) {
      case "welcome":
        this.welcome = message;
        if (message.seat === null && this.token) this.token = null; // the token was refused: watch
        ui.chatAvailable = Array.isArray(message.chat);
        ui.chat = message.chat || [];
        if (!this.knobs) this.loadKnobs(message.rules);
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
        this.lastTrickFromHistory(message);
        break;
      case "chat":
        ui.chat = [...ui.chat, message].slice(-200);
        if (message.seat !== null && message.seat !== undefined && this.s && message.seat !== this.s.seat) {
          ui.reactions = { ...ui.reactions, [message.seat]: { text: message.text, at: Date.now() } };
          setTimeout(() => this.update(), REACTION_MS + 50);
        }
        if (ui.panel !== "chat" && !getPrefs().chatMuted && !getPrefs().mutedNames.includes(message.name)) {
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
        if (this.s && this.s.seat !== null) this.send({ type: "contribute", hand: message.hand, value: randomHex(32) });
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
    // The hand ended with this move: its last trick is in the history (the state has no cards
    // of finished hands); show the summary once the trick has gone.
    const finishedBefore = before ? before.finished_hands.length : s.finished_hands.length;
    if (s.finished_hands.length > finishedBefore) {
      if (before && before.current_trick.length) {
        ui.collecting = { id: `${before.hand_index}-last`, cards: before.current_trick, winner: null, hurry: false, waiting: true };
        this.send({ type: "history" });
      }
      ui.summaryHand = s.finished_hands.length - 1;
    }
    if (ui.collecting && s.current_trick.length && !ui.collecting.waiting) ui.collecting = { ...ui.collecting, hurry: true };
    if (s.game_over) ui.summaryHand = null;
    // Sounds and the hidden tab's title.
    const mine = isMyTurn(s);
    if (mine && !this.lastTurnMine) playSound("turn");
    this.lastTurnMine = mine;
    if (before && s.current_trick.length > before.current_trick.length) playSound("card");
    turnChanged(mine, t("your_turn"));
    if (ui.panel === "history" && before && s.finished_hands.length !== before.finished_hands.length) this.send({ type: "history" });
    this.s = s;
    this.pendingAction = null;
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
    if (message.code === "stale" && pending && !pending.retried && this.s) {
      // Somebody acted first (secret bids, a bid change): try again if it is still legal.
      const still = (this.s.legal_actions || []).some((a) => JSON.stringify(a) === JSON.stringify(pending.action));
      if (still) {
        pending.retried = true;
        pending.id = this.send({ type: "act", version: this.s.version, action: pending.action });
        return;
      }
    }
    if (message.code === "unknown-type") {
      // The server does not have this feature yet (an older ohhell serve).
      if (this.lastSent === "chat") this.ui.chatAvailable = false;
      if (this.lastSent === "rematch") this.ui.rematch = { ...this.ui.rematch, available: false, error: t("not_available") };
    } else if (this.lastSent === "chat" && message.code === "rate-limited") {
      this.ui.chatError = message.message;
      setTimeout(() => { this.ui.chatError = ""; this.update(); }, 4000);
    } else if (this.lastSent === "rematch") {
      this.ui.rematch = { ...this.ui.rematch, asked: false, error: message.message };
    } else {
      this.ui.notice = message.detail || message.message;
    }
    this.update();
  }

  lastTrickFromHistory(data) {
    const ui = this.ui;
    if (!ui.collecting || !ui.collecting.waiting || !data.hands.length) return;
    const hand = data.hands[data.hands.length - 1];
    const n = data.names.length;
    const cards = hand.plays.slice(hand.plays.length - n);
    const winner = hand.trick_winners ? hand.trick_winners[hand.trick_winners.length - 1] : null;
    ui.collecting = { id: ui.collecting.id, cards, winner, hurry: false, waiting: false };
  }

  async loadKnobs(rules) {
    if (!rules) return;
    const { preset, players, ...knobs } = rules;
    try {
      const data = await api("POST", "/api/rules", { preset, players, knobs });
      this.knobs = data.knobs;
      this.update();
    } catch (error) { this.knobs = {}; }
  }

  moveTo(code) {
    const mine = seatsStored()[this.code];
    if (mine) storeSeat(code, mine);
    this.code = code;
    this.s = null;
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

  sendTracked(type, message) {
    this.lastSent = type;
    return this.send(message);
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
    if (s.table.status === "waiting") return this.waitingView(names);
    const ui = this.ui;
    const me = s.seat;
    const count = names.length;
    const order = seatsFromMe(count, me);
    const orderOf = {};
    order.forEach((seat, k) => { orderOf[seat] = k; });
    const acting = actingSeats(s);
    const myTurn = isMyTurn(s);
    const forbidden = forbiddenBid(s, this.knobs);
    const ranking = s.game_over ? Object.fromEntries(places(s.totals).map((p) => [p.seat, p])) : {};
    const plays = new Set((s.legal_actions || []).filter((a) => a.type === "play").map((a) => a.card));
    const playing = s.phase === "playing" && s.turn === me;
    const hand = me !== null && s.hand ? sortHand(s.hand, s.trump) : [];
    const hintedCard = ui.hint && ui.hint.action.type === "play" ? ui.hint.action.card : null;
    const lastDone = s.completed_tricks.length ? s.completed_tricks[s.completed_tricks.length - 1] : null;
    const peeking = ui.peek && lastDone && !ui.collecting;
    const trickCards = peeking ? lastDone.cards : s.current_trick;
    const summaryHand = ui.summaryHand !== null && (!ui.collecting) ? s.finished_hands[ui.summaryHand] : null;
    if (summaryHand && ui.summaryShownHand !== ui.summaryHand) { ui.summaryShownHand = ui.summaryHand; ui.summaryShownAt = Date.now(); }
    const away = me !== null && s.table.seats[me].away;
    const classes = ["table-page", `seats-${count}`, myTurn ? "my-turn" : "", me === null ? "watching" : "", s.game_over ? "over" : ""].join(" ");
    return html`<div class=${classes}>
      ${this.topBar(s, names, forbidden)}
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
          onRematch=${() => this.rematch()} onNewTable=${() => this.go("/")} onSheet=${() => this.togglePanel("sheet")} />` : null}
      ${me !== null && !s.game_over ? html`<div class=${"hand-zone" + (myTurn ? " my-turn" : "")}>
          <${Prompt} s=${s} names=${names} forbidden=${forbidden} hint=${ui.hint} changing=${ui.changing} myTurn=${myTurn}
            onAct=${(a) => this.act(a)} onChanging=${() => { ui.changing = !ui.changing; this.update(); }}
            onHint=${() => this.send({ type: "hint", version: s.version })} />
          <${Hand} cards=${hand} playable=${playing ? plays : new Set()} myTurn=${playing} width=${ui.handWidth} cardWidth=${ui.cardWidth}
            hinted=${hintedCard} dealer=${s.dealer} onPlay=${(card) => this.act({ type: "play", card })} />
        </div>` : me === null ? html`<p class="badge watching-note">${t("spectating")}</p>` : null}
      </div>
      ${this.drawer(s, names)}</div>
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

  topBar(s, names, forbidden) {
    const total = bidTotal(s);
    const handLabel = s.hand_count ? t("hand_of", { n: s.hand_index + 1, count: s.hand_count }) : t("hand_open", { n: s.hand_index + 1 });
    let bidsLine = null;
    if (total && !s.game_over) {
      const verdict = !total.all ? "" : total.diff < 0 ? t("under_by", { n: -total.diff }) : total.diff > 0 ? t("over_by_bids", { n: total.diff }) : t("bids_even");
      bidsLine = html`<span class=${"bids-total" + (total.all ? (total.diff < 0 ? " under" : total.diff > 0 ? " over" : "") : "")} id="bids-total">
        ${t("bids_of", { sum: total.sum, size: total.size })}${verdict ? html` · <b>${verdict}</b>` : null}</span>`;
    }
    const trumpKnown = s.dealt || s.scoresheet;
    // Each tool: an icon and a word; on a phone only the icon shows (the word stays its name).
    const tool = (name, icon, label, id, badge) => html`<button type="button" id=${id} class=${"tool" + (this.ui.panel === name ? " active" : "")}
      aria-pressed=${this.ui.panel === name ? "true" : "false"} title=${label} onClick=${() => this.togglePanel(name)}>
      <span class="icon" aria-hidden="true">${icon}</span><span class="label">${label}</span>${badge ? html`<span class="badge-count" aria-label=${tn("unread_n", badge)}>${badge}</span>` : null}</button>`;
    return html`<div class="table-bar">
      <div class="info-bar" id="info-bar">
        <span class="table-code">${t("table_code", { code: this.code })}</span>
        ${s.game_over ? null : html`<span>${handLabel} · ${tn("cards_n", s.hand_size)}</span>`}
        ${!s.game_over && trumpKnown ? html`<span class="trump" id="trump">${t("trump")}: <strong class=${s.trump ? "suit-" + s.trump : ""}>
          ${s.trump && SUIT_SYMBOLS[s.trump] ? SUIT_SYMBOLS[s.trump] + " " : ""}${suitWord(s.trump)}</strong>
          ${s.turn_up ? html` <${Card} card=${s.turn_up} small=${true} extra="turned" label=${t("turned_card") + ": " + cardSpoken(s.turn_up)} />` : null}</span>` : null}
        ${bidsLine}
        ${s.table.spectators ? html`<span class="muted">${tn("spectators_n", s.table.spectators)}</span>` : null}
        ${this.status === "lost" ? html`<span class="conn-lost" role="status">${t("reconnecting")}</span>` : null}
      </div>
      <div class="tools" role="toolbar" aria-label=${t("tools")}>
        ${s.completed_tricks.length && !s.game_over ? html`<button type="button" class="tool" id="last-trick" aria-pressed=${this.ui.peek ? "true" : "false"}
          title=${t("show_last_trick")} onClick=${() => { this.ui.peek = !this.ui.peek; this.update(); }}>
          <span class="icon" aria-hidden="true">↶</span><span class="label">${t("last_trick")}</span></button>` : null}
        ${tool("sheet", "▦", t("score_sheet"), "show-sheet")}
        ${s.finished_hands.length ? tool("history", "⟲", t("history"), "show-history") : null}
        ${tool("chat", "✉", t("chat"), "show-chat", this.ui.unread)}
        ${tool("rules", "§", t("rules"), "show-rules")}
        ${tool("settings", "⚙", t("settings"), "show-settings")}
      </div>
    </div>`;
  }

  centre(s, names, acting) {
    let line = "";
    if (s.game_over) line = "";  // the game's end is told below the table
    else if (s.phase === "bidding" && acting.length > 1) line = t("waiting_for_bids");
    else if (acting.length === 1 && acting[0] !== s.seat && !s.current_trick.length && !this.ui.collecting)
      line = s.phase === "bidding" ? t("name_bids", { name: names[acting[0]] }) : t("name_leads", { name: names[acting[0]] });
    return html`<div class="centre" aria-live="polite">${line ? html`<span class="centre-line">${line}</span>` : null}</div>`;
  }

  waitingView(names) {
    const s = this.s;
    const link = `${location.origin}/t/${this.code}`;
    const copy = (text) => async (event) => {
      const button = event.currentTarget;
      try { await navigator.clipboard.writeText(text); button.textContent = t("copied"); } catch (error) { /* no clipboard */ }
    };
    return html`<div class="panel waiting narrow">
      <h2>${t("table_code", { code: this.code })}</h2>
      <p>${t("waiting_for_players")}</p>
      <label>${t("invite")}<span class="row"><input readonly value=${link} id="invite-link" />
        <button type="button" onClick=${copy(link)}>${t("copy")}</button></span></label>
      <ul class="plain seats-list">${s.table.seats.map((seat, i) => html`<li key=${i}>${t("seat_n", { n: i + 1 })}: ${names[i]}
        <span class="muted"> · ${statusText(seat)}</span></li>`)}</ul>
      <p class="muted">${t("only_host_starts")}</p>
      ${s.seat !== null && s.seat === s.table.host ? html`<button type="button" class="primary" id="start" onClick=${() => this.send({ type: "start" })}>${t("start_now")}</button>` : null}
      ${this.token ? html`<details><summary>${t("your_link")}</summary><span class="row">
        <input readonly value=${`${location.origin}/t/${this.code}#seat=${this.token}`} aria-label=${t("your_link")} />
        <button type="button" onClick=${copy(`${location.origin}/t/${this.code}#seat=${this.token}`)}>${t("copy")}</button></span></details>` : null}
    </div>`;
  }

  drawer(s, names) {
    const panel = this.ui.panel;
    if (!panel) return null;
    const titles = { sheet: t("score_sheet"), history: t("history"), chat: t("chat"), rules: t("rules"), settings: t("settings") };
    let body;
    if (panel === "sheet") {
      body = html`<div id="sheet"><${ScoreTable} names=${names} highlight=${s.seat} totals=${s.totals}
        hands=${s.finished_hands} />
        ${s.finished_hands.length ? html`<p class="row"><a class="button" id="export" href=${`/api/tables/${this.code}/record`} download=${`ohhell-${this.code}.json`}>${t("export_record")}</a></p>` : null}</div>`;
    } else if (panel === "history") {
      body = html`<${History} data=${this.ui.history} names=${names} />`;
    } else if (panel === "chat") {
      body = html`<${Reactions} choices=${(this.welcome && this.welcome.reactions) || undefined}
        onReact=${(r) => this.sendTracked("react", { type: "react", reaction: r })} disabled=${!this.ui.chatAvailable} />
        <${Chat} lines=${this.ui.chat} available=${this.ui.chatAvailable} error=${this.ui.chatError}
          onSend=${(text) => this.sendTracked("chat", { type: "chat", text })} />`;
    } else if (panel === "rules") {
      body = html`<div id="rules">${(this.welcome ? this.welcome.rules_text : []).map(([topic, sentence]) => html`<p><strong>${topic}</strong> ${sentence}</p>`)}</div>`;
    } else {
      body = html`<${Settings} />`;
    }
    // Tabs in the drawer itself: on a phone the drawer covers the table's tool bar.
    const tabs = [["sheet", "▦"], ...(s.finished_hands.length ? [["history", "⟲"]] : []), ["chat", "✉"], ["rules", "§"], ["settings", "⚙"]];
    return html`<aside class="drawer" id=${"drawer-" + panel} aria-labelledby="drawer-title">
      <header class="drawer-head">
        <h2 id="drawer-title" class="sr">${titles[panel]}</h2>
        <nav class="drawer-tabs" aria-label=${t("tools")}>${tabs.map(([name, icon]) => html`<button type="button" key=${name} id=${"tab-" + name}
          class=${"drawer-tab" + (name === panel ? " active" : "")} aria-current=${name === panel ? "page" : undefined}
          title=${titles[name]} onClick=${() => this.togglePanel(name)}><span aria-hidden="true">${icon}</span>
          <span class="label">${titles[name]}</span>${name === "chat" && this.ui.unread ? html`<span class="badge-count">${this.ui.unread}</span>` : null}</button>`)}</nav>
        <button type="button" class="quiet drawer-close" aria-label=${t("close")} onClick=${() => this.togglePanel(panel)}>✕</button></header>
      <div class="drawer-body">${body}</div>
    </aside>`;
  }
}

/** The table's options for this browser: sounds, four colours, motion, notifications. */
function Settings() {
  const prefs = getPrefs();
  const toggle = (key, id, label, after) => html`<label class="check"><input type="checkbox" id=${id} checked=${prefs[key]}
    onChange=${async (e) => { const on = e.currentTarget.checked; if (after) await after(on); setPrefs({ [key]: on }); }} /> ${label}</label>`;
  return html`<div class="settings" id="settings">
    ${toggle("sound", "pref-sound", t("pref_sound"))}
    ${toggle("fourColour", "pref-four-colour", t("pref_four_colour"))}
    ${toggle("motion", "pref-motion", t("pref_motion"))}
    ${toggle("notify", "pref-notify", t("pref_notify"), async (on) => { if (on) await askPermission(); })}
    <p class="muted small">${t("pref_note")}</p>
  </div>`;
}
