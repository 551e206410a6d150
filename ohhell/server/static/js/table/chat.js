// Table chat (players and spectators) and quick reactions. Text is shown as text (Preact never
// parses it as markup); a player can hide the chat's new lines or one person's lines.
import { html, useEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { getPrefs, setPrefs } from "../storage.js";
import { ReactionIcon, reactionName } from "./reaction.js";

export const REACTIONS = ["👍", "👏", "😮", "😂", "😢", "🔥"];
/** The longest chat line the server takes (ohhell/server/live/chat.py): the field stops there, and says so. */
export const CHAT_MAX = 300;
const CHAT_COUNT_FROM = 200; // below this the count would only distract

export function Reactions({ onReact, disabled, choices = REACTIONS }) {
  return html`<div class="reactions" role="group" aria-label=${t("reactions")}>
    ${choices.map((r) => html`<button type="button" class="reaction-button" key=${r} disabled=${disabled}
      aria-label=${t("react_with", { reaction: reactionName(r) })} onClick=${() => onReact(r)}><${ReactionIcon} reaction=${r} /></button>`)}
  </div>`;
}

export function Chat({ lines, onSend, error, available }) {
  const [text, setText] = useState("");
  const list = useRef(null);
  const prefs = getPrefs();
  const muted = new Set(prefs.mutedNames);
  const nameOf = (line) => line.name || t("spectator");
  const shown = lines.filter((line) => !muted.has(nameOf(line)));
  useEffect(() => {
    const node = list.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, [shown.length]);
  const send = (event) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    onSend(value);
    setText("");
  };
  const toggleMute = (name) => {
    const names = new Set(prefs.mutedNames);
    if (names.has(name)) names.delete(name); else names.add(name);
    setPrefs({ mutedNames: [...names] });
  };
  const mutedList = [...muted];
  return html`<div class="chat" id="chat">
    ${available ? null : html`<p class="muted">${t("chat_unavailable")}</p>`}
    <ol class="chat-lines" ref=${list} aria-live="polite" aria-label=${t("chat")}>
      ${shown.map((line) => html`<li key=${line.id} class=${line.seat === null || line.seat === undefined ? "from-spectator" : ""}>
          <button type="button" class="chat-name linkish" title=${t("mute_name", { name: nameOf(line) })}
          onClick=${() => toggleMute(nameOf(line))}>${nameOf(line)}</button> <span class="chat-text">${line.text}</span></li>`)}
    </ol>
    ${mutedList.length ? html`<p class="muted small">${t("muted_names")}: ${mutedList.map((name) => html`<button type="button" class="linkish" key=${name}
        onClick=${() => toggleMute(name)} title=${t("unmute_name", { name })}>${name}</button> `)}</p>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <form class="row chat-form" onSubmit=${send}>
      <label class="grow"><span class="sr">${t("chat_message")}</span>
        <input id="chat-input" maxlength=${CHAT_MAX} autocomplete="off" value=${text} placeholder=${t("chat_placeholder")}
          aria-describedby="chat-count" onInput=${(e) => setText(e.currentTarget.value)} disabled=${!available} /></label>
      <button type="submit" id="chat-send" disabled=${!available}>${t("send")}</button>
    </form>
    <p id="chat-count" class=${"muted small chat-count" + (text.length >= CHAT_MAX ? " full" : "")} aria-live="polite">${
      text.length >= CHAT_MAX ? t("chat_limit", { max: CHAT_MAX })
        : text.length >= CHAT_COUNT_FROM ? t("chat_left", { n: CHAT_MAX - text.length, max: CHAT_MAX }) : ""}</p>
    <label class="check"><input type="checkbox" id="chat-mute" checked=${prefs.chatMuted}
      onChange=${(e) => setPrefs({ chatMuted: e.currentTarget.checked })} /> ${t("mute_chat")}</label>
  </div>`;
}
