// Cards as the table shows them: a hand sorted by suit with the trump suit at the right end and
// the colours alternating, highest card first within a suit.
const RANKS = "23456789TJQKA";
const RED = new Set(["H", "D"]);
const BASE_ORDER = ["S", "H", "C", "D"];

export const suitOf = (card) => (card[0] === "X" ? "X" : card.slice(-1));
export const rankOf = (card) => (card[0] === "X" ? 99 : RANKS.indexOf(card.slice(0, -1)));
export const isRed = (suit) => RED.has(suit);

function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** The order of the suits in a hand: colours alternate as far as they can, trump last. */
export function suitOrder(suits, trump) {
  const plain = BASE_ORDER.filter((s) => suits.has(s) && s !== trump);
  const tail = trump && suits.has(trump) ? [trump] : [];
  let best = null, bestClashes = Infinity;
  for (const order of permutations(plain)) {
    const full = [...order, ...tail];
    let clashes = 0;
    for (let i = 1; i < full.length; i++) if (isRed(full[i]) === isRed(full[i - 1])) clashes += 1;
    if (clashes < bestClashes) { best = full; bestClashes = clashes; }
  }
  return [...(best || []), "X"];
}

/** A hand sorted for display (cards the seat cannot see, "??", stay at the end). */
export function sortHand(cards, trump) {
  const suits = new Set(cards.map(suitOf));
  const order = suitOrder(suits, trump);
  const place = (card) => (card === "??" ? 99 : order.indexOf(suitOf(card)));
  return [...cards].sort((a, b) => place(a) - place(b) || rankOf(b) - rankOf(a) || (a < b ? -1 : 1));
}
