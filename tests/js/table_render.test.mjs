// What decides how little a table update draws again (ohhell/server/static/js/html.js's
// samePicture and memo, table/seat.js's sameSeat, table/trick.js's trickCards), under Node: pure
// functions, no DOM. Run with `node --test tests/js/` (Node 20+), or through
// tests/server/test_client_js.py. The browser side: tests/server/test_browser_table_speed.py.
import { test } from "node:test";
import assert from "node:assert/strict";

// The seat's and the trick's modules reach the player's settings (storage.js) when they load,
// which touches the page: as much of one as that needs.
const stored = new Map();
globalThis.localStorage ??= { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, String(v)), removeItem: (k) => stored.delete(k) };
globalThis.document ??= { documentElement: { classList: { toggle() {} } }, title: "" };
globalThis.window ??= globalThis;
const { samePicture, sameProps } = await import("../../ohhell/server/static/js/html.js");
const { sameSeat } = await import("../../ohhell/server/static/js/table/seat.js");
const { trickCards } = await import("../../ohhell/server/static/js/table/trick.js");

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
