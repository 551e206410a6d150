// A seat's standing (static/js/game.js): as many tricks as the bid is "on target" while tricks
// are left to play (one more would break it), and "made" only once the hand is over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { standing } from "../../ohhell/server/static/js/game.js";

const state = (bids, won, size) => ({ bids, tricks_won: won, hand_size: size, has_bid: bids.map((b) => b !== null) });

test("a 0-bidder before any card is on target, not made", () => {
  assert.equal(standing(state([0, 1, 1], [0, 0, 0], 3), 0).state, "target");
});

test("3 of 3 with tricks left is on target; the last trick played, it is made", () => {
  assert.equal(standing(state([3, 0, 1], [3, 0, 0], 8), 0).state, "target");
  assert.equal(standing(state([3, 0, 5], [3, 0, 5], 8), 0).state, "made");
});

test("over and missed are settled at once", () => {
  assert.deepEqual(standing(state([1, 0, 1], [2, 0, 0], 5), 0), { bid: 1, tricks: 2, state: "over", count: 1 });
  assert.equal(standing(state([4, 0, 0], [0, 3, 0], 4), 0).state, "missed");
});
