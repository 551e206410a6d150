// Money: who pays whom how much when a game is played for a stake (seed 003: each player pays
// or receives the difference between their total and the average, times the stake). The same
// sums as ohhell.scoring.settlement and payments, so the web says what `ohhell replay` says.
import { html } from "./html.js";
import { t } from "./i18n.js";

/** What each seat receives (positive) or pays (negative). */
export function settlement(totals, stake) {
  const average = totals.reduce((a, b) => a + b, 0) / totals.length;
  return totals.map((total) => (total - average) * stake);
}

/** [{from, to, amount}]: each seat that owes pays the seats owed, both in seat order. */
export function payments(totals, stake) {
  const nets = settlement(totals, stake);
  const owing = nets.map((net, seat) => [seat, -net]).filter(([, owed]) => owed > 1e-9);
  const owed = nets.map((net, seat) => [seat, net]).filter(([, due]) => due > 1e-9);
  const out = [];
  let payer = 0, payee = 0;
  while (payer < owing.length && payee < owed.length) {
    const amount = Math.min(owing[payer][1], owed[payee][1]);
    if (amount > 1e-9) out.push({ from: owing[payer][0], to: owed[payee][0], amount });
    owing[payer][1] -= amount;
    owed[payee][1] -= amount;
    if (owing[payer][1] <= 1e-9) payer += 1;
    if (owed[payee][1] <= 1e-9) payee += 1;
  }
  return out;
}

/** 2 decimals, or none for a whole amount (as ohhell.textsheet.format_money). */
export function formatMoney(amount) {
  return Math.abs(amount - Math.round(amount)) < 1e-9 ? String(Math.round(amount)) : amount.toFixed(2);
}

/** The payments of a finished game played for money; nothing when there is no stake. */
export function Settlement({ names, totals, stake }) {
  if (!stake) return null;
  const list = payments(totals, stake);
  return html`<div class="settlement" id="settlement">
    <p><strong>${t("money_title", { stake: formatMoney(stake) })}</strong></p>
    ${list.length ? html`<ul>${list.map((p, i) => html`<li key=${i}>${t("money_pays",
      { payer: names[p.from], payee: names[p.to], amount: formatMoney(p.amount) })}</li>`)}</ul>`
      : html`<p>${t("money_nobody")}</p>`}
  </div>`;
}
