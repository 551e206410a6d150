// The trick on the table: each card lies in front of the player who played it; a finished trick
// stays a moment with its winning card marked, then slides to the winner and is gone.
import { html, memo, useEffect, useRef } from "../html.js";
import { t, cardSpoken } from "../i18n.js";
import { sweep } from "../frame.js";
import { trickDirection } from "./geometry.js";
import { Card } from "./card.js";

const HOLD_MS = 700;

/**
 * `trickId` keeps a finished trick's cards apart from the next trick's: the closing trick of one
 * hand is still on its way to its winner when the next hand's first card, maybe the same card
 * (a new deal), is played, and two children with one key would make Preact patch the wrong one.
 */
function placed(seat, card, k, count, extra, names, trickId) {
  const way = trickDirection(k, count);
  return html`<div class=${"played " + (extra || "")} key=${trickId + "t-" + card} data-seat=${seat} style=${{ "--dx": way.dx.toFixed(4), "--dy": way.dy.toFixed(4) }}>
    <${Card} card=${card} keyName=${"c-" + card} from=${"seat-" + seat}
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
    ${collecting ? collecting.cards.map(([seat, card]) =>
      placed(seat, card, orderOf[seat], count, "collecting" + (seat === collecting.winner ? " winner" : ""), names, collecting.id + ":")) : null}
    ${cards.map(([seat, card]) => placed(seat, card, orderOf[seat], count, "", names, ""))}
    <p class="sr" aria-live="polite">${cards.length
      ? cards.map(([seat, card]) => t("played_by", { name: names[seat], card: cardSpoken(card) })).join("; ")
      : winnerName ? t("won_by", { name: winnerName }) : ""}</p>
  </div>`;
}

/** The trick, drawn again only when its cards, the finished trick or the names changed. */
export const Trick = memo(TrickPicture);
