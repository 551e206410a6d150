// What decides how little a table update draws again (ohhell/server/static/js/html.js's
// samePicture and memo, table/seat.js's sameSeat, table/trick.js's trickCards, and the top bar's,
// the prompt's, the drawer's and the centre line's comparisons), under Node: pure
// functions, no DOM. Run with `node --test tests/js/` (Node 20+), or through
// tests/server/test_client_js.py. The browser side: tests/server/test_browser_table_speed.py.
import { test } from "node:test";
import assert from "node:assert/strict";

// The seat's and the trick's modules reach the player's settings (storage.js) when they load,
// which touches the page: as much of one as that needs.
const stored = new Map();
globalThis.localStorage ??= { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, String(v)), removeItem: (k) => stored.delete(k) };
globalThis.document ??= { documentElement: { classList: { toggle() {} } }, title: "", addEventListener() {} };
globalThis.window ??= globalThis;
const { samePicture, sameProps } = await import("../../ohhell/server/static/js/html.js");
const { sameSeat } = await import("../../ohhell/server/static/js/table/seat.js");
const { trickCards } = await import("../../ohhell/server/static/js/table/trick.js");
const { sameTopBar } = await import("../../ohhell/server/static/js/table/topbar.js");
const { samePrompt } = await import("../../ohhell/server/static/js/table/prompt.js");
const { sameDrawer } = await import("../../ohhell/server/static/js/table/drawer.js");
const { sameCentre } = await import("../../ohhell/server/static/js/table/view.js");

test("a new array, Set or object with the same items draws the same; a changed item does not", () => {
  assert.ok(samePicture(["AS", "KH"], ["AS", "KH"]));
  assert.ok(!samePicture(["AS", "KH"], ["AS", "QH"]));
  assert.ok(samePicture(new Set(["AS"]), new Set(["AS"])));
  assert.ok(!samePicture(new Set(["AS"]), new Set(["KS"])));
  assert.ok(samePicture([[0, "AS"], [1, "KS"]], [[0, "AS"], [1, "KS"]]));
  assert.ok(samePicture({ place: 1, shared: false }, { place: 1, shared: false }));
  assert.ok(!samePicture({ place: 1 }, { place: 1, shared: true }));
  const onPlay = () => {};
  assert.ok(sameProps({ cards: ["AS"], onPlay }, { cards: ["AS"], onPlay }));
  assert.ok(!sameProps({ cards: ["AS"], onPlay }, { cards: ["AS"], onPlay: () => {} }), "a new callback is a change");
});

function state(changes = {}) {
  return {
    seat: 0, game_over: false, dealer: 1, totals: [0, 5, 0, 0], bids: [1, 2, null, null], has_bid: [true, true, false, false],
    tricks_won: [0, 1, 0, 0], hand_size: 10, current_trick: [[1, "AS"]], version: 7, legal_actions: [],
    phase: "playing", turn: 2, hand_index: 0, hand_count: 19, trump: "H", turn_up: "4H", dealt: true, completed_tricks: [],
    finished_hands: [], can_change_bid: false,
    table: { seats: [{ kind: "human", online: true }, { kind: "bot", bot: "basic" }, { kind: "human", online: true }, { kind: "open" }] },
    ...changes,
  };
}

test("a seat is drawn again when what it shows changed, not when another seat's card is played", () => {
  const props = (s, extra = {}) => ({ s, seat: 1, k: 1, count: 4, name: "Bot 2", acting: false, ...extra });
  const before = state();
  assert.ok(sameSeat(props(before), props(state({ current_trick: [[1, "AS"], [2, "KS"]], version: 8 }))));
  assert.ok(!sameSeat(props(before), props(state({ tricks_won: [0, 2, 0, 0] }))), "its tricks");
  assert.ok(!sameSeat(props(before), props(state({ totals: [0, 7, 0, 0] }))), "its total");
  assert.ok(!sameSeat(props(before), props(state({ dealer: 2 }))), "the dealer's chip");
  const offline = { seats: before.table.seats.map((seat, i) => (i === 1 ? { ...seat, fallback: true } : seat)) };
  assert.ok(!sameSeat(props(before), props(state({ table: offline }))), "its status");
  assert.ok(!sameSeat(props(before), props(before, { acting: true })), "the turn");
  // A bid of another seat that leaves this one's standing as it was: the same picture.
  assert.ok(sameSeat(props(before), props(state({ bids: [1, 2, 3, null] }))));
});

test("a card keeps its key from the trick to its collection; the next deal's same card gets its own", () => {
  const playing = trickCards([[0, "AS"], [1, "KS"]], null);
  const finished = trickCards([], { id: "0-1", cards: [[0, "AS"], [1, "KS"]], winner: 0 });
  assert.deepEqual(playing.map((c) => c.apart + c.card), finished.map((c) => c.apart + c.card));
  assert.equal(finished[0].extra, "collecting winner");
  // The closing trick of hand 1 still going to its winner while hand 2's first card, the same card, is played.
  const both = trickCards([[2, "AS"]], { id: "0-last", cards: [[0, "AS"], [1, "KS"]], winner: 1 });
  const keys = both.map((c) => c.apart + "t-" + c.card);
  assert.equal(new Set(keys).size, keys.length, keys.join(" "));
  assert.deepEqual(both.map((c) => c.seat), [0, 1, 2]);
});

test("two identical cards in one trick or one hand (Bust's second pack) get keys of their own", async () => {
  const { cardKeys } = await import("../../ohhell/server/static/js/table/card.js");
  assert.deepEqual(cardKeys(["2S", "AH", "2S"]), ["2S", "AH", "2S~2"]);
  const trick = trickCards([[1, "2S"], [2, "3H"], [3, "2S"]], null);
  const keys = trick.map((c) => c.apart + "t-" + c.id);
  assert.equal(new Set(keys).size, keys.length, keys.join(" "));
  assert.deepEqual(trick.map((c) => c.card), ["2S", "3H", "2S"]);
  // The closing trick with both 2♠ still on its way while the next hand's first 2♠ is played.
  const both = trickCards([[0, "2S"]], { id: "4-last", cards: [[1, "2S"], [2, "3H"], [3, "2S"]], winner: 3 });
  const all = both.map((c) => c.apart + "t-" + c.id);
  assert.equal(new Set(all).size, all.length, all.join(" "));
  // A finished trick keeps its keys when it starts to be collected.
  const finished = trickCards([], { id: "4-1", cards: [[1, "2S"], [2, "3H"], [3, "2S"]], winner: 3 });
  assert.deepEqual(trick.map((c) => c.apart + c.id), finished.map((c) => c.apart + c.id));
});

test("the top bar is drawn again for a bid or a new hand, not for a card played or a seat's turn", () => {
  const on = { onPanel() {}, onPeek() {} };
  const props = (s, extra = {}) => ({ s, code: "ABCD", names: ["Ann", "Bot 2", "Cy", "Di"], connected: true, panel: null,
    peek: false, unread: 0, ownRandomness: false, ...on, ...extra });
  const before = state();
  assert.ok(sameTopBar(props(before), props(state({ current_trick: [[1, "AS"], [2, "KS"]], turn: 3, version: 8 }))));
  assert.ok(sameTopBar(props(before), props(state({ tricks_won: [0, 2, 0, 0], totals: [0, 6, 0, 0] }))), "the seats show these");
  assert.ok(!sameTopBar(props(before), props(state({ bids: [1, 2, 3, null] }))), "the bids' total");
  assert.ok(!sameTopBar(props(before), props(state({ hand_index: 1, hand_size: 9 }))), "the hand's number and size");
  assert.ok(!sameTopBar(props(before), props(state({ trump: "S", turn_up: "2S" }))), "the trump and the turned card");
  assert.ok(!sameTopBar(props(before), props(state({ completed_tricks: [{ cards: [], winner: 1 }] }))), "the last trick's tool");
  assert.ok(!sameTopBar(props(before), props(state({ finished_hands: [{}] }))), "the history's tool");
  assert.ok(!sameTopBar(props(before), props(state({ table: { ...before.table, spectators: 2 } }))), "the spectators");
  assert.ok(!sameTopBar(props(before), props(before, { unread: 1 })), "the chat's unread count");
  assert.ok(!sameTopBar(props(before), props(before, { connected: false })), "the connection");
});

test("the prompt is drawn again when this player's turn or choices change, not for another seat's bid or card", () => {
  const on = { onAct() {}, onChanging() {}, onHint() {} };
  const props = (s, extra = {}) => ({ s, names: ["Ann", "Bot 2", "Cy", "Di"], forbidden: null, hint: null, changing: false,
    myTurn: false, busy: false, ...on, ...extra });
  const bidding = state({ phase: "bidding", bids: [null, 2, null, null], turn: 2, current_trick: [] });
  assert.ok(samePrompt(props(bidding), props(state({ phase: "bidding", bids: [null, 2, 1, null], turn: 2, current_trick: [], version: 8 }))),
    "another seat's bid, the same seat still to bid");
  assert.ok(!samePrompt(props(bidding), props(state({ phase: "bidding", bids: [null, 2, 1, null], turn: 3, current_trick: [] }))), "whom it waits for");
  const mine = state({ phase: "bidding", bids: [null, 2, 1, 0], turn: 0, current_trick: [],
    legal_actions: [{ type: "bid", seat: 0, bid: 0 }, { type: "bid", seat: 0, bid: 1 }] });
  const same = state({ phase: "bidding", bids: [null, 2, 1, 0], turn: 0, current_trick: [],
    legal_actions: [{ type: "bid", seat: 0, bid: 0 }, { type: "bid", seat: 0, bid: 1 }] });
  assert.ok(samePrompt(props(mine, { myTurn: true }), props(same, { myTurn: true })), "the same bids allowed, new objects");
  const fewer = { ...same, legal_actions: [{ type: "bid", seat: 0, bid: 1 }] };
  assert.ok(!samePrompt(props(mine, { myTurn: true }), props(fewer, { myTurn: true })), "another bid allowed");
  assert.ok(!samePrompt(props(mine, { myTurn: true }), props(same, { myTurn: true, busy: true })), "an action on its way");
  assert.ok(!samePrompt(props(mine), props({ ...same, bids: [1, 2, 1, 0] })), "this player's own bid");
  const playing = state({ turn: 0, current_trick: [[1, "AS"]], trick_suit: "S" });
  assert.ok(!samePrompt(props(playing), props(state({ turn: 0, current_trick: [[1, "AS"]], trick_suit: "H" }))), "the suit led");
  const hint = { version: 7, action: { type: "play", card: "KS" } };
  assert.ok(!samePrompt(props(playing, { hint }), props({ ...playing, version: 8 }, { hint })), "the hint is no longer this turn's");
  const choosing = state({ phase: "choosing_trump", trump_chooser: 0, turn: 0 });
  assert.ok(!samePrompt(props(choosing), props({ ...choosing, version: 8 })), "while trump is chosen, each version (the focus)");
});

test("the drawer is drawn again when its panel's content changes; closed, never", () => {
  const on = { onPanel() {}, onReact() {}, onChat() {} };
  const prefs = { chatMuted: false, mutedNames: [] };
  const props = (s, extra = {}) => ({ s, code: "ABCD", names: ["Ann", "Bot 2", "Cy", "Di"], stake: null, panel: "sheet", history: null,
    chat: [], chatAvailable: true, chatError: "", unread: 0, reactions: null, rulesText: [], prefs, ...on, ...extra });
  const before = state();
  assert.ok(sameDrawer(props(before), props(state({ current_trick: [[1, "AS"], [2, "KS"]], bids: [1, 2, 3, null], version: 8 }))));
  assert.ok(!sameDrawer(props(before), props(state({ totals: [3, 5, 0, 0] }))), "the score sheet's totals");
  assert.ok(!sameDrawer(props(before), props(state({ finished_hands: [{ scores: [1, 2, 3, 4] }] }))), "a finished hand");
  assert.ok(!sameDrawer(props(before, { panel: "chat" }), props(before, { panel: "chat", chat: [{ id: 1, text: "hi" }] })), "a chat line");
  assert.ok(!sameDrawer(props(before, { panel: "settings" }), props(before, { panel: "settings", prefs: { ...prefs, chatMuted: true } })),
    "a setting changed");
  assert.ok(sameDrawer(props(before, { panel: null }), props(state({ totals: [9, 9, 9, 9] }), { panel: null })), "closed");
  assert.ok(!sameDrawer(props(before, { panel: null }), props(before)), "opened");
});

test("the centre line is drawn again when whom the table waits for changes", () => {
  const props = (s, extra = {}) => ({ s, names: ["Ann", "Bot 2", "Cy", "Di"], acting: [2], collecting: false, ...extra });
  const before = state({ current_trick: [] });
  assert.ok(sameCentre(props(before), props(state({ current_trick: [], totals: [1, 1, 1, 1], version: 8 }))));
  assert.ok(!sameCentre(props(before), props(before, { acting: [3] })), "another seat acts");
  assert.ok(!sameCentre(props(before), props(state({ current_trick: [[2, "AS"]] }))), "the trick's first card");
  assert.ok(!sameCentre(props(before), props(before, { collecting: true })), "a trick on its way to its winner");
  assert.ok(!sameCentre(props(before), props(state({ current_trick: [], phase: "bidding" }))), "the phase");
});
