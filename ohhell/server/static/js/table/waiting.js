// Before the game: the invitation link, who has taken a seat, the host's Start button, and the
// player's own link to continue on another device.
import { html } from "../html.js";
import { t } from "../i18n.js";
import { statusText } from "./seat.js";

export function WaitingRoom({ ctl, names }) {
  const s = ctl.s;
  const link = `${location.origin}/t/${ctl.code}`;
  const copy = (text) => async (event) => {
    const button = event.currentTarget;
    try { await navigator.clipboard.writeText(text); button.textContent = t("copied"); } catch (error) { /* no clipboard */ }
  };
  return html`<div class="panel waiting narrow">
    <h2>${t("table_code", { code: ctl.code })}</h2>
    <p>${t("waiting_for_players")}</p>
    <label>${t("invite")}<span class="row"><input readonly value=${link} id="invite-link" />
      <button type="button" onClick=${copy(link)}>${t("copy")}</button></span></label>
    <ul class="plain seats-list">${s.table.seats.map((seat, i) => html`<li key=${i}>${t("seat_n", { n: i + 1 })}: ${names[i]}
      <span class="muted"> · ${statusText(seat)}</span></li>`)}</ul>
    <p class="muted">${t("only_host_starts")}</p>
    ${s.seat !== null && s.seat === s.table.host ? html`<button type="button" class="primary" id="start" onClick=${() => ctl.send({ type: "start" })}>${t("start_now")}</button>` : null}
    ${ctl.token ? html`<details><summary>${t("your_link")}</summary><span class="row">
      <input readonly value=${`${location.origin}/t/${ctl.code}#seat=${ctl.token}`} aria-label=${t("your_link")} />
      <button type="button" onClick=${copy(`${location.origin}/t/${ctl.code}#seat=${ctl.token}`)}>${t("copy")}</button></span></details>` : null}
  </div>`;
}
