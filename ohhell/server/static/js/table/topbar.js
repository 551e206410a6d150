// The bar above the table: where the game is (hand, cards, trump and the turned card, the
// running total of the bids), the spectators, the connection, and the tools that open panels.
import { html, memo, samePicture, sameProps } from "../html.js";
import { t, tn, suitWord, cardSpoken, SUIT_SYMBOLS } from "../i18n.js";
import { bidTotal, lastTrick } from "../game.js";
import { Card } from "./card.js";
import { trumpNote } from "./trump_choice.js";

// A die with a tick: drawn, not a font glyph (the die of U+2684 is missing or unreadable in many
// fonts, Debian chromium's among them).
const FAIR_ICON = html`<svg class="fair-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
  <rect x="1.5" y="1.5" width="17" height="17" rx="4" fill="none" stroke="currentColor" stroke-width="2" />
  <circle cx="6.2" cy="6.2" r="1.7" fill="currentColor" /><circle cx="13.8" cy="13.8" r="1.7" fill="currentColor" />
  <path d="M8.6 11.2l1.9 1.9 4.1-5.2" fill="none" stroke="#7ee787" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" />
</svg>`;

/**
 * `s`: the game's state; `panel`: the open panel (its tool is pressed); `peek`: the last trick is
 * shown; `unread`: new chat lines; `ownRandomness`: this deal holds this browser's randomness;
 * `onPanel(name)`, `onPeek()`: the tools.
 */
function TopBarPicture({ s, code, names, connected, panel, peek, unread, ownRandomness, onPanel, onPeek }) {
  const total = bidTotal(s);
  const handLabel = s.hand_count ? t("hand_of", { n: s.hand_index + 1, count: s.hand_count }) : t("hand_open", { n: s.hand_index + 1 });
  let bidsLine = null;
  if (total && !s.game_over) {
    const verdict = !total.all ? "" : total.diff < 0 ? t("under_by", { n: -total.diff }) : total.diff > 0 ? t("over_by_bids", { n: total.diff }) : t("bids_even");
    bidsLine = html`<span class=${"bids-total" + (total.all ? (total.diff < 0 ? " under" : total.diff > 0 ? " over" : "") : "")} id="bids-total">
      ${t("bids_of", { sum: total.sum, size: total.size })}${verdict ? html` · <b>${verdict}</b>` : null}</span>`;
  }
  const trumpKnown = s.dealt || s.scoresheet;
  const chosenNote = trumpNote(s, names || []);
  // This deal holds this browser's randomness: a small mark beside the hand's number (on a phone
  // a row of its own would push the table down).
  const fairMark = ownRandomness ? html`<a class="fair-mark" id="fair-mark" href=${`/t/${code}/history#fair`} target="_blank" rel="noopener"
    title=${t("fair_yours")} aria-label=${t("fair_yours")}>${FAIR_ICON}</a>` : null;
  return html`<div class="table-bar">
    <div class="info-bar" id="info-bar">
      <span class="table-code">${t("table_code", { code })}</span>
      ${s.game_over ? fairMark : html`<span class="hand-label">${handLabel} · ${tn("cards_n", s.hand_size)}${fairMark ? html` ${fairMark}` : null}</span>`}
      ${!s.game_over && trumpKnown ? html`<span class="trump" id="trump">${t("trump")}: <strong class=${s.trump ? "suit-" + s.trump : ""}>
        ${chosenNote && !s.trump ? chosenNote : html`${s.trump && SUIT_SYMBOLS[s.trump] ? SUIT_SYMBOLS[s.trump] + " " : ""}${suitWord(s.trump)}`}</strong>
        ${chosenNote && s.trump ? html` <span class="muted" id="trump-chooser">${chosenNote}</span>` : null}
        ${s.turn_up ? html` <${Card} card=${s.turn_up} small=${true} extra="turned" label=${t("turned_card") + ": " + cardSpoken(s.turn_up)} />` : null}</span>` : null}
      ${bidsLine}
      ${s.table.spectators ? html`<span class="muted">${tn("spectators_n", s.table.spectators)}</span>` : null}
      ${!connected ? html`<span class="conn-lost" role="status">${t("reconnecting")}</span>` : null}
    </div>
    <${Tools} lastTrickTool=${!!lastTrick(s) && !s.game_over} historyTool=${s.finished_hands.length > 0} panel=${panel} peek=${peek}
      unread=${unread} onPanel=${onPanel} onPeek=${onPeek} />
  </div>`;
}

/** The tool buttons (a bid or a card changes none of them: drawn again only when these props change). */
function ToolsPicture({ lastTrickTool, historyTool, panel, peek, unread, onPanel, onPeek }) {
  // Each tool: an icon and a word; on a phone only the icon shows (the word stays its name).
  const tool = (name, icon, label, id, badge) => html`<button type="button" id=${id} class=${"tool" + (panel === name ? " active" : "")}
    aria-pressed=${panel === name ? "true" : "false"} title=${label} onClick=${() => onPanel(name)}>
    <span class="icon" aria-hidden="true">${icon}</span><span class="label">${label}</span>${badge ? html`<span class="badge-count" aria-label=${tn("unread_n", badge)}>${badge}</span>` : null}</button>`;
  return html`<div class="tools" role="toolbar" aria-label=${t("tools")}>
      ${lastTrickTool ? html`<button type="button" class="tool" id="last-trick" aria-pressed=${peek ? "true" : "false"}
        title=${t("show_last_trick")} onClick=${onPeek}>
        <span class="icon" aria-hidden="true">↶</span><span class="label">${t("last_trick")}</span></button>` : null}
      ${tool("sheet", "▦", t("score_sheet"), "show-sheet")}
      ${historyTool ? tool("history", "⟲", t("history"), "show-history") : null}
      ${tool("chat", "✉", t("chat"), "show-chat", unread)}
      ${tool("rules", "§", t("rules"), "show-rules")}
      ${tool("settings", "⚙", t("settings"), "show-settings")}
    </div>`;
}

const Tools = memo(ToolsPicture);

/**
 * What the bar reads of the game's state (the hand, the trump and its chooser, the bids, the
 * spectators, whether there is a last trick to show or a history): when none of it changed (a
 * card played, a seat's standing), the bar is not drawn again.
 */
export function topBarReads(s) {
  return [s.hand_index, s.hand_count, s.hand_size, s.game_over, s.dealt, s.scoresheet, s.trump, s.turn_up, s.trump_by_choice,
    s.trump_chooser, s.bids, s.table.spectators, !!lastTrick(s), s.finished_hands.length];
}

/** Whether two top bars' props draw the same bar (the state compared by what the bar reads of it). */
export function sameTopBar(a, b) {
  const { s: before, ...restBefore } = a;
  const { s: after, ...restAfter } = b;
  return sameProps(restBefore, restAfter) && samePicture(topBarReads(before), topBarReads(after));
}

export const TopBar = memo(TopBarPicture, sameTopBar);
