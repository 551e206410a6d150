// A table with open seats, seen from a browser that holds none: take a seat with a name, or watch.
// (Or a game being played at a table that takes latecomers: a bot's seat, from the next hand.)
import { html, useState } from "../html.js";
import { t, levelName } from "../i18n.js";
import { seatName } from "./names.js";

/**
 * `seats`: the table summary's seats; `name`: the name this browser used last;
 * `onJoin(name)`: takes the seat (a promise; its error's message is shown); `later`: the game is
 * on, and the seat is a bot's, taken at the next hand.
 */
export function JoinForm({ code, seats, name, onJoin, later = false }) {
  const [message, setMessage] = useState("");
  const [typed, setTyped] = useState(name); // kept, so that drawing the message again keeps it
  const submit = async (event) => {
    event.preventDefault();
    const chosen = typed.trim();
    if (!chosen) { setMessage(t("name_required")); return; }
    try { await onJoin(chosen); } catch (error) { setMessage(error.message); }
  };
  return html`<form class="panel narrow" onSubmit=${submit}>
    <h1>${t("join_title", { code })}</h1>
    <ul class="plain seats-list">${seats.map((seat, i) => html`<li>${t("seat_n", { n: i + 1 })}: ${seatName(seat, i)}
      ${seat.kind === "bot" ? html` <span class="muted">(${levelName(seat.bot)})</span>` : null}</li>`)}</ul>
    ${later ? html`<p class="muted" id="join-later">${t("latecomer_join")}</p>` : null}
    <label>${t("your_name")}<input id="join-name" maxlength="24" value=${typed} required autocomplete="nickname"
      onInput=${(e) => setTyped(e.currentTarget.value)} /></label>
    <p class="error form-message" role="alert">${message}</p>
    <div class="row"><button type="submit" class="primary" id="take-seat">${t("take_seat")}</button>
      <a class="button" href=${`/t/${code}?watch`} id="watch">${t("watch")}</a></div>
  </form>`;
}

/** The code names no table. */
export function NoTable({ onLobby }) {
  return html`<div class="panel narrow"><p class="error" role="alert">${t("bad_code")}</p>
    <p><a href="/" onClick=${(e) => { e.preventDefault(); onLobby(); }}>${t("back_to_lobby")}</a></p></div>`;
}
