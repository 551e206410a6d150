// The end of a hand (each seat's bid, tricks, made or missed, points and new total; it stays
// until dismissed or the next hand's play) and the end of the game (places, shared places shown
// as such, the chart, Rematch and New table).
import { html } from "../html.js";
import { t, tn, suitWord } from "../i18n.js";
import { places } from "../game.js";
import { Chart } from "../sheet.js";
import { Settlement } from "../settlement.js";
import { placeText } from "./seat.js";

/** A finished hand; `botBid`: what the hint bot would have bid with this player's cards (the "teach" setting), if asked. */
export function HandSummary({ hand, number, names, me, botBid, onClose }) {
  return html`<section class="summary panel" id="hand-summary" aria-labelledby="summary-title">
    <header class="row spread"><h2 id="summary-title">${t("hand_done", { n: number })}</h2>
      <button type="button" class="quiet close" id="summary-close" onClick=${onClose} aria-label=${t("close")}>✕</button></header>
    <p class="muted">${tn("cards_n", hand.size)} · ${t("trump")}: ${suitWord(hand.trump)}</p>
    <table class="summary-table">
      <thead><tr><th scope="col">${t("player")}</th><th scope="col">${t("bid")}</th><th scope="col">${t("tricks")}</th><th scope="col">${t("points")}</th><th scope="col">${t("total")}</th></tr></thead>
      <tbody>${names.map((name, seat) => {
        const made = hand.bids[seat] === hand.tricks[seat];
        return html`<tr key=${seat} class=${(made ? "made" : "missed") + (seat === me ? " me" : "")}>
          <th scope="row" class="name">${name}</th><td>${hand.bids[seat] ?? "–"}</td><td>${hand.tricks[seat]}</td>
          <td><span class="verdict">${made ? "✓" : "✗"}</span> ${hand.scores[seat] > 0 ? "+" : ""}${hand.scores[seat]}<span class="sr">${made ? t("bid_made") : t("bid_missed")}</span></td>
          <td><b>${hand.totals[seat]}</b></td></tr>`;
      })}</tbody>
    </table>
    ${botBid !== undefined && me !== null ? html`<p class="teach" id="teach-line">${botBid === hand.bids[me]
      ? t("teach_same", { bid: botBid }) : t("teach_line", { bid: botBid, mine: hand.bids[me] })}</p>` : null}
    <button type="button" class="primary" onClick=${onClose}>${t("continue")}</button>
  </section>`;
}

/** The host started a rematch: this player chooses to play again or to leave (nobody is moved unasked). */
function RematchOffer({ onAccept, onLeave }) {
  return html`<div class="rematch-offer" id="rematch-offer" role="alertdialog" aria-labelledby="rematch-offer-text">
    <p id="rematch-offer-text"><strong>${t("rematch_offer")}</strong></p>
    <div class="row"><button type="button" class="primary" id="rematch-accept" onClick=${onAccept}>${t("rematch_play")}</button>
      <button type="button" id="rematch-leave" onClick=${onLeave}>${t("rematch_leave")}</button></div>
  </div>`;
}

/** The game's end: the winners and the way on (Rematch, History…) first, where a 1366×800 screen shows
 * them without scrolling; the places, the chart and the settlement below. */
export function GameOver({ s, names, host, rematch, onRematch, onNewTable, onSheet, historyPath, onHistory, stake, offer, onAccept, onLeave }) {
  const ranking = places(s.totals);
  return html`<section class="game-over panel" id="game-over" aria-labelledby="game-over-title">
    <h2 id="game-over-title">${t("game_over")}</h2>
    ${offer ? html`<${RematchOffer} onAccept=${onAccept} onLeave=${onLeave} />` : null}
    <p class="winners">${tn("winners", s.winners.length, { names: s.winners.map((w) => names[w]).join(", ") })}</p>
    <div class="row actions">
      ${host ? html`<button type="button" class="primary" id="rematch" disabled=${!rematch.available || rematch.asked} onClick=${onRematch}>${t("rematch")}</button>`
        : html`<span class="muted" id="rematch-wait">${t("rematch_host")}</span>`}
      <button type="button" id="new-table" onClick=${onNewTable}>${t("new_game")}</button>
      <button type="button" id="show-sheet-end" onClick=${onSheet}>${t("score_sheet")}</button>
      <a class="button" id="game-history" href=${historyPath} onClick=${(e) => { e.preventDefault(); onHistory(); }}>${t("game_history_link")}</a>
    </div>
    ${rematch.error ? html`<p class="error" role="alert">${rematch.error}</p>` : null}
    <ol class="places">${ranking.map((p) => html`<li key=${p.seat} class=${"place-" + p.place + (p.seat === s.seat ? " me" : "")}>
      <span class="place">${placeText(p)}</span> <span class="name">${names[p.seat]}</span> <b>${p.total}</b></li>`)}</ol>
    <${Chart} names=${names} series=${s.finished_hands.map((h) => h.totals)} />
    <${Settlement} names=${names} totals=${s.totals} stake=${stake} />
  </section>`;
}
