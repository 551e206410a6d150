// Provably fair deals on the history page (docs/fairness.md): the server's verdict on each
// finished hand (GET /api/tables/{code}/verify: verified or not and why, in the page's
// language), the hand's commitment, seed and contributions, and whether the contribution this
// browser kept (fair.js) is the one in the record — the check only the player can make.
import { html } from "../html.js";
import { t, tn } from "../i18n.js";
import { ownContribution, contributionFor } from "../fair.js";

const MISSING_KEYS = { bot: "fair_missing_bot", timeout: "fair_missing_timeout", away: "fair_missing_away" };

/** The whole game's verdict, and how many of its deals hold this browser's randomness. */
export function FairSummary({ code, verify }) {
  const hands = verify.hands;
  if (!hands.length) return html`<p class="muted">${t("no_hands_yet")}</p>`;
  const own = hands.filter((hand) => ownContribution(code, hand.hand, hand.fair).state === "in").length;
  return html`<div class="fair-summary">
    <p class=${"fair-verdict " + (verify.verified ? "ok" : "bad")} id="fair-verdict">
      <span aria-hidden="true">${verify.verified ? "✔" : "✘"}</span> ${verify.verified ? t("fair_all_verified") : t("fair_not_all")}</p>
    ${own ? html`<p id="fair-own-count">${tn("fair_own_count", own)}</p>` : null}
    <p class="muted small">${t("fair_how")}</p>
  </div>`;
}

/** A short mark for a hand's title: verified or not. */
export function FairChip({ verdict }) {
  if (!verdict) return null;
  return html`<span class=${"chip " + (verdict.verified ? "fair-ok" : "fair-bad")}>
    ${verdict.verified ? "✔ " : "✘ "}${verdict.verified ? t("fair_verified") : t("fair_not_verified")}</span>`;
}

/** One hand's verdict (the server's sentence), this browser's contribution, and the numbers. */
export function FairHand({ code, verdict, names }) {
  if (!verdict) return null;
  const fair = verdict.fair || null;
  const own = ownContribution(code, verdict.hand, fair);
  let ownLine = null;
  if (own.state === "in") ownLine = html`<p class="fair-own ok">${t("fair_own_in")}</p>`;
  else if (own.state === "refused") ownLine = html`<p class="fair-own muted">${t("fair_own_refused")}</p>`;
  else if (own.state === "other") {
    const sent = contributionFor(code, verdict.hand).value;
    ownLine = html`<p class="fair-own bad">${t("fair_own_other", { value: sent })}</p>`;
  }
  return html`<div class="fair-hand" data-hand=${verdict.hand}>
    <p class=${"fair-message " + (verdict.verified ? "ok" : "bad")}>${verdict.message}</p>
    ${ownLine}
    ${fair ? html`<details class="fair-data"><summary>${t("fair_data")}</summary><dl class="hex-list">
      <dt>${t("fair_commitment")}</dt><dd><code class="hex">${fair.commitment}</code></dd>
      ${fair.seed ? html`<dt>${t("fair_seed")}</dt><dd><code class="hex">${fair.seed}</code></dd>` : null}
      ${fair.contributions ? html`<dt>${t("fair_contributions")}</dt><dd><ul class="plain contributions">
        ${fair.contributions.map((value, seat) => html`<li key=${seat} class=${own.seat === seat ? "mine" : ""}>
          <span class="who">${names[seat]}:</span> ${value ? html`<code class="hex">${value}</code>`
            : html`<span class="muted">${MISSING_KEYS[(fair.missing || [])[seat]] ? t(MISSING_KEYS[fair.missing[seat]]) : "–"}</span>`}</li>`)}
      </ul></dd>` : null}
    </dl></details>` : null}
  </div>`;
}
