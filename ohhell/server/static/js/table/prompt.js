// The bar above the hand: what this player is asked to do now (bid, play, declare a joker),
// with the hook's forbidden bid crossed out and explained, or whom everybody is waiting for.
import { html, memo, samePicture, sameProps } from "../html.js";
import { t, suitWord, cardText } from "../i18n.js";
import { actingSeats } from "../game.js";
import { TrumpChoice, choosingTrump } from "./trump_choice.js";

function sameAction(a, b) {
  return !!a && !!b && a.type === b.type && (a.bid ?? null) === (b.bid ?? null) && (a.card ?? null) === (b.card ?? null)
    && (a.high ?? null) === (b.high ?? null) && (a.suit ?? null) === (b.suit ?? null);
}

function PromptPicture({ s, names, forbidden, hint, changing, onAct, onChanging, onHint, myTurn, busy }) {
  const me = s.seat;
  if (s.game_over) return null;
  const legal = s.legal_actions || [];
  const bids = legal.filter((a) => a.type === "bid");
  const acting = actingSeats(s);
  const parts = [];
  const hintButton = me !== null && legal.length
    ? html`<button type="button" class="quiet" id="hint" onClick=${onHint}>${t("hint")}</button>` : null;
  if (me !== null && s.phase === "bidding" && acting.includes(me) && bids.length && s.bids[me] === null) {
    parts.push(html`<p class="prompt your-turn" role="status">${t("your_bid")}</p>`);
    const buttons = [];
    for (let b = 0; b <= s.hand_size; b++) {
      const allowed = bids.some((a) => a.bid === b);
      const isForbidden = b === forbidden;
      buttons.push(html`<button type="button" key=${b} class=${"bid-button" + (isForbidden ? " forbidden" : "") + (sameAction(hint, { type: "bid", bid: b }) ? " hinted" : "")}
        data-bid=${b} disabled=${!allowed || busy} aria-label=${isForbidden ? t("bid_forbidden_label", { bid: b }) : t("bid_word", { bid: b })}
        onClick=${() => onAct({ type: "bid", bid: b })}>${b}</button>`);
    }
    parts.push(html`<div class="bid-buttons" role="group" aria-label=${t("bid")}>${buttons}${hintButton}</div>`);
    if (forbidden !== null && s.dealer === me) parts.push(html`<p class="hook">${t("forbidden_bid", { bid: forbidden })}</p>`);
  } else if (choosingTrump(s)) {
    parts.push(html`<${TrumpChoice} s=${s} names=${names} hint=${hint && hint.version === s.version ? hint.action : null}
      onAct=${onAct} busy=${busy} />`);
    if (me !== null && s.trump_chooser === me && hintButton) parts.push(hintButton);
  } else if (me !== null && s.phase === "declaring" && s.turn === me) {
    parts.push(html`<p class="prompt your-turn" role="status">${t("declare_joker")}</p>
      <div class="row"><button type="button" id="declare-high" onClick=${() => onAct({ type: "declare", high: true })}>${t("joker_high")}</button>
      <button type="button" id="declare-low" onClick=${() => onAct({ type: "declare", high: false })}>${t("joker_low")}</button></div>`);
  } else if (me !== null && s.phase === "playing" && s.turn === me) {
    parts.push(html`<p class="prompt your-turn" role="status">${t("your_turn_play")}${s.trick_suit && s.current_trick.length ? " · " + t("suit_led", { suit: suitWord(s.trick_suit) }) : ""} ${hintButton}</p>`);
    if (s.blind) parts.push(html`<p>${t("blind_hand")}</p><button type="button" id="play-hidden" onClick=${() => onAct({ type: "play", card: "hidden" })}>${t("play_hidden")}</button>`);
  } else if (s.phase === "bidding" && s.turn === null && me !== null && s.bids[me] !== null) {
    parts.push(html`<p class="waiting">${t("waiting_for_bids")} · ${t("bid_secret")}</p>`);
  } else if (acting.length === 1 && s.phase !== "shuffle" && s.phase !== "cut") {
    parts.push(html`<p class="waiting">${t("waiting_for", { name: names[acting[0]] })}</p>`);
    if (forbidden !== null && s.dealer === acting[0] && s.dealer !== me)
      parts.push(html`<p class="hook">${t("forbidden_bid_other", { name: names[s.dealer], bid: forbidden })}</p>`);
  }
  if (s.can_change_bid && me !== null && !(s.phase === "bidding" && s.bids[me] === null)) {
    parts.push(html`<button type="button" id="change-bid" onClick=${onChanging}>${changing ? t("keep_bid") : t("change_bid")}</button>`);
    if (changing) parts.push(html`<div class="bid-buttons">${bids.map((a) => html`<button type="button" class="bid-button" key=${a.bid} data-bid=${a.bid}
      onClick=${() => onAct({ type: "bid", bid: a.bid })}>${a.bid}</button>`)}</div>`);
  }
  if (hint && hint.version === s.version) parts.push(html`<p class="hint" id="hint-text">${t("hint_says", { action: actionText(hint.action) })}</p>`);
  return html`<div class=${"prompt-bar" + (myTurn ? " mine" : "")} id="actions">${parts}</div>`;
}

/**
 * What the prompt reads of the game's state: whose turn it is and what they may do, this
 * player's own bid, the hand's size (the bid buttons), the trick's suit, whether the hint is
 * this turn's; while trump is chosen, the version too (the choice takes the focus at each one).
 * When none of it changed (another seat's card, a bid that leaves this player waiting for the
 * same seat), the prompt is not drawn again.
 */
export function promptReads(s, hint) {
  return [s.game_over, s.seat, s.phase, s.turn, s.actors, s.legal_actions, s.seat === null ? null : s.bids[s.seat], s.hand_size,
    s.dealer, s.trump_chooser, s.trick_suit, s.current_trick.length, s.blind, s.can_change_bid,
    !!hint && hint.version === s.version, choosingTrump(s) ? s.version : null];
}

/** Whether two prompts' props draw the same prompt (the state compared by what the prompt reads of it). */
export function samePrompt(a, b) {
  const { s: before, ...restBefore } = a;
  const { s: after, ...restAfter } = b;
  // Four levels: the reads, the legal actions, each action, its fields.
  return sameProps(restBefore, restAfter) && samePicture(promptReads(before, a.hint), promptReads(after, b.hint), 4);
}

export const Prompt = memo(PromptPicture, samePrompt);

export function actionText(action) {
  if (action.type === "bid") return t("bid_word", { bid: action.bid });
  if (action.type === "play") return t("play_word", { card: cardText(action.card) });
  if (action.type === "declare") return action.high ? t("declare_high") : t("declare_low");
  if (action.type === "trump") return t("choose_trump_suit", { suit: suitWord(action.suit) });
  return "";
}
