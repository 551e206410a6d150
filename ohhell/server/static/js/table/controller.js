// The table page's controller: what the server said (the game's state, merged from its diffs,
// the welcome, chat, hints, the history), what this page asked for and is still waiting for
// (an action, a rematch, a deal's contribution), and what follows from both (a trick on its way
// to its winner, the hand's summary, the unread count). It knows nothing of the DOM and nothing
// of the socket: messages come in through `receive()`, go out through `config.send`, and every
// change is told through `config.changed()` (the page draws again). Protocol: docs/protocol.md.
import { t } from "../i18n.js";
import { isMyTurn } from "../game.js";
import { contributionToSend, contributionsAt, markRefused } from "../fair.js";
import { seatName } from "./names.js";

export const REACTION_MS = 2600;
const SUMMARY_MIN_MS = 4000;
const PENDING_MS = 5000;
const CHAT_KEPT = 200;
const KINDS_KEPT = 200;

const NO_EFFECT = () => {};

/** Whether two actions are the same move (the server's legal actions also name the seat). */
function sameAction(a, b) {
  return a.type === b.type && (a.bid ?? null) === (b.bid ?? null) && (a.card ?? null) === (b.card ?? null)
    && (a.high ?? null) === (b.high ?? null);
}

/**
 * What the page knows of the table besides the game itself, before anything is known.
 * `collected`: ids of the finished tricks already gone to their winners.
 */
function freshTable() {
  return {
    panel: null, // "sheet" | "history" | "chat" | "rules" | "settings"
    summaryHand: null, // index of the finished hand whose summary is open
    summaryShownHand: null,
    summaryShownAt: 0,
    collecting: null, // a finished trick on its way to the winner: {id, cards, winner, hurry}
    collected: new Set(),
    hint: null,
    notice: "",
    chat: [],
    chatAvailable: false,
    chatError: "",
    unread: 0,
    reactions: {}, // by seat (or "spectators"): {reaction | text, at, name}
    rematch: { available: true, asked: false, error: "" },
    rematchOffer: null, // the host started a rematch at this table (its code): go, or leave?
    history: null,
    teach: {}, // hand index -> the bid the hint bot would have made with this player's cards
  };
}

export class TableController {
  /**
   * @param {object} config
   * @param {string} config.code the table's code
   * @param {string|null} config.token this browser's seat token (null: watching)
   * @param {(message: object) => number} config.send sends a message, returns its id (0: not connected)
   * @param {() => number} config.connection which connection is open now (a new one after a reconnection)
   * @param {() => void} config.changed the state changed: draw again
   * @param {(from: string, to: string) => void} [config.moved] the game moved to another table (a rematch)
   * @param {(seat: number) => void} [config.seated] the server named this token's seat
   * @param {(name: string) => void} [config.sound] "turn", "card", "chat"
   * @param {(mine: boolean) => void} [config.turn] whether it is this player's turn (after every state)
   * @param {() => {chatMuted: boolean, mutedNames: string[]}} [config.prefs]
   * @param {{contributionsAt: Function, contributionToSend: Function, markRefused: Function}} [config.keep]
   *   where this browser's contributions to fair deals are kept (fair.js)
   */
  constructor(config) {
    this.config = {
      moved: NO_EFFECT, seated: NO_EFFECT, sound: NO_EFFECT, turn: NO_EFFECT,
      prefs: () => ({ chatMuted: false, mutedNames: [], teach: false }),
      keep: { contributionsAt, contributionToSend, markRefused },
      ...config,
    };
    this.code = config.code;
    this.token = config.token;
    this.s = null; // the game as the server last described it
    this.welcome = null;
    this.status = "connecting";
    this.ui = freshTable();
    this.deadlines = {}; // seat -> when its turn runs out (Date.now() clock)
    this.lastTurnMine = false;
    this.pendingAction = null; // {action, id, version, retried}: sent, not answered yet
    this.sentKinds = new Map(); // message id -> what it was ("act", "chat", "rematch", …)
    this.contributed = {}; // hand -> the connection its contribution was sent on
    this.contributionIds = new Map(); // message id -> {hand, resend}
    this.kept = this.config.keep.contributionsAt(this.code);
    this.timers = new Set();
    this.teachIds = new Map(); // message id -> the hand whose bid the hint bot was asked for
  }

  stop() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.stopped = true;
  }

  /** A timer that `stop()` clears (the page left: nothing may draw into it any more). */
  later(ms, run) {
    const timer = setTimeout(() => { this.timers.delete(timer); if (!this.stopped) run(); }, ms);
    this.timers.add(timer);
    return timer;
  }

  /** Tell the page to draw again, first noting when the hand's summary came into view. */
  changed() {
    const ui = this.ui, s = this.s;
    const shown = ui.summaryHand !== null && !ui.collecting && s && s.table && s.table.status !== "waiting"
      && s.finished_hands[ui.summaryHand];
    if (shown && ui.summaryShownHand !== ui.summaryHand) { ui.summaryShownHand = ui.summaryHand; ui.summaryShownAt = Date.now(); }
    this.config.changed();
  }

  // ------------------------------------------------------------------------ what comes in

  connectionStatus(status) {
    this.status = status;
    // An action sent into a connection that is gone never arrived (or its answer never will):
    // the new connection's state says where the game is, and the player may act again.
    if (status === "lost") this.pendingAction = null;
    this.changed();
  }

  receive(message) {
    const ui = this.ui;
    switch (message.type) {
      case "welcome":
        this.welcome = message;
        this.pendingAction = null; // a new connection: whatever was on its way is in the state
        // The token was refused: watch. (Not a latecomer's, promised a bot's seat at the next
        // hand: it watches until the server closes this connection, then sits down with it.)
        if (message.seat === null && this.token && (message.next_seat === undefined || message.next_seat === null)) this.token = null;
        if (this.token && message.seat !== null && message.seat !== undefined) this.config.seated(message.seat);
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
        if (this.teachIds.has(message.id)) {
          // Asked for the hand's summary, not shown now (the player bids on their own).
          const hand = this.teachIds.get(message.id);
          this.teachIds.delete(message.id);
          if (message.action && message.action.type === "bid") ui.teach = { ...ui.teach, [hand]: message.action.bid };
          return;
        }
        ui.hint = message;
        break;
      case "history":
        ui.history = message;
        break;
      case "chat": {
        ui.chat = [...ui.chat, message].slice(-CHAT_KEPT);
        if (message.seat !== null && message.seat !== undefined && this.s && message.seat !== this.s.seat) {
          ui.reactions = { ...ui.reactions, [message.seat]: { text: message.text, at: Date.now() } };
          this.later(REACTION_MS + 50, () => this.changed());
        }
        const prefs = this.config.prefs();
        if (ui.panel !== "chat" && !prefs.chatMuted && !prefs.mutedNames.includes(message.name || t("spectator"))) {
          ui.unread += 1;
          this.config.sound("chat");
        }
        break;
      }
      case "reaction":
        ui.reactions = { ...ui.reactions, [message.seat ?? "spectators"]: { reaction: message.reaction, at: Date.now(), name: message.name } };
        this.later(REACTION_MS + 50, () => this.changed());
        break;
      case "moved":
        // The one who asked for the rematch goes at once; everybody else is asked first.
        if (ui.rematch.asked) { this.moveTo(message.table); return; }
        ui.rematchOffer = message.table;
        break;
      case "fair":
        // A commitment to the coming deal: add this browser's randomness to it. (After the hand
        // the same message type reveals the seed; the history page reads it from the record.)
        if (message.commitment && !message.reveal) this.contribute(message.hand);
        return;
      default:
        return;
    }
    this.changed();
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
    // The next trick has begun, or this player is asked to lead it: the finished one must not
    // lie under the prompt (or under the new cards), so it goes to its winner now.
    const askedToLead = s.phase === "playing" && s.turn === s.seat && s.seat !== null && !s.current_trick.length;
    if (ui.collecting && !ui.collecting.hurry && (s.current_trick.length || askedToLead))
      ui.collecting = { ...ui.collecting, hurry: true };
    if (s.game_over) ui.summaryHand = null;
    // Sounds and the hidden tab's title.
    const mine = isMyTurn(s);
    if (mine && !this.lastTurnMine) this.config.sound("turn");
    this.lastTurnMine = mine;
    const played = (view) => view.current_trick.length + view.completed_tricks.length * 100 + view.finished_hands.length * 10000;
    if (before && played(s) > played(before)) this.config.sound("card");
    this.config.turn(mine);
    if (ui.panel === "history" && before && s.finished_hands.length !== before.finished_hands.length) this.send({ type: "history" });
    this.s = s;
    if (this.pendingAction && this.pendingAction.version !== s.version) this.pendingAction = null;
    // A deal announced before this connection (or while the last one was lost) that still
    // takes contributions: this browser's randomness goes in too.
    const fair = s.table && s.table.fair;
    if (fair && fair.open) this.contribute(fair.hand);
    this.askWhatTheBotWouldBid();
    this.closeSummaryWhenPlayGoesOn();
    this.changed();
  }

  /**
   * With the "teach" setting on, when this player is to bid, the hint bot is asked (once a hand)
   * what it would bid with these cards; the hand's summary says it once the hand is over.
   */
  askWhatTheBotWouldBid() {
    const s = this.s;
    if (!this.config.prefs().teach || !s || s.seat === null || s.phase !== "bidding" || s.bids[s.seat] !== null) return;
    if (!(s.legal_actions || []).some((a) => a.type === "bid")) return;
    if ([...this.teachIds.values()].includes(s.hand_index) || this.ui.teach[s.hand_index] !== undefined) return;
    const id = this.sendTracked("teach", { type: "hint", version: s.version });
    if (id) this.teachIds.set(id, s.hand_index);
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
    this.timers.delete(this.summaryTimer);
    this.summaryTimer = this.later(SUMMARY_MIN_MS - seen + 50, () => { this.closeSummaryWhenPlayGoesOn(); this.changed(); });
  }

  receiveError(message) {
    const pending = this.pendingAction;
    const kind = this.sentKinds.get(message.id) || "";
    if (pending && pending.id === message.id) {
      if (message.code === "stale" && !pending.retried && this.s) {
        // Somebody acted first (secret bids, a bid change): try again if it is still legal.
        const still = (this.s.legal_actions || []).some((a) => sameAction(a, pending.action));
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
    if (kind === "teach") { this.teachIds.delete(message.id); return; } // no lesson this hand: nothing to tell
    const ui = this.ui;
    if (message.code === "unknown-type") {
      // The server does not have this feature yet (an older ohhell serve).
      if (kind === "chat" || kind === "react") ui.chatAvailable = false;
      if (kind === "rematch") ui.rematch = { ...ui.rematch, available: false, error: t("not_available") };
    } else if ((kind === "chat" || kind === "react") && message.code === "rate-limited") {
      ui.chatError = message.message;
      this.later(4000, () => { this.ui.chatError = ""; this.changed(); });
    } else if (kind === "rematch") {
      ui.rematch = { ...ui.rematch, asked: false, error: message.message };
    } else {
      ui.notice = message.detail || message.message;
    }
    this.changed();
  }

  contributionRefused(message) {
    const sent = this.contributionIds.get(message.id);
    if (!sent) return;
    // A value sent again after a reconnection is refused when the first one had arrived: that is
    // no refusal. Otherwise the deal goes on without it (the seat was away, or it came too late).
    if (message.code === "too-late" || !sent.resend) {
      this.config.keep.markRefused(this.code, sent.hand, message.code);
      this.kept = this.config.keep.contributionsAt(this.code);
      this.changed();
    }
  }

  /** The game goes on at another table (a rematch): forget this one's game, say hello there. */
  moveTo(code) {
    const from = this.code;
    this.code = code;
    this.s = null;
    this.contributed = {};
    this.kept = this.config.keep.contributionsAt(code);
    this.pendingAction = null;
    // What belonged to the game goes; the open panel and the chat stay.
    this.ui = { ...this.ui, collected: new Set(), collecting: null, summaryHand: null, summaryShownHand: null,
      rematch: { available: true, asked: false, error: "" }, rematchOffer: null, history: null, teach: {} };
    this.config.moved(from, code);
  }

  // ------------------------------------------------------------------------ what goes out

  /** Send a message and remember its kind, so that an error naming its id is understood. */
  sendTracked(kind, message) {
    const id = this.send(message);
    this.sentKinds.set(id, kind);
    if (this.sentKinds.size > KINDS_KEPT) this.sentKinds.delete(this.sentKinds.keys().next().value);
    return id;
  }

  send(message) { return this.config.send(message); }

  act(action) {
    if (!this.s) return;
    this.ui.hint = null;
    const id = this.sendTracked("act", { type: "act", version: this.s.version, action });
    if (!id) return; // not connected: nothing was sent
    // Until the server answers, the hand and the bids wait (no second card by a quick double
    // tap); an answer that never comes (a lost connection) frees them after a few seconds.
    const pending = { action, id, version: this.s.version, retried: false };
    this.pendingAction = pending;
    this.later(PENDING_MS, () => { if (this.pendingAction === pending) { this.pendingAction = null; this.changed(); } });
    this.changed();
  }

  askHint() { if (this.s) this.send({ type: "hint", version: this.s.version }); }
  back() { this.send({ type: "back" }); }
  start() { this.send({ type: "start" }); }
  chat(text) { this.sendTracked("chat", { type: "chat", text }); }
  react(reaction) { this.sendTracked("react", { type: "react", reaction }); }

  rematch() {
    this.ui.rematch = { ...this.ui.rematch, asked: true, error: "" };
    this.sendTracked("rematch", { type: "rematch" });
    this.changed();
  }

  /** Send this browser's contribution to the deal of `hand` (kept first: fair.js). */
  contribute(hand) {
    if (!this.s || this.s.seat === null || this.s.seat === undefined || !this.token) return;
    const connection = this.config.connection();
    if (this.contributed[hand] === connection) return; // already sent on this connection
    const resend = !!this.kept[hand]; // sent before (a reload, a lost connection): the same value
    const value = this.config.keep.contributionToSend(this.code, hand);
    const id = this.sendTracked("contribute", { type: "contribute", hand, value });
    if (!id) return;
    this.contributed[hand] = connection;
    this.contributionIds.set(id, { hand, resend });
    this.kept = this.config.keep.contributionsAt(this.code);
  }

  // ------------------------------------------------------------------------ what the page does

  /**
   * Open a panel, or close it when it is open (unless asked from the drawer's own tabs, which
   * only switch): the history is asked for each time it opens; the chat, opened, is read.
   */
  togglePanel(name, fromTab = false) {
    const ui = this.ui;
    ui.panel = ui.panel === name && !fromTab ? null : name;
    if (ui.panel === "history") this.send({ type: "history" });
    if (ui.panel === "chat") ui.unread = 0;
    this.changed();
  }

  dismissSummary() { this.ui.summaryHand = null; this.changed(); }

  /** Play again: go to the rematch's table (the seat and its token go along). */
  acceptRematch() {
    const code = this.ui.rematchOffer;
    if (!code) return;
    this.ui.rematchOffer = null;
    this.moveTo(code);
  }
  dismissNotice() { this.ui.notice = ""; this.changed(); }

  /** A finished trick reached its winner (the view's animation is over). */
  collected(id) {
    this.ui.collected.add(id);
    if (this.ui.collecting && this.ui.collecting.id === id) this.ui.collecting = null;
    this.changed();
  }

  // ------------------------------------------------------------------------ what the view reads

  /** The seats' names (the summary's before the first state, when the page only has that). */
  names(summary) {
    const seats = (this.s && this.s.table ? this.s.table : summary).seats;
    return seats.map((seat, i) => seatName(seat, i));
  }

  /** A seat's reaction or chat bubble while it is still shown, else null. */
  reactionOf(seat) {
    const r = this.ui.reactions[seat];
    return r && Date.now() - r.at < REACTION_MS ? r : null;
  }

  /** Whether the deal on the table holds this browser's randomness (sent, and not refused). */
  ownRandomness() {
    const s = this.s, fair = s && s.table && s.table.fair;
    if (!fair || fair.open || s.seat === null || s.game_over || fair.hand !== s.hand_index) return false;
    const kept = this.kept[fair.hand];
    return !!kept && !kept.refused;
  }
}
