// The lobby: create a table (rules, who sits where, the timer), join one by its code, find your
// own tables and scoresheets again.
import { html, useEffect, useState } from "../html.js";
import { t, levelName, choiceLabel } from "../i18n.js";
import { api } from "../net/api.js";
import { capi, me } from "../community/api.js";
import { seatsStored, sheetsStored, storeSeat, savedName, saveName } from "../storage.js";
import { QuickPlay } from "./quickplay.js";

/** Timer options: the mode and the seconds a server without modes understands. */
export const TIMER_MODES = [
  { mode: "none", seconds: 0, label: "timer_none" },
  { mode: "relaxed", seconds: 60, label: "timer_relaxed" },
  { mode: "fast", seconds: 15, label: "timer_fast" },
];

// `inert`: why the knob can change nothing under the other rules (the server says), or undefined.
// Such a knob is greyed out with the reason beside it, so no change is silently ignored.
export function Knob({ knob, value, onChange, inert }) {
  const id = "knob-" + knob.name;
  let input;
  if (knob.kind === "bool") {
    input = html`<input type="checkbox" id=${id} data-knob=${knob.name} disabled=${!!inert} title=${inert || null} checked=${!!value} onChange=${(e) => onChange(e.currentTarget.checked)} />`;
  } else if (knob.kind === "choice") {
    const parse = (v) => (knob.number && /^\d+$/.test(v) ? Number(v) : v);
    input = html`<select id=${id} data-knob=${knob.name} disabled=${!!inert} title=${inert || null} value=${String(value)} onChange=${(e) => onChange(parse(e.currentTarget.value))}>
      ${knob.choices.map((c) => html`<option value=${c} selected=${c === value}>${choiceLabel(knob.name, c)}</option>`)}
      ${knob.number ? [...Array(15).keys()].map((i) => html`<option value=${i + 1} selected=${value === i + 1}>${i + 1}</option>`) : null}
    </select>`;
  } else if (knob.kind === "int" || knob.kind === "number") {
    input = html`<input type="number" id=${id} data-knob=${knob.name} disabled=${!!inert} title=${inert || null} value=${value ?? ""} step=${knob.kind === "int" ? 1 : "any"}
      placeholder=${t("knob_default")} onChange=${(e) => onChange(e.currentTarget.value === "" ? null : Number(e.currentTarget.value))} />`;
  } else {
    input = html`<input type="text" id=${id} data-knob=${knob.name} disabled=${!!inert} title=${inert || null} value=${JSON.stringify(value)} spellcheck="false"
      onChange=${(e) => { try { onChange(JSON.parse(e.currentTarget.value)); } catch (error) { e.currentTarget.classList.add("bad"); } }} />`;
  }
  return html`<label class=${"knob" + (knob.kind === "bool" ? " check" : "") + (inert ? " inert" : "")} for=${id}
    data-inert=${inert ? "true" : null}><span>${t(knob.name)}</span>${input}${inert ? html`<small class="muted">${inert}</small>` : null}</label>`;
}

function CreateForm({ config, go }) {
  const [name, setName] = useState(savedName());
  const [presetName, setPreset] = useState(config.presets[0].name);
  const preset = config.presets.find((p) => p.name === presetName);
  const [players, setPlayers] = useState(preset.players.includes(4) ? 4 : preset.players[0]);
  const defaultSeat = config.levels.includes(config.stand_in) ? config.stand_in : "open";
  const [seats, setSeats] = useState(Array(9).fill(defaultSeat));
  const [timer, setTimer] = useState("none");
  const [latecomers, setLatecomers] = useState(false);
  const [knobs, setKnobs] = useState({});
  const [checked, setChecked] = useState(null);
  const [message, setMessage] = useState("");
  // Rated games are for signed-in players (POST /api/rated-tables): the box shows only for them.
  const [account, setAccount] = useState(null);
  const [rated, setRated] = useState(false);
  const count = preset.players.includes(players) ? players : preset.players[0];

  useEffect(() => {
    let live = true;
    me().then((found) => { if (live) setAccount(found && found.account ? found.account : null); }, () => {});
    return () => { live = false; };
  }, []);
  const asRated = rated && account !== null;

  useEffect(() => {
    let live = true;
    api("POST", "/api/rules", { preset: presetName, players: count, knobs })
      .then((data) => { if (live) { setChecked(data); setMessage(""); } })
      .catch((error) => { if (live) setMessage(error.message); });
    return () => { live = false; };
  }, [presetName, count, JSON.stringify(knobs)]);

  // The knobs whose value differs from the preset's, as the server read them (so the summary
  // line matches the rules in force, the knobs that followed a change included).
  const changedKnobs = checked ? checked.changed : [];
  const changeKnob = (knobName, value) => {
    const next = { ...knobs };
    if (value === undefined) delete next[knobName]; else next[knobName] = value;
    setKnobs(next);
  };
  const create = async (event) => {
    event.preventDefault();
    const shownName = asRated ? account.name : name.trim();
    if (!shownName) { setMessage(t("name_required")); return; }
    if (!asRated) saveName(shownName);
    const mode = TIMER_MODES.find((m) => m.mode === timer);
    const body = { name: shownName, preset: presetName, players: count, seats: seats.slice(0, count - 1),
                   timer: mode.seconds, timer_mode: mode.mode, knobs, latecomers };
    try {
      // A rated table seats its creator under their account's name (the server takes it from the session).
      const result = asRated ? await capi("POST", "/api/rated-tables", body) : await api("POST", "/api/tables", body);
      storeSeat(result.code, { token: result.token, seat: result.seat, name: body.name });
      go(`/t/${result.code}`);
    } catch (error) { setMessage(error.message); }
  };
  return html`<form class="panel create" id="create-form" onSubmit=${create}>
    <h2>${t("create_table")}</h2>
    <label for="name">${t("your_name")}</label>
    <input id="name" name="name" maxlength="24" autocomplete="nickname" required value=${asRated ? account.name : name}
      disabled=${asRated} onInput=${(e) => setName(e.currentTarget.value)} />
    ${account ? html`<label class="check rated-choice" for="rated"><input type="checkbox" id="rated" checked=${rated}
      onChange=${(e) => setRated(e.currentTarget.checked)} /> <span>${t("rated_game")}</span></label>
      ${asRated ? html`<p class="muted small" id="rated-hint">${t("rated_hint", { name: account.name })}</p>` : null}` : null}
    <div class="row">
      <label class="grow">${t("preset")}<select id="preset" value=${presetName} onChange=${(e) => { setPreset(e.currentTarget.value); setKnobs({}); }}>
        ${config.presets.map((p) => html`<option value=${p.name} selected=${p.name === presetName}>${p.title || p.name}</option>`)}</select></label>
      <label>${t("players")}<select id="players" value=${String(count)} onChange=${(e) => { setPlayers(Number(e.currentTarget.value)); setKnobs({}); }}>
        ${preset.players.map((n) => html`<option value=${n} selected=${n === count}>${n}</option>`)}</select></label>
    </div>
    <p class="muted" id="preset-summary">${preset.summary}${changedKnobs.length
      ? " " + t("rules_changed", { knobs: changedKnobs.map((k) => t(k)).join(", ") }) : ""}</p>
    <fieldset><legend>${t("choose_bot_levels")}</legend>
      <div class="seat-choices" id="seat-choices">
        <div class="seat-choice"><span>${t("seat_n", { n: 1 })}</span><strong>${t("seat_you")}</strong></div>
        ${Array.from({ length: count - 1 }, (_, i) => html`<label class="seat-choice" key=${i}><span>${t("seat_n", { n: i + 2 })}</span>
          <select data-seat=${i + 1} value=${seats[i]} onChange=${(e) => { const next = [...seats]; next[i] = e.currentTarget.value; setSeats(next); }}>
            <option value="open" selected=${seats[i] === "open"}>${t("seat_open")}</option>
            ${config.levels.map((level) => html`<option value=${level} selected=${seats[i] === level}>${t("bot_level", { level: levelName(level) })}</option>`)}
          </select></label>`)}
      </div></fieldset>
    <fieldset class="timer-choice"><legend>${t("turn_timer")}</legend>
      ${TIMER_MODES.map((m) => html`<label class="radio" key=${m.mode}><input type="radio" name="timer" value=${m.mode} id=${"timer-" + m.mode}
        checked=${timer === m.mode} onChange=${() => setTimer(m.mode)} /> ${t(m.label)}</label>`)}
    </fieldset>
    <label class="check" for="latecomers"><input type="checkbox" id="latecomers" checked=${latecomers}
      onChange=${(e) => setLatecomers(e.currentTarget.checked)} /> <span>${t("latecomers_setting")}</span></label>
    <details class="more"><summary>${t("more_rules")}</summary><div class="knobs" id="knobs">
      ${checked ? config.knobs.map((knob) => html`<${Knob} key=${presetName + count + knob.name} knob=${knob} value=${checked.knobs[knob.name]}
        inert=${knob.name in knobs ? undefined : checked.inert[knob.name]} onChange=${(v) => changeKnob(knob.name, v)} />`) : null}</div></details>
    <details class="more"><summary>${t("rules_explained")}</summary><div class="described" id="described">
      ${checked ? checked.described.map(([topic, sentence]) => html`<p><strong>${topic}</strong> ${sentence}</p>`) : null}</div></details>
    <div id="create-message">${message ? html`<p class="error" role="alert">${message}</p>` : null}</div>
    <button type="submit" class="primary" id="create">${t("create")}</button>
  </form>`;
}

function JoinForm({ go }) {
  const [code, setCode] = useState("");
  const join = (event) => {
    event.preventDefault();
    const value = code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
    if (value) go(`/t/${value}`);
  };
  return html`<form class="panel" onSubmit=${join}>
    <h2>${t("join_by_code")}</h2>
    <div class="row"><input id="code" maxlength="8" autocapitalize="characters" placeholder="ABC234" aria-label=${t("code")}
      value=${code} onInput=${(e) => setCode(e.currentTarget.value)} />
      <button type="submit" id="join-code">${t("join")}</button></div>
  </form>`;
}

/**
 * The tables this browser holds a seat at, each with where its game is (waiting, playing,
 * paused: nobody is there and the game waits, finished), its rematch once there is one, and
 * the way to its history.
 */
function MyTables({ tables, go }) {
  const [found, setFound] = useState({});
  useEffect(() => {
    let live = true;
    Promise.all(tables.map(([code]) => api("GET", `/api/tables/${code}`).then((summary) => [code, summary], () => [code, null])))
      .then((pairs) => { if (live) setFound(Object.fromEntries(pairs)); });
    return () => { live = false; };
  }, [tables.map(([code]) => code).join(" ")]);
  const link = (path) => (e) => { e.preventDefault(); go(path); };
  const status = (summary) => summary.paused ? t("status_paused") : t("status_" + summary.status);
  return html`<div class="panel" id="my-tables"><h2>${t("my_tables")}</h2><ul class="plain my-tables">
    ${tables.map(([code, info]) => {
      const summary = found[code];
      return html`<li key=${code} data-code=${code}><a href=${`/t/${code}`} onClick=${link(`/t/${code}`)}>${code}</a>${info.name ? ` · ${info.name}` : ""}
        ${summary ? html` · <span class=${"table-status status-" + (summary.paused ? "paused" : summary.status)}>${status(summary)}</span>` : null}
        ${summary && summary.next ? html` · <a class="next-game" href=${`/t/${summary.next}`} onClick=${link(`/t/${summary.next}`)}>${t("next_game", { code: summary.next })}</a>` : null}
        ${summary && summary.status !== "waiting" ? html` · <a class="history-of" href=${`/t/${code}/history`} onClick=${link(`/t/${code}/history`)}>${t("history")}</a>` : null}
      </li>`;
    })}</ul></div>`;
}

/** The daily deal and the events, for a player who does not know they are there. */
function MoreToPlay({ go }) {
  const link = (path) => (e) => { e.preventDefault(); go(path); };
  return html`<div class="panel more-to-play" id="more-to-play">
    <h2><a href="/daily" onClick=${link("/daily")}>${t("nav_daily")}</a></h2><p class="muted small">${t("daily_intro")}</p>
    <h2><a href="/events" onClick=${link("/events")}>${t("nav_events")}</a></h2><p class="muted small">${t("events_intro")}</p>
  </div>`;
}

export function Lobby({ config, go }) {
  const mine = Object.entries(seatsStored()).sort((a, b) => b[1].at - a[1].at).slice(0, 10);
  const sheets = Object.entries(sheetsStored()).sort((a, b) => b[1].at - a[1].at).slice(0, 5);
  const link = (path) => (e) => { e.preventDefault(); go(path); };
  return html`<h1 class="tagline">${t("tagline")}</h1>
    <${QuickPlay} config=${config} go=${go} />
    <div class="lobby">
      <${CreateForm} config=${config} go=${go} />
      <div class="side">
        <${JoinForm} go=${go} />
        ${mine.length ? html`<${MyTables} tables=${mine} go=${go} />` : null}
        <${MoreToPlay} go=${go} />
        <div class="panel"><h2>${t("scorekeeper")}</h2><p class="muted">${t("sk_intro")}</p>
          <a href="/score" class="button" onClick=${link("/score")}>${t("sk_title")}</a>
          ${sheets.length ? html`<ul class="plain">${sheets.map(([id, info]) => html`<li key=${id}>
            <a href=${`/score/${id}`} onClick=${link(`/score/${id}`)}>${info.names.join(", ")}</a></li>`)}</ul>` : null}
        </div>
      </div>
    </div>`;
}
