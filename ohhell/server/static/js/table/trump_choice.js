// The choice of trump by the highest bidder (`trump: chosen`, Al Okuneff's rules): the chooser
// gets four suit buttons, everyone else is told whom they are waiting for. The buttons are plain
// <button>s in one group: Tab reaches them, Enter or Space chooses, and the first one takes the
// focus when the choice comes up, so a keyboard player can answer at once.
import { html, useEffect, useRef } from "../html.js";
import { t, suitWord, SUIT_SYMBOLS } from "../i18n.js";

export const SUITS = ["S", "H", "D", "C"];

/** Whether `s` is the moment the highest bidder chooses trump. */
export function choosingTrump(s) {
  return s.phase === "choosing_trump" && s.trump_chooser !== null && s.trump_chooser !== undefined;
}

/** What the bar above the table says of a trump the highest bidder chooses: that it comes after
 * the bidding, who chooses it, or who chose it; `null` in a hand whose trump is not chosen. */
export function trumpNote(s, names) {
  if (!s.trump_by_choice) return null;
  const chooser = s.trump_chooser;
  if (chooser === null || chooser === undefined) return s.trump ? null : t("trump_after_bidding");
  return s.trump ? t("trump_chosen_by", { name: names[chooser] }) : t("trump_chooser_is", { name: names[chooser] });
}

/**
 * `s`: the game's state; `names`; `hint`: a suggested action (its suit button is marked);
 * `onAct(action)`: sends `{type: "trump", suit}`; `busy`: an action is on its way.
 */
export function TrumpChoice({ s, names, hint, onAct, busy }) {
  const first = useRef(null);
  const me = s.seat;
  const mine = me !== null && s.trump_chooser === me;
  const legal = (s.legal_actions || []).filter((a) => a.type === "trump");
  useEffect(() => { if (mine && first.current) first.current.focus(); }, [mine, s.version]);
  if (!mine || !legal.length) {
    return html`<p class="waiting" id="trump-waiting">${t("waiting_for_trump", { name: names[s.trump_chooser] })}</p>`;
  }
  const buttons = SUITS.map((suit, index) => html`<button type="button" key=${suit} ref=${index === 0 ? first : null}
    class=${"suit-button suit-" + suit + (hint && hint.type === "trump" && hint.suit === suit ? " hinted" : "")}
    data-suit=${suit} disabled=${busy || !legal.some((a) => a.suit === suit)}
    aria-label=${t("choose_trump_suit", { suit: suitWord(suit) })}
    onClick=${() => onAct({ type: "trump", suit })}><span aria-hidden="true">${SUIT_SYMBOLS[suit]}</span> ${suitWord(suit)}</button>`);
  return html`<p class="prompt your-turn" role="status">${t("choose_trump")}</p>
    <div class="suit-buttons" role="group" aria-label=${t("trump")} id="trump-choice">${buttons}</div>`;
}
