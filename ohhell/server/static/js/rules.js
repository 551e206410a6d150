// The rules of Oh Hell in the browser: the checks the server makes on a bid and on a hand's
// tricks (the bid range, the hook, tricks that add up), the scores of a hand, and a sheet moved
// on by one entry. The server's engine (ohhell/game.py, ohhell/scoring.py) stays the judge; this
// is the same arithmetic, so that a page answers at once and goes on without the network (the
// scorekeeper offline). tests/server/test_browser_offline.py holds its answers to the server's on
// the same entries, for every preset. (The table page still shows the hook the server sends
// in its state, game.js `forbiddenBid`; `hookBid` is the same rule, for it to share.)
//
// A sheet is the server's sheet JSON (ohhell/server/web/sheets.py, `sheet_json`); its `plan`
// carries the rules these functions need and the hands to come.

/** A refused entry: `key` names the client text that explains it, `params` fills it. */
export class Refusal extends Error {
  constructor(key, params) { super(key); this.key = key; this.params = params || {}; }
}

/** The bids a player may make in a hand of `size` cards: 0 … size. */
export function bidRange(size) { return Array.from({ length: size + 1 }, (_, bid) => bid); }

/**
 * The bid the hook forbids the dealer, or null: with the hook, bidding in turn, when the dealer
 * bids now, the bid that would make the bids add up to the cards (if it is a bid at all).
 */
export function hookBid({ hook, bidding }, dealer, bidder, bids, size) {
  if (!hook || bidding !== "in-turn" || bidder !== dealer) return null;
  const others = bids.reduce((sum, bid, seat) => sum + (seat !== dealer && bid !== null && bid !== undefined ? bid : 0), 0);
  const forbidden = size - others;
  return forbidden >= 0 && forbidden <= size ? forbidden : null;
}

/** One player's score for a hand (ohhell/scoring.py, hand_score). `bid` null: did not bid. */
export function handScore(plan, bid, tricks, size) {
  const scoring = plan.scoring;
  if (bid === null || bid === undefined) return tricks;
  if (bid === tricks) {
    if (bid === 0) {
      if (plan.zero_bid === "5") return 5;
      if (plan.zero_bid === "5-plus-size") return 5 + size;
      if (scoring === "7-truf") return 5 * size;
      if (scoring === "boerenbridge") return 20;
    }
    if (scoring === "exact") return 10 + bid;
    if (scoring === "trick-plus-bonus" || scoring === "boerenbridge") return 10 + tricks;
    if (scoring === "german-bridge" || scoring === "triangular-penalty") return 10 + bid * bid;
    return 10 * bid; // 7-truf
  }
  if (scoring === "exact") return 0;
  if (scoring === "german-bridge") return -((bid - tricks) ** 2);
  if (scoring === "triangular-penalty") {
    const miss = Math.abs(bid - tricks);
    return (-5 * miss * (miss + 1)) / 2;
  }
  return tricks; // trick-plus-bonus, 7-truf, boerenbridge: 1 per trick
}

/** The new total after a hand: past a target score it bounces back. */
export function addToTotal(plan, total, score) {
  const next = total + score;
  const target = plan.target_score;
  return target !== null && target !== undefined && next > target ? target - (next - target) : next;
}

/** The seats that bid in a hand dealt by `dealer`, in order (none at or past `no_bid_from`). */
export function bidOrder(plan, dealer, totals) {
  const n = plan.players;
  const order = Array.from({ length: n }, (_, offset) => (dealer + 1 + offset) % n);
  return order.filter((seat) => plan.no_bid_from === null || plan.no_bid_from === undefined || totals[seat] < plan.no_bid_from);
}

/** The winners of a finished game: everyone at the target score, else the highest total. */
export function winners(plan, totals) {
  const target = plan.target_score;
  const best = target !== null && target !== undefined && totals.includes(target) ? target : Math.max(...totals);
  return totals.flatMap((total, seat) => (total === best ? [seat] : []));
}

function copy(sheet) { return JSON.parse(JSON.stringify(sheet)); }
function whole(value) { return Number.isInteger(value); }

function nextBidder(sheet) {
  return sheet.bid_order.find((seat) => sheet.bids[seat] === null) ?? null;
}

function settle(sheet) {
  // What follows from the bids so far: who bids next and what the hook forbids them, and (trump
  // chosen by the highest bidder) who chooses once every bid is in.
  sheet.next_bidder = sheet.finished ? null : nextBidder(sheet);
  sheet.forbidden_bid = sheet.next_bidder === null ? null
    : hookBid(sheet.plan, sheet.dealer, sheet.next_bidder, sheet.bids, sheet.hand_size);
  const chosen = !sheet.finished && ((sheet.plan.hands[sheet.hand_index] || {}).chosen || false);
  sheet.trump_is_chosen = chosen;
  sheet.trump_chooser = chosen && sheet.next_bidder === null && !sheet.trump ? highestBidder(sheet) : null;
}

/** The seat that chooses trump (ohhell/game.py, `_highest_bidder`): the highest bid, the first of
 * equal highest bids in bidding order; left of the dealer when nobody bids. */
export function highestBidder(sheet) {
  const order = sheet.bid_order.length ? sheet.bid_order : [(sheet.dealer + 1) % sheet.plan.players];
  let best = order[0];
  for (const seat of order) if ((sheet.bids[seat] ?? 0) > (sheet.bids[best] ?? 0)) best = seat;
  return best;
}

function startHand(sheet) {
  // The hand's entry on the sheet, made by its first entry (a bid, or the trump).
  if (sheet.hands.length > sheet.hand_index) return sheet.hands[sheet.hand_index];
  const hand = { dealer: sheet.dealer, size: sheet.hand_size, trump: sheet.trump, bids: [...sheet.bids],
                 tricks: sheet.names.map(() => 0), scores: null };
  sheet.hands.push(hand);
  sheet.entered_trumps = [...(sheet.entered_trumps || []), null];
  return hand;
}

const SUIT_LETTERS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C", S: "S", H: "H", D: "D", C: "C" };
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

/** A trump as the record writes it: a suit letter ("H"), a card ("7H", "TH"), or null. */
export function normalTrump(text) {
  const value = (text || "").trim().toUpperCase();
  if (!value) return null;
  if (value.length === 1 || Object.keys(SUIT_LETTERS).includes(value)) {
    if (!SUIT_LETTERS[value]) throw new Refusal("sk_bad_trump", { text });
    return SUIT_LETTERS[value];
  }
  const suit = SUIT_LETTERS[value.slice(-1)];
  let rank = value.slice(0, -1);
  if (rank === "10") rank = "T";
  if (!suit || !RANKS.includes(rank)) throw new Refusal("sk_bad_trump", { text });
  return rank + suit;
}

/**
 * The sheet after one entry, worked out here (the server does the same and stays the judge):
 * `{op: "bid", seat, bid}`, `{op: "tricks", tricks}` (by seat) or `{op: "trump", trump}`.
 * Throws a Refusal for an entry the rules do not allow; other changes (edit, undo) need the server.
 */
export function applyEntry(sheet, change) {
  const next = copy(sheet);
  const names = next.names;
  if (next.finished) throw new Refusal("sk_game_is_over");
  if (change.op === "trump") {
    if (next.bids.some((bid) => bid !== null)) throw new Refusal("sk_trump_before_bids");
    const entered = normalTrump(change.trump);
    startHand(next);
    next.entered_trumps[next.hand_index] = entered;
    next.trump = entered ? entered.slice(-1) : (next.plan.hands[next.hand_index] || {}).trump || null;
    next.hands[next.hand_index].trump = next.trump;
    return next;
  }
  if (change.op === "choose_trump") {
    if (next.trump_chooser === null || next.trump_chooser === undefined) throw new Refusal("sk_no_trump_choice");
    const suit = SUIT_LETTERS[(change.suit || "").trim().toUpperCase()];
    if (!suit) throw new Refusal("sk_bad_trump", { text: change.suit || "" });
    const hand = startHand(next);
    next.trump = suit;
    hand.trump = suit;
    settle(next);
    return next;
  }
  if (change.op === "bid") {
    const { seat, bid } = change;
    if (next.next_bidder === null) throw new Refusal("sk_all_have_bid");
    if (seat !== next.next_bidder) throw new Refusal("sk_not_their_turn", { name: names[next.next_bidder] });
    if (!whole(bid) || bid < 0 || bid > next.hand_size) throw new Refusal("sk_bid_range", { name: names[seat], size: next.hand_size });
    if (bid === next.forbidden_bid) throw new Refusal("sk_hook", { name: names[seat], bid });
    const hand = startHand(next);
    next.bids[seat] = bid;
    hand.bids = [...next.bids];
    settle(next);
    return next;
  }
  if (change.op === "tricks") {
    const tricks = change.tricks;
    if (next.next_bidder !== null) throw new Refusal("sk_bids_first");
    if (next.trump_chooser !== null && next.trump_chooser !== undefined) throw new Refusal("sk_choose_trump_first", { name: names[next.trump_chooser] });
    if (!Array.isArray(tricks) || tricks.length !== names.length || !tricks.every((t) => whole(t) && t >= 0 && t <= next.hand_size)) {
      throw new Refusal("sk_tricks_range", { size: next.hand_size });
    }
    const sum = tricks.reduce((a, b) => a + b, 0);
    if (sum !== next.hand_size) throw new Refusal("sk_tricks_add_up", { sum, size: next.hand_size });
    const hand = startHand(next);
    const plan = next.plan;
    hand.tricks = [...tricks];
    hand.scores = tricks.map((took, seat) => handScore(plan, hand.bids[seat], took, hand.size));
    next.totals = next.totals.map((total, seat) => addToTotal(plan, total, hand.scores[seat]));
    next.totals_by_hand = [...next.totals_by_hand, [...next.totals]];
    next.hand_index += 1;
    const upcoming = plan.hands[next.hand_index];
    const reached = plan.target_score !== null && plan.target_score !== undefined && next.totals.includes(plan.target_score);
    next.finished = !upcoming || reached || (plan.hand_count !== null && next.hand_index >= plan.hand_count);
    next.can_undo = true;
    if (next.finished) {
      Object.assign(next, { dealer: null, hand_size: null, bid_order: [], bids: names.map(() => null), trump: null,
                            trump_is_turned: false, winners: winners(plan, next.totals) });
    } else {
      next.dealer = (plan.first_dealer + next.hand_index) % plan.players;
      next.hand_size = upcoming.size;
      next.bid_order = bidOrder(plan, next.dealer, next.totals);
      next.bids = names.map(() => null);
      next.trump = upcoming.trump;
      next.trump_is_turned = upcoming.turned;
    }
    settle(next);
    return next;
  }
  throw new Refusal("sk_needs_network");
}
