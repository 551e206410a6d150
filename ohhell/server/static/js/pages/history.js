// The history page of a game (/t/CODE/history): after the game, its analysis as a player wants
// to read it (accuracy per player, the costliest decisions in plain words, then hand by hand what
// could have been made); for every finished hand, the verdict on its deal (provably fair deals)
// with this browser's own contribution checked against the record. Everything comes from the
// HTTP API: the table's summary, its record, /verify and /analysis (made by a worker process
// once the game is over: the page waits for it with ?wait=, a few seconds at a time).
import { html, useEffect, useState } from "../html.js";
import { t, levelName } from "../i18n.js";
import { api } from "../net/api.js";
import { seatsStored } from "../storage.js";
import { places } from "../game.js";
import { placeText } from "../table/seat.js";
import { Accuracy, Costliest, AnalysisIntro } from "../review/analysis.js";
import { FairSummary } from "../review/fairness.js";
import { HandEntry } from "../review/hands.js";
import { ownContribution } from "../fair.js";

const WAIT_S = 10;

/** The players' names as the history page shows them: people by name, bots with their level. */
function historyNames(summary) {
  return summary.seats.map((seat, i) => seat.kind === "human" ? seat.name
    : seat.kind === "bot" ? t("seat_kind_bot", { n: i + 1, level: levelName(seat.bot) }) : t("status_open"));
}

/** Ask for the analysis until it is made (each request waits up to WAIT_S seconds on the server). */
async function waitForAnalysis(code, live) {
  for (;;) {
    const answer = await api("GET", `/api/tables/${code}/analysis?wait=${WAIT_S}`);
    if (answer.status === "done") return answer.analysis;
    if (!live()) return null;
  }
}

function Result({ analysis, names, me }) {
  const ranking = places(analysis.totals);
  return html`<ol class="places compact" id="result">${ranking.map((p) => html`<li key=${p.seat} class=${"place-" + p.place + (p.seat === me ? " me" : "")}>
    <span class="place">${placeText(p)}</span> <span class="name">${names[p.seat]}</span> <b>${p.total}</b></li>`)}</ol>`;
}

export function GameHistory({ code, go }) {
  const [data, setData] = useState(null); // {summary, record, verify}
  const [analysis, setAnalysis] = useState({ status: "waiting" }); // waiting | running | later | done | error
  const [error, setError] = useState("");
  const [opened, setOpened] = useState({});
  useEffect(() => {
    let live = true;
    const alive = () => live;
    (async () => {
      const summary = await api("GET", `/api/tables/${code}`);
      const [record, verify] = await Promise.all([api("GET", `/api/tables/${code}/record`), api("GET", `/api/tables/${code}/verify`)]);
      if (!live) return;
      setData({ summary, record, verify });
      if (!summary.game_over) { setAnalysis({ status: "later" }); return; }
      setAnalysis({ status: "running" });
      try {
        const made = await waitForAnalysis(code, alive);
        if (live && made) setAnalysis({ status: "done", analysis: made });
      } catch (failure) { if (live) setAnalysis({ status: "error", message: failure.message }); }
    })().catch((failure) => { if (live) setError(failure.message); });
    return () => { live = false; };
  }, [code]);
  useEffect(() => {
    // A link to a part of the page (#fair from the table, #hand-3): go there once it is drawn.
    const id = location.hash.slice(1);
    if (!data || !id) return;
    const target = document.getElementById(id);
    if (target) target.scrollIntoView();
  }, [data, analysis.status]);
  if (error) return html`<div class="panel narrow"><p class="error" role="alert">${error}</p>
    <p><a href="/" onClick=${(e) => { e.preventDefault(); go("/"); }}>${t("back_to_lobby")}</a></p></div>`;
  if (!data) return html`<p class="muted loading">…</p>`;
  const { summary, record, verify } = data;
  const names = historyNames(summary);
  const stored = seatsStored()[code];
  const verdicts = Object.fromEntries(verify.hands.map((v) => [v.hand, v]));
  // This player's seat: the one this browser holds, else the one whose contribution it sent.
  let me = stored && stored.seat !== null && stored.seat !== undefined ? stored.seat : null;
  if (me === null) {
    for (const v of verify.hands) {
      const own = ownContribution(code, v.hand, v.fair);
      if (own.state === "in") { me = own.seat; break; }
    }
  }
  const done = analysis.status === "done" ? analysis.analysis : null;
  const analysed = done ? Object.fromEntries(done.hands.map((h) => [h.index, h])) : {};
  const finished = record.hands.filter((hand, i) => verdicts[i] || analysed[i]);
  const openHand = (index) => {
    setOpened({ ...opened, [index]: true });
    requestAnimationFrame(() => { const node = document.getElementById("hand-" + (index + 1)); if (node) node.scrollIntoView({ block: "start" }); });
  };
  const link = (path) => (e) => { e.preventDefault(); go(path); };
  return html`<div class="history-page" id="history-page">
    <header class="history-head">
      <h1>${t("history_of", { code })}</h1>
      <div class="row">
        <a class="button" id="to-table" href=${`/t/${code}`} onClick=${link(`/t/${code}`)}>${t("back_to_table")}</a>
        <a class="button" id="export" href=${`/api/tables/${code}/record`} download=${`ohhell-${code}.json`}>${t("export_record")}</a>
      </div>
    </header>
    ${summary.game_over ? null : html`<p class="notice" role="status">${t("game_in_progress")}</p>`}
    <section class="panel review" id="analysis" aria-labelledby="analysis-title">
      <h2 id="analysis-title">${t("analysis")}</h2>
      ${analysis.status === "later" ? html`<p class="muted">${t("analysis_after")}</p>` : null}
      ${analysis.status === "running" || analysis.status === "waiting" ? html`<p class="busy" role="status" id="analysis-running"><span class="spinner" aria-hidden="true"></span>${t("analysis_running")}</p>` : null}
      ${analysis.status === "error" ? html`<p class="error" role="alert">${analysis.message}</p>` : null}
      ${done ? html`<${Result} analysis=${done} names=${names} me=${me} />
        <${Accuracy} analysis=${done} names=${names} me=${me} />
        <h3>${t("costliest")}</h3>
        <${Costliest} analysis=${done} names=${names} onHand=${openHand} />
        <${AnalysisIntro} analysis=${done} />` : null}
    </section>
    <section class="panel review" id="fair" aria-labelledby="fair-title">
      <h2 id="fair-title">${t("fair_title")}</h2>
      <${FairSummary} code=${code} verify=${verify} />
    </section>
    ${finished.length ? html`<section class="hands" id="hands" aria-labelledby="hands-title">
      <h2 id="hands-title">${t("hand_by_hand")}</h2>
      ${finished.map((hand, index) => html`<${HandEntry} key=${index} index=${index} recordHand=${hand} analysed=${analysed[index]}
        verdict=${verdicts[index]} names=${names} code=${code} open=${!!opened[index]}
        onToggle=${(i, isOpen) => { if (!!opened[i] !== isOpen) setOpened({ ...opened, [i]: isOpen }); }} />`)}
    </section>` : null}
  </div>`;
}
