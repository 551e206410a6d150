// The history of the game: every finished hand, replayed trick by trick, with each player's
// dealt cards (played ones dimmed), the trick in play order and its winner.
import { html, useState } from "../html.js";
import { t, tn, suitWord } from "../i18n.js";
import { sortHand } from "../cards.js";
import { Card, cardKeys } from "./card.js";

export function History({ data, names }) {
  const [at, setAt] = useState({ hand: -1, trick: 0 });
  if (!data) return html`<p class="muted">…</p>`;
  if (!data.hands.length) return html`<p class="muted">${t("no_hands_yet")}</p>`;
  const handIndex = at.hand < 0 || at.hand >= data.hands.length ? data.hands.length - 1 : at.hand;
  const hand = data.hands[handIndex];
  const n = names.length;
  const tricks = [];
  for (let i = 0; i < hand.plays.length; i += n) tricks.push(hand.plays.slice(i, i + n));
  const trick = Math.max(0, Math.min(at.trick, tricks.length));
  const dealt = {};
  for (const [seat, card] of hand.plays) (dealt[seat] = dealt[seat] || []).push(card);
  // How many of each card each seat has played so far: a seat may hold a card twice (Bust).
  const played = new Map();
  for (const [seat, card] of tricks.slice(0, trick).flat()) played.set(seat + "|" + card, (played.get(seat + "|" + card) || 0) + 1);
  const gone = (seat, cards) => { const left = new Map(); return cards.map((card) => {
    const n = (left.get(card) || 0) + 1; left.set(card, n); return n <= (played.get(seat + "|" + card) || 0); }); };
  const step = (delta) => {
    let h = handIndex, k = trick + delta;
    if (k < 0 && h > 0) { h -= 1; k = 99; }
    else if (k > tricks.length && h < data.hands.length - 1) { h += 1; k = 0; }
    setAt({ hand: h, trick: k });
  };
  const shown = trick > 0 ? tricks[trick - 1] : null;
  const winner = trick > 0 && hand.trick_winners ? hand.trick_winners[trick - 1] : null;
  return html`<div class="history" id="history">
    <div class="row replay-controls">
      <label class="inline"><span class="sr">${t("hand_label")}</span>
        <select id="replay-hand" value=${handIndex} onChange=${(e) => setAt({ hand: Number(e.currentTarget.value), trick: 0 })}>
          ${data.hands.map((h, i) => html`<option value=${i} selected=${i === handIndex}>${t("hand_open", { n: i + 1 })} · ${tn("cards_n", h.size)}</option>`)}
        </select></label>
      <button type="button" id="replay-prev" onClick=${() => step(-1)} aria-label=${t("previous")}>‹</button>
      <span class="replay-where" aria-live="polite">${trick === 0 ? t("deal") : t("trick_n", { n: trick })}</span>
      <button type="button" id="replay-next" onClick=${() => step(1)} aria-label=${t("next")}>›</button>
    </div>
    <p class="muted">${t("dealer")}: ${names[hand.dealer]} · ${t("trump")}: ${suitWord(hand.trump)}</p>
    ${shown ? html`<div class="replay-trick trick-cards">${shown.map(([seat, card], i) => html`<div class=${"replay-played" + (seat === winner ? " winner" : "")} key=${cardKeys(shown.map(([, c]) => c))[i]}>
        <${Card} card=${card} small=${true} /><span class="played-by">${names[seat]}</span></div>`)}</div>
      ${winner !== null && winner !== undefined ? html`<p class="replay-winner">${t("won_by", { name: names[winner] })}</p>` : null}` : null}
    <ul class="replay-seats">${names.map((name, seat) => html`<li key=${seat} class="replay-seat">
      <div class="seat-line"><b>${name}</b> <span class="muted">${t("bid")} ${hand.bids[seat] ?? "–"} · ${t("tricks")} ${hand.tricks[seat]} · ${hand.scores[seat] > 0 ? "+" : ""}${hand.scores[seat]}</span></div>
      <div class="replay-hand">${((cards) => { const keys = cardKeys(cards), out = gone(seat, cards); return cards.map((card, i) => html`<${Card} key=${keys[i]} card=${card} small=${true} extra=${out[i] ? "gone" : ""} />`); })(sortHand(dealt[seat] || [], hand.trump))}</div>
    </li>`)}</ul>
  </div>`;
}
