// One card face: its corner index (rank over suit, what stays visible in a tight fan), a large
// suit in the middle, colours by suit (four colours when the player asks).
import { html } from "../html.js";
import { cardFace, cardSpoken } from "../i18n.js";

/** The inside of a card (used in buttons, in the trick and on the score sheet). */
export function CardFace({ card }) {
  const face = cardFace(card);
  if (face.back) return html`<span class="card-back" aria-hidden="true"></span>`;
  return html`<span class="index" aria-hidden="true"><b>${face.rank}</b><i>${face.suit}</i></span>
    <span class="pip" aria-hidden="true">${face.suit}</span>`;
}

export function suitClass(card) {
  if (card === "??" || card === "hidden") return "back";
  return card[0] === "X" ? `joker joker-${card[1]}` : `suit-${card.slice(-1)}`;
}

/**
 * Keys for a list of card names in which a name may come twice (Bust's second pack: two
 * identical cards in one hand or one trick): the first of a name keys as its name, a repeat as
 * `name~2`, so that no two siblings share a key (Preact would patch the wrong one, and a
 * `data-key` animation would fly the wrong card).
 */
export function cardKeys(cards) {
  const seen = new Map();
  return cards.map((card) => {
    const count = (seen.get(card) || 0) + 1;
    seen.set(card, count);
    return count === 1 ? card : `${card}~${count}`;
  });
}

/** A card that is only shown (the trick, the turned card, the replay). */
export function Card({ card, small, extra, keyName, from, order, label }) {
  return html`<div class=${`card ${suitClass(card)} ${small ? "small" : ""} ${extra || ""}`} data-card=${card}
      data-key=${keyName} data-from=${from} data-order=${order} role="img" aria-label=${label || cardSpoken(card)}>
    <${CardFace} card=${card} /></div>`;
}
