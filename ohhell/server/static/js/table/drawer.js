// The panel beside the table (over it on a phone): the score sheet, the history, the chat
// and reactions, the rules in plain words, and this browser's settings, with tabs of its own.
import { html, memo, samePicture, sameProps } from "../html.js";
import { t } from "../i18n.js";
import { getPrefs, setPrefs } from "../storage.js";
import { askPermission } from "../notify.js";
import { ScoreTable } from "../sheet.js";
import { History } from "./history.js";
import { Chat, Reactions } from "./chat.js";

/**
 * `panel`: which one is open (none: no drawer); `history`: the server's answer to a history
 * request; `chat`: its lines, `chatAvailable`, `chatError`, `unread`; `reactions`: the
 * server's choice (the welcome's); `rulesText`: [topic, sentence] pairs; `prefs`: this browser's
 * settings, only compared (sameDrawer: a change draws the drawer again; the panels read them
 * through getPrefs()). Out: `onPanel(name, fromTab)`
 * (a tab switches to its panel, `fromTab` true; the close button closes), `onReact(reaction)`,
 * `onChat(text)`.
 */
function DrawerPicture({ s, code, names, stake, panel, history, chat, chatAvailable, chatError, unread, reactions, rulesText,
  onPanel, onReact, onChat }) {
  if (!panel) return null;
  const titles = { sheet: t("score_sheet"), history: t("history"), chat: t("chat"), rules: t("rules"), settings: t("settings") };
  let body;
  if (panel === "sheet") {
    body = html`<div id="sheet"><${ScoreTable} names=${names} highlight=${s.seat} totals=${s.totals}
      hands=${s.finished_hands} stake=${stake} />
      ${s.finished_hands.length ? html`<p class="row"><a class="button" id="export" href=${`/api/tables/${code}/record`} download=${`ohhell-${code}.json`}>${t("export_record")}</a></p>` : null}</div>`;
  } else if (panel === "history") {
    body = html`<p class="history-link"><a id="drawer-game-history" href=${`/t/${code}/history`} target="_blank" rel="noopener">${t("game_history_link")} ↗</a></p>
      <${History} data=${history} names=${names} />`;
  } else if (panel === "chat") {
    body = html`<${Reactions} choices=${reactions || undefined}
      onReact=${onReact} disabled=${!chatAvailable} />
      <${Chat} lines=${chat} available=${chatAvailable} error=${chatError} onSend=${onChat} />`;
  } else if (panel === "rules") {
    body = html`<div id="rules">${(rulesText || []).map(([topic, sentence]) => html`<p><strong>${topic}</strong> ${sentence}</p>`)}</div>`;
  } else {
    body = html`<${Settings} />`;
  }
  // Tabs in the drawer itself: on a phone the drawer covers the table's tool bar.
  const tabs = [["sheet", "▦"], ...(s.finished_hands.length ? [["history", "⟲"]] : []), ["chat", "✉"], ["rules", "§"], ["settings", "⚙"]];
  return html`<aside class="drawer" id=${"drawer-" + panel} aria-labelledby="drawer-title">
    <header class="drawer-head">
      <h2 id="drawer-title" class="sr">${titles[panel]}</h2>
      <nav class="drawer-tabs" aria-label=${t("tools")}>${tabs.map(([name, icon]) => html`<button type="button" key=${name} id=${"tab-" + name}
        class=${"drawer-tab" + (name === panel ? " active" : "")} aria-current=${name === panel ? "page" : undefined}
        title=${titles[name]} onClick=${() => onPanel(name, true)}><span aria-hidden="true">${icon}</span>
        <span class="label">${titles[name]}</span>${name === "chat" && unread ? html`<span class="badge-count">${unread}</span>` : null}</button>`)}</nav>
      <button type="button" class="quiet drawer-close" aria-label=${t("close")} onClick=${() => onPanel(panel)}>✕</button></header>
    <div class="drawer-body" tabindex="0" role="region" aria-labelledby="drawer-title">${body}</div>
  </aside>`;
}

/**
 * Whether two drawers' props draw the same drawer: both closed; or the same panel with the same
 * props, the state compared by what the drawer reads of it (this player's seat, the totals, the
 * finished hands: a card played or a bid changes none). `prefs` is among the props for this
 * comparison: the settings and the chat show this browser's preferences (getPrefs()).
 */
export function sameDrawer(a, b) {
  if (!a.panel && !b.panel) return true;
  const { s: before, ...restBefore } = a;
  const { s: after, ...restAfter } = b;
  return sameProps(restBefore, restAfter)
    && samePicture([before.seat, before.totals, before.finished_hands], [after.seat, after.totals, after.finished_hands], 4);
}

export const Drawer = memo(DrawerPicture, sameDrawer);

export function Settings() {
  const prefs = getPrefs();
  const toggle = (key, id, label, after) => html`<label class="check"><input type="checkbox" id=${id} checked=${prefs[key]}
    onChange=${async (e) => { const on = e.currentTarget.checked; if (after) await after(on); setPrefs({ [key]: on }); }} /> ${label}</label>`;
  return html`<div class="settings" id="settings">
    ${toggle("sound", "pref-sound", t("pref_sound"))}
    ${toggle("fourColour", "pref-four-colour", t("pref_four_colour"))}
    ${toggle("motion", "pref-motion", t("pref_motion"))}
    ${toggle("notify", "pref-notify", t("pref_notify"), async (on) => { if (on) await askPermission(); })}
    ${toggle("teach", "pref-teach", t("pref_teach"))}
    <p class="muted small">${t("pref_note")}</p>
  </div>`;
}
