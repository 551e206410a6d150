// The player's hand: sorted by suit (trump at the right end, colours alternating), fanned in one
// row however many cards, the playable ones raised and the others dimmed when it is their turn.
// Play by click or tap, by dragging to the table, or by keyboard (arrows move, Enter plays).
import { html, memo, useRef } from "../html.js";
import { t, cardSpoken } from "../i18n.js";
import { dragCard } from "../drag.js";
import { fan } from "./geometry.js";
import { CardFace, cardKeys, suitClass } from "./card.js";

function HandPicture({ cards, playable, myTurn, width, cardWidth, hinted, dealer, onPlay }) {
  const box = useRef(null);
  const margin = 10; // the outer cards tilt: keep their corners on the screen
  const layout = fan(cards.length, Math.max(0, width - 2 * margin), cardWidth);
  const middle = (cards.length - 1) / 2;
  const focusAt = (index) => {
    const buttons = box.current ? box.current.querySelectorAll("button.card") : [];
    const target = buttons[Math.max(0, Math.min(buttons.length - 1, index))];
    if (target) target.focus();
  };
  const onKey = (event, index) => {
    if (event.key === "ArrowRight" || event.key === "ArrowDown") { focusAt(index + 1); event.preventDefault(); }
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { focusAt(index - 1); event.preventDefault(); }
    else if (event.key === "Home") { focusAt(0); event.preventDefault(); }
    else if (event.key === "End") { focusAt(cards.length - 1); event.preventDefault(); }
  };
  // One card in the tab order (the first playable one, else the first): the arrows do the rest.
  const firstPlayable = cards.findIndex((card) => playable.has(card));
  const keys = cardKeys(cards);
  const tabStop = firstPlayable >= 0 ? firstPlayable : 0;
  const dropsOnTable = (x, y) => {
    const rect = box.current.getBoundingClientRect();
    return y < rect.top + 8 && x > 0 && x < window.innerWidth;
  };
  return html`<div class=${"hand" + (myTurn ? " my-turn" : "")} id="hand" ref=${box} role="group" aria-label=${t("your_cards")}>
    ${cards.map((card, i) => {
      const legal = playable.has(card);
      // Its name is its own (visually hidden) text, not an aria-label: the corner index people
      // see ("Q♥") is not in "queen of hearts", which axe-core calls a label-content mismatch.
      const label = cardSpoken(card) + (myTurn ? ", " + (legal ? t("card_playable") : t("card_not_playable")) : "");
      const tilt = (i - middle) * layout.tilt;
      const classes = ["card", suitClass(card), legal ? "legal" : "", myTurn && !legal ? "dim" : "", hinted === card ? "hinted" : ""].join(" ");
      return html`<button key=${keys[i]} type="button" class=${classes} data-card=${card} data-key=${"c-" + keys[i]}
          data-from=${dealer !== null ? "seat-" + dealer : undefined} data-order=${i}
          style=${{ left: `${margin + layout.offset + i * layout.step}px`, "--tilt": `${tilt}deg`, "--lift": `${Math.abs(tilt) * 1.2}px`, zIndex: i + 1 }}
          aria-disabled=${legal ? "false" : "true"} tabindex=${i === tabStop ? 0 : -1}
          onClick=${() => legal && onPlay(card)} onKeyDown=${(e) => onKey(e, i)}
          onPointerDown=${(e) => legal && dragCard(e, e.currentTarget, { drop: dropsOnTable, play: () => onPlay(card) })}>
        <${CardFace} card=${card} /><span class="sr">${label}</span>
      </button>`;
    })}
  </div>`;
}

/** The hand, drawn again only when its cards, the playable ones, the turn or the room changed. */
export const Hand = memo(HandPicture);
