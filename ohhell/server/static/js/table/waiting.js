// Before the game: the invitation link, who has taken a seat, the host's Start button, and the
// player's own link to continue on another device.
import { html, useState } from "../html.js";
import { t } from "../i18n.js";
import { statusText } from "./seat.js";

/** A Copy button: "Copied" once the text is on the clipboard (nothing when there is none). */
function CopyButton({ text }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try { await navigator.clipboard.writeText(text); setCopied(true); } catch (error) { /* no clipboard */ }
  };
  return html`<button type="button" onClick=${copy}>${copied ? t("copied") : t("copy")}</button>`;
}

/** `s`: the game's state; `token`: this browser's seat (its own link), or null; `onStart()`: the host's button. */
export function WaitingRoom({ s, code, token, names, onStart }) {
  const link = `${location.origin}/t/${code}`;
  const own = token ? `${location.origin}/t/${code}#seat=${token}` : null;
  return html`<div class="panel waiting narrow">
    <h1>${t("table_code", { code })}</h1>
    <p>${t("waiting_for_players")}</p>
    <label>${t("invite")}<span class="row"><input readonly value=${link} id="invite-link" />
      <${CopyButton} text=${link} /></span></label>
    <ul class="plain seats-list">${s.table.seats.map((seat, i) => html`<li key=${i}>${t("seat_n", { n: i + 1 })}: ${names[i]}
      <span class="muted"> · ${statusText(seat)}</span></li>`)}</ul>
    <p class="muted">${t("only_host_starts")}</p>
    ${s.seat !== null && s.seat === s.table.host ? html`<button type="button" class="primary" id="start" onClick=${onStart}>${t("start_now")}</button>` : null}
    ${own ? html`<details><summary>${t("your_link")}</summary><span class="row">
      <input readonly value=${own} aria-label=${t("your_link")} />
      <${CopyButton} text=${own} /></span></details>` : null}
  </div>`;
}
