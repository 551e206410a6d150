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

/** A card that is only shown (the trick, the turned card, the replay). */
export function Card({ card, small, extra, keyName, from, order, label }) {
  return html`<div class=${`card ${suitClass(card)} ${small ? "small" : ""} ${extra || ""}`} data-card=${card}
      data-key=${keyName} data-from=${from} data-order=${order} role="img" aria-label=${label || cardSpoken(card)}>
    <${CardFace} card=${card} /></div>`;
}
