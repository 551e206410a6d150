// The post-game analysis (docs/analysis.md, `ohhell analyze --json`) as a player reads it after a
// game, lichess's report being the model: each player's accuracy first, then the costliest
// decisions in plain words, then (per hand, in hands.js) what each player could have made with
// every card face up. The sentences are the terminal's (ohhell/analysis/text.py), in the same
// translations; the words for labels and verdicts are its LABELS and VERDICTS.
import { html } from "../html.js";
import { t, tn, tParts, number, cardText } from "../i18n.js";
import { PLAYER_COLOURS } from "../sheet.js";

export const LABEL_KEYS = { slip: "label_slip", mistake: "label_mistake", blunder: "label_blunder" };
const VERDICT_KEYS = { sure: "verdict_sure", gamble: "verdict_gamble", impossible: "verdict_impossible" };

/** A label (small slip, mistake, blunder) as a coloured word. */
export function LabelChip({ label }) {
  if (!LABEL_KEYS[label]) return null;
  return html`<span class=${"chip label-" + label}>${t(LABEL_KEYS[label])}</span>`;
}

/** A verdict on a bid (a sure thing, a gamble, impossible) as a coloured word. */
export function VerdictChip({ verdict }) {
  return html`<span class=${"chip verdict-" + (verdict || "unsettled")}>${VERDICT_KEYS[verdict] ? t(VERDICT_KEYS[verdict]) : t("not_settled")}</span>`;
}

/** Trick counts as short ranges ("0–3, 5"); none: a dash; unknown (null): not settled. */
export function countsText(counts) {
  if (counts === null || counts === undefined) return t("not_settled");
  const values = [...counts].sort((a, b) => a - b);
  if (!values.length) return "–";
  const parts = [];
  let start = values[0], previous = values[0];
  for (const value of [...values.slice(1), null]) {
    if (value !== null && value === previous + 1) { previous = value; continue; }
    parts.push(start === previous ? String(start) : `${start}–${previous}`);
    if (value !== null) { start = value; previous = value; }
  }
  return parts.join(", ");
}

function percent(value) { return value === null || value === undefined ? "–" : `${Math.round(100 * value)}%`; }
function points(value) { return value === null || value === undefined ? "–" : number(value, 1); }

/** A reviewed action: a bid's number, a card in its suit's colour, the joker high or low. */
function actionPart(kind, action) {
  if (action === null || action === undefined) return "–";
  if (kind === "play") return html`<span class=${"card-text suit-" + action.slice(-1)}>${cardText(action)}</span>`;
  if (kind === "declare") return action === "high" ? t("joker_high_word") : t("joker_low_word");
  return String(action);
}

/** One reviewed decision in a sentence, the terminal's words. */
export function DecisionSentence({ decision, names }) {
  const values = {
    hand: decision.hand + 1, name: html`<b>${names[decision.seat]}</b>`,
    action: actionPart(decision.kind, decision.action), best: actionPart(decision.kind, decision.best),
    taken: points(decision.taken_value), better: points(decision.best_value),
    taken_chance: percent(decision.taken_chance), best_chance: percent(decision.best_chance),
    cost: points(decision.cost), trick: (decision.trick || 0) + 1,
  };
  const chances = decision.taken_chance !== null && decision.best_chance !== null;
  const key = decision.kind === "bid" ? "decision_bid"
    : decision.kind === "declare" ? (chances ? "decision_declare_chance" : "decision_declare")
      : chances ? "decision_play_chance" : "decision_play";
  return html`<span class="sentence">${tParts(key, values)}.</span>`;
}

/** Each player's accuracy and the count of their slips, mistakes and blunders. */
export function Accuracy({ analysis, names, me }) {
  return html`<ul class="accuracy-cards" id="accuracy">${analysis.seats.map((seat) => {
    const bids = seat.bids;
    const share = seat.accuracy === null ? 0 : seat.accuracy / 100;
    return html`<li key=${seat.seat} class=${"accuracy-card" + (seat.seat === me ? " me" : "")} data-seat=${seat.seat}>
      <div class="acc-name"><i class=${"swatch colour-" + (seat.seat % PLAYER_COLOURS.length)}></i><b>${names[seat.seat]}</b></div>
      <div class="acc-figure"><b class="acc-number">${seat.accuracy === null ? "–" : `${Math.round(seat.accuracy)}%`}</b>
        <span class="muted">${t("accuracy")}</span></div>
      <div class="acc-bar" aria-hidden="true"><span style=${{ "--share": share.toFixed(3) }}></span></div>
      <ul class="acc-counts">
        <li class=${"label-slip" + (seat.slips ? "" : " none")}>${tn("slips_n", seat.slips)}</li>
        <li class=${"label-mistake" + (seat.mistakes ? "" : " none")}>${tn("mistakes_n", seat.mistakes)}</li>
        <li class=${"label-blunder" + (seat.blunders ? "" : " none")}>${tn("blunders_n", seat.blunders)}</li>
      </ul>
      <p class="acc-more">${t("points_lost")}: <b>${points(seat.points_lost)}</b></p>
      <p class="acc-more">${t("bids_made")}: <b>${bids.made}/${bids.total}</b></p>
      <p class="acc-more">${t("bids_sure")} ${bids.sure} · ${t("bids_gambles")} ${bids.gamble} · ${t("bids_impossible")} ${bids.impossible}</p>
    </li>`;
  })}</ul>`;
}

/** The decisions of the game that cost most, each a sentence with its label; a tap opens its hand. */
export function Costliest({ analysis, names, onHand }) {
  const costly = analysis.costliest.filter((d) => d.label);
  if (!costly.length) return html`<p class="muted" id="costliest">${t("nothing_lost")}</p>`;
  return html`<ol class="decisions" id="costliest">${costly.map((d, i) => html`<li key=${i} class=${"decision label-" + d.label}>
    <${LabelChip} label=${d.label} />
    <a href=${"#hand-" + (d.hand + 1)} class="decision-link" onClick=${(e) => { e.preventDefault(); onHand(d.hand); }}>
      <${DecisionSentence} decision=${d} names=${names} /></a></li>`)}</ol>`;
}

/** The analysis' settings in one line: how it was made and what the labels mean. */
export function AnalysisIntro({ analysis }) {
  const thresholds = analysis.thresholds;
  return html`<p class="muted small">${t("analysis_intro", { simulations: tn("simulations_n", analysis.settings.budget) })}
    ${" "}${t("analysis_thresholds", { slip: Math.round(thresholds.slip), mistake: Math.round(thresholds.mistake), blunder: Math.round(thresholds.blunder) })}</p>`;
}

/** One seat's open-hand facts: its bid and tricks with the verdict, then the counts. */
export function OpenHandLine({ facts, name, score }) {
  const head = facts.bid === null || facts.bid === undefined
    ? tParts("open_hand_no_bid", { name: html`<b>${name}</b>`, tricks: facts.tricks })
    : tParts("open_hand_bid", { name: html`<b>${name}</b>`, bid: facts.bid, tricks: facts.tricks,
      verdict: html`<${VerdictChip} verdict=${facts.verdict} />` });
  return html`<li class="open-hand" data-seat=${facts.seat}>
    <p class="open-head">${head}${score !== null && score !== undefined ? html` <span class=${"pts " + (score > 0 ? "plus" : score < 0 ? "minus" : "")}>${score > 0 ? "+" : ""}${score}</span>` : null}</p>
    <p class="open-counts">${t("open_hand_counts", { sure: countsText(facts.sure), help: countsText(facts.with_help), never: countsText(facts.impossible) })}</p>
  </li>`;
}
