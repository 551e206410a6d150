// One finished hand on the history page: what each player bid and took and what, with every card
// face up, they could have made (the analysis' open-hand facts), the decisions of the hand that
// cost something, the cards dealt, and the verdict on the deal (fairness.js). Each hand folds, so
// that a 19-hand game stays readable on a phone.
import { html } from "../html.js";
import { t, tn, SUIT_SYMBOLS } from "../i18n.js";
import { sortHand } from "../cards.js";
import { Card, cardKeys } from "../table/card.js";
import { OpenHandLine, DecisionSentence, LabelChip } from "./analysis.js";
import { FairChip, FairHand } from "./fairness.js";

/** The trump suit's letter of a hand: the analysis says it; the record gives the turned card. */
function trumpLetter(recordHand, analysed) {
  if (analysed) return analysed.trump;
  const trump = recordHand && recordHand.trump;
  if (!trump) return null;
  return trump.length === 1 ? trump : trump[0] === "X" ? "X" : trump.slice(-1);
}

export function handTitle(index, size, trump) {
  const trumpText = trump ? t("trump_suit", { suit: SUIT_SYMBOLS[trump] || "🃏" }) : t("no_trump_lower");
  return t("hand_title", { hand: index + 1, cards: tn("cards_n", size), trump: trumpText });
}

export function HandEntry({ index, recordHand, analysed, verdict, names, code, open, onToggle }) {
  const size = analysed ? analysed.size : recordHand.size ?? (recordHand.deal ? recordHand.deal[0].length : 0);
  const trump = trumpLetter(recordHand, analysed);
  const dealer = analysed ? analysed.dealer : recordHand.dealer;
  const costly = analysed ? analysed.decisions.filter((d) => d.label) : [];
  const counts = {};
  for (const d of costly) counts[d.label] = (counts[d.label] || 0) + 1;
  const deal = recordHand && recordHand.deal;
  return html`<details class="hand-entry panel" id=${"hand-" + (index + 1)} open=${open}
      onToggle=${(e) => onToggle(index, e.currentTarget.open)}>
    <summary><span class="hand-name">${handTitle(index, size, trump)}</span>
      ${dealer !== undefined && dealer !== null ? html`<span class="muted small"> · ${t("dealer")}: ${names[dealer]}</span>` : null}
      <span class="chips">${["blunder", "mistake", "slip"].filter((l) => counts[l]).map((l) => html`<${LabelChip} key=${l} label=${l} />`)}
        <${FairChip} verdict=${verdict} /></span></summary>
    ${open ? html`<div class="hand-body">
      ${analysed && analysed.open_hand ? html`<p class="muted small">${t("open_hands_intro")}</p>
        <ul class="plain open-hands">${analysed.open_hand.map((facts) => html`<${OpenHandLine} key=${facts.seat} facts=${facts}
          name=${names[facts.seat]} score=${analysed.scores ? analysed.scores[facts.seat] : null} />`)}</ul>` : null}
      ${analysed ? (costly.length ? html`<ol class="decisions">${costly.map((d, i) => html`<li key=${i} class=${"decision label-" + d.label}>
          <${LabelChip} label=${d.label} /> <${DecisionSentence} decision=${d} names=${names} /></li>`)}</ol>`
        : html`<p class="muted small">${t("no_slip_in_hand")}</p>`) : null}
      ${deal ? html`<h4>${t("cards_dealt")}</h4><ul class="plain dealt">${deal.map((cards, seat) => html`<li key=${seat}>
        <span class="who">${names[seat]}</span><span class="dealt-cards">${((sorted) => { const keys = cardKeys(sorted); return sorted.map((card, i) => html`<${Card} key=${keys[i]} card=${card} small=${true} />`); })(sortHand(cards, trump))}</span></li>`)}
        ${recordHand.trump && recordHand.trump.length > 1 ? html`<li><span class="who">${t("turned_card")}</span>
          <span class="dealt-cards"><${Card} card=${recordHand.trump} small=${true} /></span></li>` : null}</ul>` : null}
      <${FairHand} code=${code} verdict=${verdict} names=${names} />
    </div>` : null}
  </details>`;
}

