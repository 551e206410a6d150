// The scorekeeper for a game played with real cards, offline first: the sheet is kept on the
// phone (offline.js, IndexedDB), every bid and trick is checked at once by the browser's rules
// (rules.js, the server's arithmetic) and kept, then sent to the server when the network is
// there. The server keeps the shared sheet (the link works on any device) and stays the judge:
// a change it refuses, or a hand another device changed meanwhile, is shown with both versions.
import { html, useEffect, useState } from "../html.js";
import { t, tn, suitWord, SUIT_SYMBOLS } from "../i18n.js";
import { api } from "../net/api.js";
import { storeSheet } from "../storage.js";
import { ScoreTable, Chart } from "../sheet.js";
import { Knob } from "./lobby.js";
import { Refusal } from "../rules.js";
import { dropLast, enter, keepFromServer, keptSheet, keptSheets, settle, shown, sync } from "../offline.js";

// The knobs the set-up shows first: the ones a table writes down before the first deal.
const FIRST_KNOBS = ["max_size", "hook"];

function useStyles() {
  useEffect(() => {
    if (document.getElementById("scorekeeper-css")) return;
    const link = document.createElement("link");
    Object.assign(link, { id: "scorekeeper-css", rel: "stylesheet", href: "/static/scorekeeper.css" });
    document.head.appendChild(link);
  }, []);
}

function refusalText(error) {
  return error instanceof Refusal ? t(error.key, error.params) : error.message;
}

function Help() {
  return html`<details class="panel sk-help" id="sk-help"><summary>${t("sk_help_title")}</summary>
    <p>${t("sk_help_install")}</p><p>${t("sk_help_offline")}</p></details>`;
}

function KeptList({ go }) {
  const [kept, setKept] = useState([]);
  useEffect(() => { keptSheets().then(setKept, () => {}); }, []);
  if (!kept.length) return null;
  kept.sort((a, b) => (b.at || 0) - (a.at || 0));
  return html`<div class="panel" id="sk-kept"><h2>${t("sk_on_phone")}</h2><ul>
    ${kept.map((k) => html`<li key=${k.id}><a href=${"/score/" + k.id} onClick=${(e) => { e.preventDefault(); go("/score/" + k.id); }}>
      ${k.base.names.join(", ")}</a> <span class="muted">${k.base.finished ? t("game_over") : t("hand_open", { n: k.base.hand_index + 1 })}</span></li>`)}
  </ul></div>`;
}

export function NewSheet({ config, go }) {
  useStyles();
  const [names, setNames] = useState(["", "", "", ""]);
  const [presetName, setPreset] = useState(config.presets[0].name);
  const [firstDealer, setFirstDealer] = useState(0);
  const [knobs, setKnobs] = useState({});
  const [checked, setChecked] = useState(null);
  const [message, setMessage] = useState("");
  const players = names.length;
  const shownNames = names.map((n, i) => n.trim() || t("seat_n", { n: i + 1 }));
  useEffect(() => {
    // The rules as the table plays them, checked by the server (a knob that changes nothing is refused).
    let live = true;
    api("POST", "/api/rules", { preset: presetName, players, knobs, real_cards: true })
      .then((data) => { if (live) { setChecked(data); setMessage(""); } })
      .catch((error) => { if (live) setMessage(error.message); });
    return () => { live = false; };
  }, [presetName, players, JSON.stringify(knobs)]);
  const changeKnob = (name, value) => {
    const next = { ...knobs };
    if (value === undefined) delete next[name]; else next[name] = value;
    setKnobs(next);
  };
  const submit = async (event) => {
    event.preventDefault();
    try {
      const sheet = await api("POST", "/api/sheets", { names: names.map((n) => n.trim()), preset: presetName,
                                                      first_dealer: Math.min(firstDealer, players - 1), knobs });
      storeSheet(sheet.id, sheet.names);
      await keepFromServer(sheet);
      go(`/score/${sheet.id}`);
    } catch (error) { setMessage(navigator.onLine === false ? t("sk_new_needs_network") : error.message); }
  };
  const setName = (i, value) => setNames(names.map((n, j) => (j === i ? value : n)));
  const knob = (name) => config.knobs.find((k) => k.name === name);
  const knobInput = (k) => html`<${Knob} key=${presetName + players + k.name} knob=${k} value=${checked.knobs[k.name]}
    onChange=${(v) => changeKnob(k.name, v)} />`;
  return html`<form class="panel narrow" id="sk-new" onSubmit=${submit}>
    <h1>${t("sk_title")}</h1><p class="muted">${t("sk_intro")}</p>
    <label>${t("preset")}<select id="sk-preset" value=${presetName} onChange=${(e) => { setPreset(e.currentTarget.value); setKnobs({}); }}>
      ${config.presets.map((p) => html`<option value=${p.name} selected=${p.name === presetName}>${p.title || p.name}</option>`)}</select></label>
    <fieldset><legend>${t("sk_players_in_order")}</legend>
      <div class="names" id="sk-names">${names.map((name, i) => html`<div class="row" key=${i}>
        <input class="sk-name" maxlength="24" value=${name} aria-label=${t("seat_n", { n: i + 1 })} onInput=${(e) => setName(i, e.currentTarget.value)} />
        <button type="button" disabled=${names.length <= 3} onClick=${() => setNames(names.filter((_, j) => j !== i))}>${t("sk_remove_player")}</button></div>`)}</div>
      <button type="button" id="sk-add" disabled=${names.length >= 10} onClick=${() => setNames([...names, ""])}>${t("sk_add_player")}</button>
    </fieldset>
    <fieldset><legend>${t("sk_setup")}</legend><div class="knobs" id="sk-first-knobs">
      <label class="knob" for="sk-dealer"><span>${t("sk_first_dealer")}</span>
        <select id="sk-dealer" value=${String(Math.min(firstDealer, players - 1))} onChange=${(e) => setFirstDealer(Number(e.currentTarget.value))}>
          ${shownNames.map((name, seat) => html`<option value=${seat} selected=${seat === firstDealer}>${name}</option>`)}</select></label>
      ${checked ? FIRST_KNOBS.map((name) => knob(name)).filter(Boolean).map(knobInput) : null}
      ${checked ? html`<p class="muted small" id="sk-sizes">${checked.hand_sizes.join(" ")}</p>` : null}
    </div></fieldset>
    <details class="more"><summary>${t("more_rules")}</summary><div class="knobs" id="knobs">
      ${checked ? config.knobs.filter((k) => !FIRST_KNOBS.includes(k.name)).map(knobInput) : null}</div></details>
    ${message ? html`<p class="error" role="alert" id="sk-message">${message}</p>` : null}
    <button type="submit" class="primary" id="sk-create">${t("sk_start")}</button>
  </form>
  <${KeptList} go=${go} /><${Help} />`;
}

function EditHand({ sheet, index, onSave, onCancel }) {
  const hand = sheet.hands[index];
  const [bids, setBids] = useState(hand.bids.map((b) => (b ?? "")));
  const [tricks, setTricks] = useState([...hand.tricks]);
  return html`<div class="panel" id="sk-edit"><h2>${t("sk_edit_hand", { n: index + 1 })}</h2>
    <table><thead><tr><th></th><th scope="col">${t("bid")}</th><th scope="col">${t("tricks")}</th></tr></thead><tbody>
      ${sheet.names.map((name, seat) => html`<tr key=${seat}><th scope="row">${name}</th>
        <td><input type="number" min="0" max=${hand.size} value=${bids[seat]} data-bid=${seat} aria-label=${name + " · " + t("bid")}
          onInput=${(e) => setBids(bids.map((b, j) => (j === seat ? e.currentTarget.value : b)))} /></td>
        <td><input type="number" min="0" max=${hand.size} value=${tricks[seat]} data-tricks=${seat} aria-label=${name + " · " + t("tricks")}
          onInput=${(e) => setTricks(tricks.map((v, j) => (j === seat ? e.currentTarget.value : v)))} /></td></tr>`)}
    </tbody></table>
    <div class="row"><button type="button" class="primary" onClick=${() => onSave({ op: "edit", hand: index,
      bids: bids.map((b) => (b === "" ? null : Number(b))), tricks: tricks.map(Number) })}>${t("sk_save")}</button>
      <button type="button" onClick=${onCancel}>${t("sk_cancel")}</button></div>
  </div>`;
}

function Tricks({ s, change, busy }) {
  // A whole hand's tricks in one row; "Made it" takes a player's bid as their tricks, and the
  // one player left empty takes what is left.
  const [tricks, setTricks] = useState(() => s.names.map(() => ""));
  const set = (seat, value) => setTricks(tricks.map((v, j) => (j === seat ? value : v)));
  const score = () => {
    const empty = tricks.flatMap((v, seat) => (v === "" ? [seat] : []));
    const given = tricks.reduce((sum, v) => sum + (v === "" ? 0 : Number(v)), 0);
    const filled = tricks.map((v) => (v === "" ? null : Number(v)));
    if (empty.length === 1) filled[empty[0]] = Math.max(0, s.hand_size - given);
    change({ op: "tricks", tricks: filled.map((v) => (v === null ? NaN : v)) });
  };
  const order = s.names.map((_, i) => (s.dealer + 1 + i) % s.names.length);
  return html`<p class="prompt">${t("sk_enter_tricks")} · ${t("sk_tricks_must_add_up", { n: s.hand_size })}</p>
    <p class="muted small">${t("sk_tricks_hint")}</p>
    <div class="sk-tricks-row" id="sk-tricks">${order.map((seat) => html`<div class="sk-trick" key=${seat}>
      <label for=${"sk-tricks-" + seat}><span class="name">${s.names[seat]}</span>
        <span class="muted small">${t("sk_bid_of", { bid: s.bids[seat] ?? "–" })}</span></label>
      <input type="number" inputmode="numeric" min="0" max=${s.hand_size} id=${"sk-tricks-" + seat} data-seat=${seat} value=${tricks[seat]}
        placeholder="–" onInput=${(e) => set(seat, e.currentTarget.value)} />
      ${s.bids[seat] !== null ? html`<button type="button" class="small sk-made" data-made=${seat}
        aria-label=${t("sk_made_label", { name: s.names[seat], bid: s.bids[seat] })}
        aria-pressed=${tricks[seat] !== "" && Number(tricks[seat]) === s.bids[seat] ? "true" : "false"}
        onClick=${() => set(seat, String(s.bids[seat]))}>✓ ${t("sk_made")}</button>` : null}
    </div>`)}</div>
    <button type="button" class="primary" id="sk-score" disabled=${busy} onClick=${score}>${t("sk_save_tricks")}</button>`;
}

function CurrentHand({ sheet, change, busy }) {
  // Keyed by the hand: a new hand starts with an empty trump box and empty tricks.
  const s = sheet;
  const [trump, setTrump] = useState("");
  const names = s.names;
  const heading = [s.hand_count ? t("hand_of", { n: s.hand_index + 1, count: s.hand_count }) : t("hand_open", { n: s.hand_index + 1 }),
                   tn("cards_n", s.hand_size), `${t("dealer")}: ${names[s.dealer]}`].join(" · ");
  const askTrump = s.trump_is_turned && s.bids.every((b) => b === null);
  const entered = (s.entered_trumps || [])[s.hand_index];
  return html`<div class="panel" id="sk-current"><h2 id="sk-heading">${heading}</h2>
    ${askTrump ? html`<div class="row"><label class="grow">${t("sk_trump_entry")}<input id="sk-trump" maxlength="3" placeholder="7H / S"
      value=${trump} onInput=${(e) => setTrump(e.currentTarget.value)} /></label>
      <button type="button" id="sk-set-trump" onClick=${() => change({ op: "trump", trump })}>${t("sk_set_trump")}</button></div>` : null}
    ${s.trump ? html`<p id="sk-trump-shown">${t("trump")}: <span class=${"suit-" + s.trump}>${entered && entered.length > 1 ? entered.slice(0, -1).replace("T", "10") : ""}${SUIT_SYMBOLS[s.trump] || ""}</span> ${suitWord(s.trump)}</p>` : null}
    ${s.next_bidder === null && s.trump_chooser !== null && s.trump_chooser !== undefined ? html`<p class="prompt" id="sk-choose-trump">${t("sk_choose_trump", { name: names[s.trump_chooser] })}</p>
      <div class="suit-buttons" role="group" aria-label=${t("trump")}>${["S", "H", "D", "C"].map((suit) => html`<button type="button" key=${suit}
        class=${"suit-button suit-" + suit} data-suit=${suit} disabled=${busy} onClick=${() => change({ op: "choose_trump", suit })}>
        <span aria-hidden="true">${SUIT_SYMBOLS[suit]}</span> ${suitWord(suit)}</button>`)}</div>`
    : s.next_bidder !== null ? html`<p class="prompt">${t("sk_enter_bid", { name: names[s.next_bidder] })}</p>
      ${s.forbidden_bid !== null ? html`<p class="hook" id="sk-hook">${t("sk_hook", { name: names[s.dealer], bid: s.forbidden_bid })}</p>` : null}
      <div class="bid-buttons">${Array.from({ length: s.hand_size + 1 }, (_, b) => html`<button type="button" key=${b} class="bid-button" data-bid=${b}
        disabled=${b === s.forbidden_bid || busy} onClick=${() => change({ op: "bid", seat: s.next_bidder, bid: b })}>${b}</button>`)}</div>`
    : html`<${Tricks} s=${s} change=${change} busy=${busy} />`}
  </div>`;
}

function HandVersion({ names, version, title }) {
  return html`<div class="sk-version"><h4>${title}</h4>${version ? html`<table><tbody>
    ${names.map((name, seat) => html`<tr key=${seat}><th scope="row">${name}</th>
      <td>${version.bids[seat] ?? "–"}/${version.tricks ? version.tricks[seat] : "–"}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">–</p>`}</div>`;
}

function Conflict({ kept, onSettle }) {
  const c = kept.conflict;
  const names = kept.base.names;
  return html`<div class="panel sk-conflict" id="sk-conflict" role="alert">
    <h2>${c.reason === "refused" ? t("sk_conflict_refused", { n: c.hand + 1, message: c.message }) : t("sk_conflict_title", { n: c.hand + 1 })}</h2>
    <p class="muted">${t("sk_conflict_help")}</p>
    <div class="sk-versions"><${HandVersion} names=${names} version=${c.mine} title=${t("sk_on_this_phone")} />
      <${HandVersion} names=${names} version=${c.server} title=${t("sk_on_the_server")} /></div>
    <div class="row"><button type="button" class="primary" id="sk-keep-mine" onClick=${() => onSettle(true)}>${t("sk_keep_mine")}</button>
      <button type="button" id="sk-keep-theirs" onClick=${() => onSettle(false)}>${t("sk_keep_theirs")}</button></div>
  </div>`;
}

function Status({ kept, offline }) {
  const waiting = kept.pending.length;
  if (!waiting && !offline) return html`<p class="sk-status synced" id="sk-status">✓ ${t("sk_synced")}</p>`;
  const text = waiting ? (offline ? t("sk_no_network") + " " : "") + tn("sk_waiting", waiting) : t("sk_offline");
  return html`<p class="sk-status waiting" id="sk-status" role="status">${text}</p>`;
}

export function SheetView({ id, go }) {
  useStyles();
  const [kept, setKept] = useState(null);
  const [offline, setOffline] = useState(false);
  const [message, setMessage] = useState("");
  const [editing, setEditing] = useState(null);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    // Send what waits; then (nothing waiting) take the server's sheet, which another device may have moved on.
    const result = await sync(id);
    if (result.error) setMessage(result.error);
    setOffline(result.offline);
    let latest = result.kept;
    if (!result.offline && latest && !latest.pending.length && !latest.conflict) {
      try { latest = await keepFromServer(await api("GET", `/api/sheets/${id}`)); setOffline(false); } catch (error) {
        if (error.status) setMessage(error.message); else setOffline(true);
      }
    }
    if (latest) setKept({ ...latest });
    return latest;
  };

  useEffect(() => {
    let live = true;
    (async () => {
      const found = await keptSheet(id);
      if (found && found.base && live) setKept(found);
      if (!found || !found.base) {
        try {
          const sheet = await api("GET", `/api/sheets/${id}`);
          storeSheet(id, sheet.names);
          if (live) setKept(await keepFromServer(sheet));
        } catch (error) {
          if (live) setMessage(error.status ? error.message : t("sk_not_on_phone"));
          return;
        }
      }
      if (live) await send();
    })();
    const online = () => { send(); };
    const gone = () => setOffline(true);
    window.addEventListener("online", online);
    window.addEventListener("offline", gone);
    return () => { live = false; window.removeEventListener("online", online); window.removeEventListener("offline", gone); };
  }, [id]);

  const change = async (op) => {
    setBusy(true);
    try {
      if (op.op === "bid" || op.op === "tricks" || op.op === "trump" || op.op === "choose_trump") {
        setKept({ ...(await enter(id, op)) });
        setMessage("");
        send();
      } else if (op.op === "undo" && kept.pending.length) {
        setKept({ ...(await dropLast(id)) });
        setMessage("");
      } else {
        // Edits and an undo of what the server has: the server's to make, with the network.
        const sheet = await api("POST", `/api/sheets/${id}`, op);
        setKept({ ...(await keepFromServer(sheet)) });
        setMessage(""); setEditing(null);
      }
    } catch (error) {
      setMessage(error instanceof Refusal || error.status ? refusalText(error) : t("sk_needs_network"));
    } finally { setBusy(false); }
  };
  const onSettle = async (keepMine) => { setKept({ ...(await settle(id, keepMine)) }); await send(); };

  if (!kept) return message ? html`<p class="error" role="alert" id="sk-message">${message}</p><${Help} />` : null;
  const s = shown(kept);
  const canUndo = kept.pending.length > 0 || s.can_undo;
  return html`<h1>${t("sk_title")}</h1><p class="muted">${t("sk_link")}</p>
    <${Status} kept=${kept} offline=${offline} />
    ${message ? html`<p class="error" role="alert" id="sk-message">${message}</p>` : null}
    ${kept.conflict ? html`<${Conflict} kept=${kept} onSettle=${onSettle} />` : null}
    ${s.finished ? html`<div class="panel game-over"><h2>${t("game_over")}</h2>
        <p class="winners">${tn("winners", s.winners.length, { names: s.winners.map((w) => s.names[w]).join(", ") })}</p></div>`
      : kept.conflict ? null : html`<${CurrentHand} key=${s.hand_index} sheet=${s} change=${change} busy=${busy} />`}
    <div class="panel"><div class="sk-sheet-head"><h2>${t("score_sheet")}</h2>
      ${canUndo ? html`<button type="button" id="sk-undo" onClick=${() => change({ op: "undo" })}>↶ ${t("sk_undo")}</button>` : null}</div>
      <${ScoreTable} names=${s.names} hands=${s.hands} totals=${s.totals}
        extra=${(index) => (s.hands[index].scores ? html`<button type="button" class="small" data-edit=${index} onClick=${() => setEditing(index)}>${t("sk_edit")}</button>` : null)} /></div>
    ${editing !== null ? html`<${EditHand} key=${editing} sheet=${s} index=${editing} onSave=${change} onCancel=${() => setEditing(null)} />` : null}
    <div class="panel"><h2>${t("chart")}</h2><${Chart} names=${s.names} series=${s.totals_by_hand} /></div>
    <div class="tools">
      <a class="button" href=${`/api/sheets/${id}?format=record`}>${t("export_record")}</a>
      <a class="button" href=${`/api/sheets/${id}?format=csv`}>${t("export_csv")}</a>
    </div>
    <${Help} />`;
}
