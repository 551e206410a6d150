// The scorekeeper for a game played with real cards: enter each bid and the tricks taken; the
// server keeps the sheet (POST /api/sheets/{id}) and checks every entry against the rules.
import { html, useEffect, useState } from "../html.js";
import { t, tn, suitWord, SUIT_SYMBOLS } from "../i18n.js";
import { api } from "../net/api.js";
import { storeSheet } from "../storage.js";
import { ScoreTable, Chart } from "../sheet.js";

export function NewSheet({ config, go }) {
  const [names, setNames] = useState(["", "", "", ""]);
  const [presetName, setPreset] = useState(config.presets[0].name);
  const [message, setMessage] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    try {
      const sheet = await api("POST", "/api/sheets", { names: names.map((n) => n.trim()), preset: presetName, first_dealer: 0 });
      storeSheet(sheet.id, sheet.names);
      go(`/score/${sheet.id}`);
    } catch (error) { setMessage(error.message); }
  };
  const setName = (i, value) => setNames(names.map((n, j) => (j === i ? value : n)));
  return html`<form class="panel narrow" onSubmit=${submit}>
    <h2>${t("sk_title")}</h2><p class="muted">${t("sk_intro")}</p>
    <label>${t("preset")}<select id="sk-preset" value=${presetName} onChange=${(e) => setPreset(e.currentTarget.value)}>
      ${config.presets.map((p) => html`<option value=${p.name}>${p.name}</option>`)}</select></label>
    <fieldset><legend>${t("sk_names")}</legend>
      <div class="names" id="sk-names">${names.map((name, i) => html`<div class="row" key=${i}>
        <input class="sk-name" maxlength="24" value=${name} aria-label=${t("seat_n", { n: i + 1 })} onInput=${(e) => setName(i, e.currentTarget.value)} />
        <button type="button" disabled=${names.length <= 3} onClick=${() => setNames(names.filter((_, j) => j !== i))}>${t("sk_remove_player")}</button></div>`)}</div>
      <button type="button" id="sk-add" disabled=${names.length >= 10} onClick=${() => setNames([...names, ""])}>${t("sk_add_player")}</button>
    </fieldset>
    ${message ? html`<p class="error" role="alert">${message}</p>` : null}
    <button type="submit" class="primary" id="sk-create">${t("sk_start")}</button>
  </form>`;
}

function EditHand({ sheet, index, onSave, onCancel }) {
  const hand = sheet.hands[index];
  const [bids, setBids] = useState(hand.bids.map((b) => (b ?? "")));
  const [tricks, setTricks] = useState([...hand.tricks]);
  return html`<div class="panel" id="sk-edit"><h3>${t("sk_edit_hand", { n: index + 1 })}</h3>
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

function CurrentHand({ sheet, change, busy }) {
  const s = sheet;
  const [trump, setTrump] = useState("");
  const [tricks, setTricks] = useState(() => s.names.map(() => 0));
  useEffect(() => setTricks(s.names.map(() => 0)), [s.hand_index]);
  const names = s.names;
  const heading = html`<h3>${s.hand_count ? t("hand_of", { n: s.hand_index + 1, count: s.hand_count }) : t("hand_open", { n: s.hand_index + 1 })}
    · ${tn("cards_n", s.hand_size)} · ${t("dealer")}: ${names[s.dealer]}</h3>`;
  const askTrump = s.trump_is_turned && s.next_bidder === s.bid_order[0] && s.bids.every((b) => b === null);
  return html`<div class="panel" id="sk-current">${heading}
    ${askTrump ? html`<div class="row"><label class="grow">${t("sk_trump_entry")}<input id="sk-trump" maxlength="3" placeholder="7H / S"
      value=${trump} onInput=${(e) => setTrump(e.currentTarget.value)} /></label>
      <button type="button" onClick=${() => change({ op: "trump", trump })}>${t("sk_set_trump")}</button></div>` : null}
    ${s.trump ? html`<p>${t("trump")}: <span class=${"suit-" + s.trump}>${SUIT_SYMBOLS[s.trump] || ""}</span> ${suitWord(s.trump)}</p>` : null}
    ${s.next_bidder !== null ? html`<p class="prompt">${t("sk_enter_bid", { name: names[s.next_bidder] })}</p>
      ${s.forbidden_bid !== null ? html`<p class="hook">${t("forbidden_bid", { bid: s.forbidden_bid })}</p>` : null}
      <div class="bid-buttons">${Array.from({ length: s.hand_size + 1 }, (_, b) => html`<button type="button" key=${b} class="bid-button" data-bid=${b}
        disabled=${b === s.forbidden_bid || busy} onClick=${() => change({ op: "bid", seat: s.next_bidder, bid: b })}>${b}</button>`)}</div>`
    : html`<p class="prompt">${t("sk_enter_tricks")}</p><p class="muted">${t("sk_tricks_must_add_up", { n: s.hand_size })}</p>
      <div class="sk-tricks">${names.map((name, seat) => html`<label class="sk-trick" key=${seat}>${name} (${t("bid")} ${s.bids[seat] ?? "–"})
        <input type="number" min="0" max=${s.hand_size} value=${tricks[seat]} data-seat=${seat}
          onInput=${(e) => setTricks(tricks.map((v, j) => (j === seat ? Number(e.currentTarget.value) : v)))} /></label>`)}</div>
      <button type="button" class="primary" id="sk-score" disabled=${busy} onClick=${() => change({ op: "tricks", tricks })}>${t("sk_save_tricks")}</button>`}
  </div>`;
}

export function SheetView({ id }) {
  const [sheet, setSheet] = useState(null);
  const [message, setMessage] = useState("");
  const [editing, setEditing] = useState(null);
  // One change at a time: a second tap before the first is answered would be made for the
  // seat the first one was for (and refused), so the buttons wait for the answer.
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api("GET", `/api/sheets/${id}`).then((data) => { setSheet(data); storeSheet(id, data.names); }).catch((error) => setMessage(error.message));
  }, [id]);
  const change = async (op) => {
    setBusy(true);
    try { setSheet(await api("POST", `/api/sheets/${id}`, op)); setMessage(""); setEditing(null); } catch (error) { setMessage(error.message); }
    finally { setBusy(false); }
  };
  if (!sheet) return message ? html`<p class="error" role="alert">${message}</p>` : null;
  const s = sheet;
  return html`<h2>${t("sk_title")}</h2><p class="muted">${t("sk_link")}</p>
    ${message ? html`<p class="error" role="alert">${message}</p>` : null}
    ${s.finished ? html`<div class="panel game-over"><h3>${t("game_over")}</h3>
        <p class="winners">${tn("winners", s.winners.length, { names: s.winners.map((w) => s.names[w]).join(", ") })}</p></div>`
      : html`<${CurrentHand} sheet=${s} change=${change} busy=${busy} />`}
    <div class="panel"><h3>${t("score_sheet")}</h3>
      <${ScoreTable} names=${s.names} hands=${s.hands} totals=${s.totals}
        extra=${(index) => (s.hands[index].scores ? html`<button type="button" class="small" data-edit=${index} onClick=${() => setEditing(index)}>${t("sk_edit")}</button>` : null)} /></div>
    ${editing !== null ? html`<${EditHand} key=${editing} sheet=${s} index=${editing} onSave=${change} onCancel=${() => setEditing(null)} />` : null}
    <div class="panel"><h3>${t("chart")}</h3><${Chart} names=${s.names} series=${s.totals_by_hand} /></div>
    <div class="tools">
      ${s.can_undo ? html`<button type="button" id="sk-undo" onClick=${() => change({ op: "undo" })}>${t("sk_undo")}</button>` : null}
      <a class="button" href=${`/api/sheets/${id}?format=record`}>${t("export_record")}</a>
      <a class="button" href=${`/api/sheets/${id}?format=csv`}>${t("export_csv")}</a>
    </div>`;
}
