// The score sheet and the chart of totals, shared by the table and the scorekeeper. On a phone
// the hand column stays put while the player columns scroll, and each player takes one compact
// column (bid/tricks above, as the terminal writes it, the hand's points, the running total
// below); a hand not scored yet shows its tricks as "–", not 0.
import { html } from "./html.js";
import { t, SUIT_SYMBOLS } from "./i18n.js";
import { Settlement } from "./settlement.js";

export const PLAYER_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];

function trumpMark(trump) {
  if (!trump) return html`<span class="muted">–</span>`;
  return html`<span class=${"suit-" + trump}>${SUIT_SYMBOLS[trump] || "🃏"}</span>`;
}

/**
 * `hands`: [{size, dealer, trump, bids, tricks, scores, totals}] (scores null while a hand is
 * being played); `extra(index)`: an optional last cell per row (the scorekeeper's Edit);
 * `stake`: the money per point of a finished game played for money (who pays whom follows).
 */
export function ScoreTable({ names, hands, totals, extra, highlight, stake }) {
  // Running totals: a table's finished hands carry them, the scorekeeper's are summed here.
  const sums = names.map(() => 0);
  const running = hands.map((h) => {
    if (!h.scores) return null;
    h.scores.forEach((points, seat) => { sums[seat] += points; });
    return h.totals || [...sums];
  });
  return html`<div class="sheet-scroll" tabindex="0" role="region" aria-label=${t("score_sheet")}>
    <table class="score-table">
      <caption class="muted small">${t("sheet_legend")}</caption>
      <thead><tr>
        <th class="sticky" scope="col">#</th>
        ${names.map((name, seat) => html`<th scope="col" key=${seat} class=${highlight === seat ? "me" : ""}>
          <i class=${"swatch colour-" + (seat % PLAYER_COLOURS.length)}></i><span class="name" title=${name}>${name}</span></th>`)}
        ${extra ? html`<th><span class="sr">${t("sk_edit")}</span></th>` : null}
      </tr></thead>
      <tbody>${hands.map((h, index) => html`<tr key=${index}>
        <th class="sticky" scope="row"><b>${index + 1}</b> <span class="muted">${h.size}</span> ${trumpMark(h.trump)}
          <span class="sr">${t("dealer")}: ${names[h.dealer]}</span></th>
        ${names.map((_, seat) => {
          const bid = h.bids[seat], tricks = h.tricks ? h.tricks[seat] : null, scored = !!h.scores;
          const made = scored && bid === tricks;
          return html`<td key=${seat} class=${"cell " + (scored ? (made ? "made" : "missed") : "") + (h.dealer === seat ? " dealt" : "")}>
            <span class="bt">${bid ?? "–"}/${scored ? tricks : "–"}</span>
            ${scored ? html`<span class="pts">${h.scores[seat] > 0 ? "+" : ""}${h.scores[seat]}</span><span class="run">${running[index][seat]}</span>` : null}
          </td>`;
        })}
        ${extra ? html`<td>${extra(index)}</td>` : null}
      </tr>`)}</tbody>
      <tfoot><tr><th class="sticky" scope="row">${t("total")}</th>
        ${totals.map((total, seat) => html`<td key=${seat} class="num"><strong>${total}</strong></td>`)}
        ${extra ? html`<td></td>` : null}</tr></tfoot>
    </table>
    <${Settlement} names=${names} totals=${totals} stake=${stake} />
  </div>`;
}

/** Totals after each hand, one line per player. */
export function Chart({ names, series }) {
  const width = 640, height = 240, pad = 34;
  const all = series.flat();
  const lo = Math.min(0, ...all), hi = Math.max(10, ...all);
  const count = Math.max(1, series.length);
  const x = (i) => pad + (i * (width - 2 * pad)) / count;
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / (hi - lo || 1);
  return html`<figure class="chart-box">
    <svg class="chart" viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${t("chart")}>
      <line class="axis" x1=${pad} y1=${y(0)} x2=${width - pad} y2=${y(0)} />
      <line class="axis" x1=${pad} y1=${pad / 2} x2=${pad} y2=${height - pad} />
      <text x=${pad - 4} y=${y(hi) + 4} text-anchor="end">${hi}</text>
      <text x=${pad - 4} y=${y(lo) + 4} text-anchor="end">${lo}</text>
      <text x=${x(series.length)} y=${height - pad + 16} text-anchor="middle">${series.length}</text>
      ${names.map((_, seat) => html`<polyline key=${seat} class=${"line colour-" + (seat % PLAYER_COLOURS.length)} fill="none" stroke-width="2.5"
        points=${[[x(0), y(0)], ...series.map((totals, i) => [x(i + 1), y(totals[seat])])].map((p) => p.join(",")).join(" ")} />`)}
    </svg>
    <figcaption class="legend">${names.map((name, seat) => html`<span key=${seat}><i class=${"swatch colour-" + (seat % PLAYER_COLOURS.length)}></i>${name}</span>`)}</figcaption>
  </figure>`;
}
