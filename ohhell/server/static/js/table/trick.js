// The trick on the table: each card lies in front of the player who played it; a finished trick
// stays a moment with its winning card marked, then slides to the winner and is gone.
import { html, memo, useEffect, useRef } from "../html.js";
import { t, cardSpoken } from "../i18n.js";
import { sweep } from "../frame.js";
import { trickDirection } from "./geometry.js";
import { Card, cardKeys } from "./card.js";

const HOLD_MS = 700;

/**
 * What lies on the table, in order: the finished trick's cards (going to the winner), then the
 * trick's being played, each `{seat, card, extra, apart}`. They are one keyed list, so that a
 * card keeps its element when its trick is finished (only its class changes). `apart`: a
 * finished trick's card that is in the trick being played too gets keys of its own: the closing
 * trick of one hand is still on its way to its winner when the next hand's first card, maybe the
 * same card (a new deal), is played; two siblings with one key make Preact patch the wrong one,
 * and two cards with one `data-key` make the new one fly from where the old one lies.
 */
export function trickCards(cards, collecting) {
  // `id`: the card's key in its trick; two identical cards (Bust) get two (cardKeys).
  const ids = cardKeys(cards.map(([, card]) => card));
  const playing = new Set(ids);
  const doneIds = collecting ? cardKeys(collecting.cards.map(([, card]) => card)) : [];
  const done = collecting ? collecting.cards.map(([seat, card], i) => ({ seat, card, id: doneIds[i],
    extra: "collecting" + (seat === collecting.winner ? " winner" : ""), apart: playing.has(doneIds[i]) ? collecting.id + ":" : "" })) : [];
  return [...done, ...cards.map(([seat, card], i) => ({ seat, card, id: ids[i], extra: "", apart: "" }))];
}

function placed({ seat, card, id, extra, apart }, k, count, names) {
  const way = trickDirection(k, count);
  return html`<div class=${"played " + extra} key=${apart + "t-" + id} data-seat=${seat} style=${{ "--dx": way.dx.toFixed(4), "--dy": way.dy.toFixed(4) }}>
    <${Card} card=${card} keyName=${apart + "c-" + id} from=${"seat-" + seat}
      label=${t("played_by", { name: names[seat], card: cardSpoken(card) })} />
  </div>`;
}

/**
 * `cards`: the trick being played ([seat, card] pairs); `collecting`: a finished trick
 * ({cards, winner, id, hurry}) that goes to its winner after a moment, then `onCollected(id)`.
 */
function TrickPicture({ cards, collecting, orderOf, count, names, onCollected }) {
  const box = useRef(null);
  useEffect(() => {
    if (!collecting) return undefined;
    let gone = false;
    const go = () => {
      if (gone || !box.current) return;
      gone = true;
      const nodes = [...box.current.querySelectorAll(".collecting")];
      const spot = document.querySelector(`[data-spot="seat-${collecting.winner}"]`);
      sweep(nodes, spot, () => onCollected(collecting.id));
    };
    const timer = setTimeout(go, collecting.hurry ? 0 : HOLD_MS);
    return () => clearTimeout(timer);
  }, [collecting && collecting.id, collecting && collecting.hurry]);
  const winnerName = collecting && collecting.winner !== null ? names[collecting.winner] : null;
  return html`<div class="trick" ref=${box} aria-label=${t("current_trick")} role="group" data-collecting=${collecting ? collecting.id : undefined}>
    ${trickCards(cards, collecting).map((place) => placed(place, orderOf[place.seat], count, names))}
    <p class="sr" aria-live="polite">${cards.length
      ? cards.map(([seat, card]) => t("played_by", { name: names[seat], card: cardSpoken(card) })).join("; ")
      : winnerName ? t("won_by", { name: winnerName }) : ""}</p>
  </div>`;
}

/** The trick, drawn again only when its cards, the finished trick or the names changed. */
export const Trick = memo(TrickPicture);
