// What the table shows, worked out from the server's state (SeatView.to_json plus `table`):
// whose turn it is, each seat's standing in the hand, the running total of the bids, the hook,
// the places at the end. Pure functions: the components only draw what these return.

/** Seats in the order they sit around the table, starting with this connection's own. */
export function seatsFromMe(count, me) {
  const start = me === null || me === undefined ? 0 : me;
  return Array.from({ length: count }, (_, i) => (start + i) % count);
}

/** The seats expected to act now (a bid in secret bidding is everybody's at once). */
export function actingSeats(s) {
  if (!s || s.game_over) return [];
  if (s.turn !== null && s.turn !== undefined) return [s.turn];
  if (s.phase === "bidding") return s.actors || [];
  return [];
}

export function isMyTurn(s) {
  return s && s.seat !== null && actingSeats(s).includes(s.seat) && (s.legal_actions || []).length > 0;
}

/**
 * One seat's standing in the hand: `{bid, tricks, state, count}` where state is
 * "waiting" (no bid yet), "secret" (has bid, hidden), "needs" (count more), "target" (as many
 * tricks as the bid with tricks still to play: one more would break it), "made" (the hand is
 * over and the bid was made), "over" (by count) or "missed" (cannot make it any more: needs more
 * than the tricks left).
 */
export function standing(s, seat) {
  const bid = s.bids[seat];
  const tricks = s.tricks_won[seat] || 0;
  if (bid === null || bid === undefined) return { bid: null, tricks, state: s.has_bid[seat] ? "secret" : "waiting", count: 0 };
  const left = tricksLeft(s);
  if (tricks > bid) return { bid, tricks, state: "over", count: tricks - bid };
  if (tricks === bid) return { bid, tricks, state: left > 0 ? "target" : "made", count: 0 };
  if (bid - tricks > left) return { bid, tricks, state: "missed", count: bid - tricks };
  return { bid, tricks, state: "needs", count: bid - tricks };
}

/** Tricks still to be won in this hand. */
export function tricksLeft(s) {
  const done = (s.tricks_won || []).reduce((a, b) => a + b, 0);
  return Math.max(0, (s.hand_size || 0) - done);
}

/**
 * The running total of the bids against the cards: `{sum, size, all, diff}` (diff < 0: the
 * table bid under the tricks there are, > 0: over), or null before any bid is known.
 */
export function bidTotal(s) {
  const known = s.bids.filter((b) => b !== null && b !== undefined);
  if (!known.length || !s.hand_size) return null;
  const sum = known.reduce((a, b) => a + b, 0);
  return { sum, size: s.hand_size, all: known.length === s.bids.length, diff: sum - s.hand_size };
}

/**
 * The bid the hook forbids the dealer now, for everybody: the dealer's own `forbidden_bid`, else
 * `hook_bid`, which the server sends to every seat to explain the dealer's choice (null when the
 * hook does not bite).
 */
export function forbiddenBid(s) {
  if (s.phase !== "bidding" || s.dealer === null || s.dealer === undefined) return null;
  if (s.forbidden_bid !== null && s.forbidden_bid !== undefined) return s.forbidden_bid;
  return s.hook_bid ?? null;
}

/** The last trick won: the hand's newest completed trick, else (between two hands) the closing one. */
export function lastTrick(s) {
  if (s.completed_tricks && s.completed_tricks.length) return s.completed_tricks[s.completed_tricks.length - 1];
  return s.closing_trick || null;
}

/** Places by total, ties sharing a place: `[{seat, place, shared}]`, best first. */
export function places(totals) {
  const seats = totals.map((total, seat) => ({ seat, total }));
  seats.sort((a, b) => b.total - a.total || a.seat - b.seat);
  return seats.map(({ seat, total }) => ({
    seat, total,
    place: 1 + totals.filter((other) => other > total).length,
    shared: totals.filter((other) => other === total).length > 1,
  }));
}
