// The table as a picture: the seats around the felt, the trick, the hand and what the player is
// asked to do, the bar above and the drawer beside, drawn from props only. It changes nothing it
// is given: every click goes out through `on` (pages/table.js passes them to the controller).
import { html, memo, samePicture, sameProps } from "../html.js";
import { getPrefs } from "../storage.js";
import { t } from "../i18n.js";
import { sortHand } from "../cards.js";
import { seatsFromMe, actingSeats, isMyTurn, forbiddenBid, places, lastTrick } from "../game.js";
import { Seat } from "./seat.js";
import { Trick } from "./trick.js";
import { Hand } from "./hand.js";
import { Prompt } from "./prompt.js";
import { HandSummary, GameOver } from "./summary.js";
import { TopBar } from "./topbar.js";
import { Drawer } from "./drawer.js";
import { WaitingRoom } from "./waiting.js";
import { TableKeys } from "./keys.js";

const NOTHING = () => {};

/** Before the first state: a quiet line (or that the connection is being made again). */
export function Loading({ lost }) {
  return html`<p class="muted loading">${lost ? t("reconnecting") : "…"}</p>`;
}

/**
 * The table. `table`: what the controller knows (`s` the game, `ui` its derived state, `code`,
 * `token`, `status`, `welcome`, `deadlines`, `busy` while an action waits for its answer,
 * `ownRandomness`, `reactionOf(seat)`); `names`: the seats' names; `local`: this view's own
 * state (`peek`, `changing`, `handWidth`, `cardWidth`); `on`: the callbacks (act, hint, back,
 * start, chat, react, rematch, panel, peek, changing, dismissSummary, dismissNotice,
 * collected, newTable, history).
 */
export function TableView({ table, names, local, on }) {
  const { s, ui, code } = table;
  if (s.table.status === "waiting") return html`<${WaitingRoom} s=${s} code=${code} token=${table.token} names=${names} onStart=${on.start} />`;
  const me = s.seat;
  const stake = table.welcome && table.welcome.rules ? table.welcome.rules.stake : null;  // money settled at the end
  const count = names.length;
  const order = seatsFromMe(count, me);
  const orderOf = {};
  order.forEach((seat, k) => { orderOf[seat] = k; });
  const acting = actingSeats(s);
  const myTurn = isMyTurn(s);
  const forbidden = forbiddenBid(s);
  const ranking = s.game_over ? Object.fromEntries(places(s.totals).map((p) => [p.seat, p])) : {};
  const plays = new Set((s.legal_actions || []).filter((a) => a.type === "play").map((a) => a.card));
  const playing = s.phase === "playing" && s.turn === me && !table.busy;
  const hand = me !== null && s.hand ? sortHand(s.hand, s.trump) : [];
  const hintedCard = ui.hint && ui.hint.action.type === "play" ? ui.hint.action.card : null;
  const lastDone = lastTrick(s);
  const peeking = local.peek && lastDone && !ui.collecting;
  const trickCards = peeking ? lastDone.cards : s.current_trick;
  const summaryHand = ui.summaryHand !== null && (!ui.collecting) ? s.finished_hands[ui.summaryHand] : null;
  const away = me !== null && s.table.seats[me].away;
  // A latecomer promised a bot's seat: they watch until the next hand (the server then seats them).
  const latecomer = me === null && table.welcome && Number.isInteger(table.welcome.next_seat) ? table.welcome.next_seat : null;
  const classes = ["table-page", `seats-${count}`, myTurn ? "my-turn" : "", me === null ? "watching" : "", s.game_over ? "over" : ""].join(" ");
  return html`<div class=${classes}>
    <${TableKeys} myTurn=${myTurn && !table.busy} turnKey=${`${s.phase}-${s.hand_index}-${s.completed_tricks.length}-${s.current_trick.length}`}
      summaryOpen=${!!summaryHand} onEscape=${on.dismissSummary} />
    <h1 class="sr">${t("table_code", { code })}</h1>
    <${TopBar} s=${s} code=${code} names=${names} connected=${table.status === "open"} panel=${ui.panel} peek=${local.peek} unread=${ui.unread}
      ownRandomness=${table.ownRandomness} onPanel=${on.panel} onPeek=${on.peek} />
    <div class="table-body"><div class="play-area">
    ${ui.notice ? html`<p class="notice" role="alert" onClick=${on.dismissNotice}>${ui.notice}</p>` : null}
    ${s.table.paused ? html`<p class="notice paused" role="status">${t("paused")}</p>` : null}
    ${me !== null && !away && s.table.seats[me].timeouts > 0 ? html`<p class="notice" role="status">${t("timed_out_notice")}</p>` : null}
    ${away ? html`<p class="notice away" role="alert">${t("away_notice")} <button type="button" class="primary" id="back"
        onClick=${on.back}>${t("im_back")}</button></p>` : null}
    <div class="felt-wrap">
      <div class="felt" role="region" aria-label=${t("the_table")}>
        <div class="oval" aria-hidden="true"></div>
        ${order.map((seat, k) => html`<${Seat} key=${seat} s=${s} seat=${seat} k=${k} count=${count} name=${names[seat]}
          acting=${acting.includes(seat)} deadline=${table.deadlines[seat]} timerLength=${s.table.timer || 0}
          place=${ranking[seat]} reaction=${table.reactionOf(seat)} onWarn=${on.warn} />`)}
        <${Trick} cards=${trickCards} collecting=${peeking ? null : ui.collecting} orderOf=${orderOf} count=${count} names=${names}
          onCollected=${on.collected} />
        <${Centre} s=${s} names=${names} acting=${acting} collecting=${!!ui.collecting} />
        ${summaryHand ? html`<${HandSummary} hand=${summaryHand} number=${ui.summaryHand + 1} names=${names} me=${me}
          botBid=${ui.teach[ui.summaryHand]}
          onClose=${on.dismissSummary} />` : null}
      </div>
    </div>
    ${s.game_over ? html`<${GameOver} s=${s} names=${names} host=${me !== null && me === s.table.host} rematch=${ui.rematch}
        stake=${stake} offer=${ui.rematchOffer} onAccept=${on.acceptRematch} onLeave=${on.newTable}
        onRematch=${on.rematch} onNewTable=${on.newTable} onSheet=${() => on.panel("sheet")}
        historyPath=${`/t/${code}/history`} onHistory=${on.history} />` : null}
    ${me !== null && !s.game_over ? html`<div class=${"hand-zone" + (myTurn ? " my-turn" : "")}>
        <${Prompt} s=${s} names=${names} forbidden=${forbidden} hint=${ui.hint} changing=${local.changing} myTurn=${myTurn}
          busy=${table.busy} onAct=${on.act} onChanging=${on.changing} onHint=${on.hint} />
        <${Hand} cards=${hand} playable=${playing ? plays : new Set()} myTurn=${playing} width=${local.handWidth} cardWidth=${local.cardWidth}
          hinted=${hintedCard} dealer=${s.dealer} onPlay=${on.play} />
      </div>` : me === null ? html`<div class="hand-zone watching">${latecomer !== null
          ? html`<p class="badge watching-note latecomer-note" id="latecomer-note" role="status">${t("latecomer_note", { name: names[latecomer] })}</p>`
          : html`<p class="badge watching-note">${t("spectating")}</p>`}
        ${s.game_over ? null : html`<${Prompt} s=${s} names=${names} forbidden=${forbidden} hint=${null} changing=${false} myTurn=${false}
          onAct=${NOTHING} onChanging=${NOTHING} onHint=${NOTHING} />`}</div>` : null}
    </div>
    <${Drawer} s=${s} code=${code} names=${names} stake=${s.game_over ? stake : null} panel=${ui.panel} history=${ui.history} chat=${ui.chat}
      chatAvailable=${ui.chatAvailable} chatError=${ui.chatError} unread=${ui.unread}
      reactions=${table.welcome && table.welcome.reactions} rulesText=${table.welcome && table.welcome.rules_text} prefs=${getPrefs()}
      onPanel=${on.panel} onReact=${on.react} onChat=${on.chat} /></div>
  </div>`;
}

/** The line in the middle of the table: whom everybody waits for. */
function CentrePicture({ s, names, acting, collecting }) {
  let line = "";
  if (s.game_over) line = "";  // the game's end is told below the table
  else if (s.phase === "bidding" && acting.length > 1) line = t("waiting_for_bids");
  else if (s.phase === "choosing_trump" && acting[0] !== s.seat) line = t("name_chooses_trump", { name: names[acting[0]] });
  else if (acting.length === 1 && acting[0] !== s.seat && !s.current_trick.length && !collecting)
    line = s.phase === "bidding" ? t("name_bids", { name: names[acting[0]] }) : t("name_leads", { name: names[acting[0]] });
  return html`<div class="centre" aria-live="polite">${line ? html`<span class="centre-line">${line}</span>` : null}</div>`;
}

/** Whether two centre lines' props draw the same line (the state compared by what the line reads of it). */
export function sameCentre(a, b) {
  const reads = (s) => [s.game_over, s.phase, s.seat, s.current_trick.length];
  return samePicture(reads(a.s), reads(b.s)) && sameProps({ ...a, s: null }, { ...b, s: null });
}

const Centre = memo(CentrePicture, sameCentre);
