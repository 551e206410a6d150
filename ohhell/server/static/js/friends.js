// Friends (docs/protocol.md, "Friends"), for a signed-in player on every page: a "Friends"
// button opens a panel to add a friend by user name, accept or decline requests, see who is
// online and, at a table, invite a friend to it. The page keeps one event stream
// (/api/friends/events) for the list's online status and the invitations it receives, shown as
// a notice with a link to the table (and a system notification when the tab is hidden, if the
// player allowed them). Guests see none of it: they send the table's link.
// main.js calls showFriends(go) after each route; everything else is here.
import { html, render, useState } from "./html.js";
import { t } from "./i18n.js";
import { capi, me } from "./community/api.js";
import { getPrefs } from "./storage.js";

const SHOWN_KEY = "ohhell.invites-shown"; // invitations already shown in this tab (a reload shows none twice)
const TOAST_MS = 60000;

let root = null;
let stream = null;
let streamAccount = null;
let navigate = null;
let state = { friends: [], open: false, toasts: [], notice: "" };

function setState(changes) {
  state = { ...state, ...changes };
  draw();
}

function tableHere() {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  return match ? match[1].toUpperCase() : null;
}

function shownInvites() {
  try { return new Set(JSON.parse(sessionStorage.getItem(SHOWN_KEY) || "[]")); } catch (error) { return new Set(); }
}

function invited(invite) {
  const shown = shownInvites();
  if (shown.has(invite.id)) return;
  shown.add(invite.id);
  sessionStorage.setItem(SHOWN_KEY, JSON.stringify([...shown].slice(-50)));
  const text = t("friends_invite_toast", { name: invite.from, code: invite.code });
  setState({ toasts: [...state.toasts, { ...invite, text }] });
  setTimeout(() => dismiss(invite.id), TOAST_MS);
  if (document.hidden && getPrefs().notify && "Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(t("app_title"), { body: text, tag: `ohhell-invite-${invite.id}`, icon: "/static/icons/icon-192.png" });
      note.onclick = () => { window.focus(); join(invite); };
    } catch (error) { /* not allowed here */ }
  }
}

function dismiss(id) {
  if (state.toasts.some((toast) => toast.id === id)) setState({ toasts: state.toasts.filter((toast) => toast.id !== id) });
}

function join(invite) {
  dismiss(invite.id);
  navigate(`/t/${invite.code}`);
}

function openStream(accountName) {
  closeStream();
  streamAccount = accountName;
  stream = new EventSource("/api/friends/events");
  stream.addEventListener("friends", (event) => setState({ friends: JSON.parse(event.data).friends }));
  stream.addEventListener("invite", (event) => invited(JSON.parse(event.data)));
}

function closeStream() {
  if (stream) stream.close();
  stream = null;
  streamAccount = null;
}

async function change(url, body, notice = "") {
  try {
    const answer = await capi("POST", url, body);
    setState({ notice, ...(answer.friends ? { friends: answer.friends } : {}) });
    return true;
  } catch (error) {
    setState({ notice: error.message });
    return false;
  }
}

function AddForm() {
  const [name, setName] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    if (name.trim() && await change("/api/friends", { name: name.trim() })) setName("");
  };
  return html`<form class="friends-add" id="friends-add" onSubmit=${submit}>
    <label for="friend-name" class="sr">${t("friends_add_label")}</label>
    <input id="friend-name" maxlength="24" autocomplete="off" placeholder=${t("friends_add_label")} value=${name}
      onInput=${(event) => setName(event.currentTarget.value)} />
    <button type="submit" id="friend-add">${t("friends_add")}</button></form>`;
}

function FriendLine({ friend, code }) {
  const status = friend.status === "friend" ? (friend.online ? t("friends_online") : t("friends_offline"))
    : friend.status === "asked" ? t("friends_asked") : t("friends_asking");
  const who = { name: friend.name };
  return html`<li class=${`friend ${friend.status}${friend.online ? " online" : ""}`} data-name=${friend.name}>
    <span class="friend-dot" aria-hidden="true"></span>
    <span class="friend-name">${friend.name}</span>
    <span class="friend-status">${status}</span>
    <span class="friend-actions">
      ${friend.status === "asking" && html`<button class="friend-accept" onClick=${() => change("/api/friends", who)}>${t("friends_accept")}</button>`}
      ${friend.status === "friend" && code && html`<button class="friend-invite"
        onClick=${() => change("/api/friends/invite", { ...who, code }, t("friends_invited", who))}>${t("friends_invite")}</button>`}
      <button class="friend-remove" aria-label=${`${friend.status === "asking" ? t("friends_decline") : t("friends_remove")}: ${friend.name}`}
        onClick=${() => change("/api/friends/remove", who)}>${friend.status === "asking" ? t("friends_decline") : t("friends_remove")}</button>
    </span></li>`;
}

function Friends() {
  const code = tableHere();
  const online = state.friends.filter((friend) => friend.online).length;
  const asking = state.friends.filter((friend) => friend.status === "asking").length;
  return html`
    <div class="friend-toasts" id="friend-toasts" role="status" aria-live="polite">
      ${state.toasts.map((toast) => html`<div class="friend-toast" key=${toast.id} data-code=${toast.code}>
        <span>${toast.text}</span>
        <a class="button" href=${`/t/${toast.code}`} onClick=${(event) => { event.preventDefault(); join(toast); }}>${t("friends_join")}</a>
        <button class="friend-toast-close" aria-label=${t("friends_dismiss")} onClick=${() => dismiss(toast.id)}>×</button>
      </div>`)}
    </div>
    <button type="button" id="friends-button" class=${`friends-button${code ? " at-table" : ""}`} aria-expanded=${state.open ? "true" : "false"}
      aria-controls="friends-panel" onClick=${() => setState({ open: !state.open, notice: "" })}>
      ${t("friends_button", { count: online })}${asking ? html` <span class="badge-count">${asking}</span>` : null}</button>
    ${state.open && html`<section class=${`friends-panel${code ? " at-table" : ""}`} id="friends-panel" aria-labelledby="friends-heading">
      <div class="friends-head"><h2 id="friends-heading">${t("friends_title")}</h2>
        <button type="button" class="friends-close" aria-label=${t("friends_close")} onClick=${() => setState({ open: false })}>×</button></div>
      <${AddForm} />
      ${state.notice && html`<p class="friends-notice" role="status">${state.notice}</p>`}
      ${state.friends.length ? html`<ul class="friends-list" id="friends-list">
        ${state.friends.map((friend) => html`<${FriendLine} key=${friend.name} friend=${friend} code=${code} />`)}</ul>`
        : html`<p class="friends-none">${t("friends_none")}</p>`}
    </section>`}`;
}

function draw() {
  if (root) render(streamAccount ? html`<${Friends} />` : null, root);
}

/** After each route: start (or stop) the friends' stream for whoever is signed in, redraw. */
export async function showFriends(go) {
  navigate = go;
  if (!root) {
    root = document.createElement("div");
    root.id = "friends-root";
    document.body.appendChild(root);
  }
  let found = null;
  try { found = await me(true); } catch (error) { found = null; }
  const name = found && found.account ? found.account.name : null;
  if (name !== streamAccount) {
    if (name) openStream(name); else closeStream();
    state = { ...state, friends: [], toasts: [], open: false, notice: "" };
  }
  draw();
}
