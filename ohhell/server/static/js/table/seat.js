// A seat at the table: who sits there, the turn (a glowing ring, unmissable), the timer as a ring
// that turns red before it runs out, the dealer's chip, and the seat's standing in the hand —
// bid and tricks, "needs 1 more", "on target" (until the hand is over), "made", "over by 1".
import { html, memo, samePicture, sameProps, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { t, tn, dealerChip, levelName } from "../i18n.js";
import { standing } from "../game.js";
import { inNextFrame } from "../frame.js";
import { seatPlace } from "./geometry.js";
import { ReactionIcon } from "./reaction.js";

const RING = 2 * Math.PI * 25;

/** The ring around the avatar: the share of the turn's time left, redrawn on its own clock. */
function TimerRing({ deadline, length, warnAt, onWarn }) {
  const circle = useRef(null);
  useEffect(() => {
    let warned = false;
    const draw = () => {
      const node = circle.current;
      if (!node) return;
      const left = Math.max(0, deadline - Date.now()) / 1000;
      const share = length > 0 ? Math.min(1, left / length) : 0;
      node.setAttribute("stroke-dashoffset", String(RING * (1 - share)));
      const warn = left <= warnAt;
      node.parentNode.classList.toggle("warn", warn);
      if (warn && !warned) { warned = true; if (onWarn) onWarn(); }
    };
    draw();
    const timer = setInterval(draw, 250);
    return () => clearInterval(timer);
  }, [deadline, length]);
  return html`<svg class="timer-ring" viewBox="0 0 56 56" aria-hidden="true">
    <circle class="timer-track" cx="28" cy="28" r="25" />
    <circle ref=${circle} class="timer-left" cx="28" cy="28" r="25" stroke-dasharray=${RING} stroke-dashoffset="0" transform="rotate(-90 28 28)" />
  </svg>`;
}

/** A seat's standing in words: `[whole, short]`, the short form for when the whole does not fit. */
function standingText(info) {
  switch (info.state) {
    case "waiting": return ["", ""];
    case "secret": return [t("has_bid"), "✓"];
    case "needs": return [t("needs_more", { n: info.count }), t("needs_short", { n: info.count })];
    case "target": return [t("on_target"), "◎"];
    case "made": return [t("bid_made"), "✓"];
    case "over": return [t("seat_over_by", { n: info.count }), t("over_short", { n: info.count })];
    case "missed": return [t("bid_missed"), "✗"];
    default: return ["", ""];
  }
}

/**
 * The standing line under a seat's name: the whole text when it fits the seat (a desktop),
 * else its short form (a phone, many seats, long words), the whole text in its title. Measured
 * when its text (or the window's size) changes, in the next frame with the other layout reads
 * (frame.js), before that frame is painted: a table update itself lays nothing out.
 */
function Standing({ whole, short }) {
  const line = useRef(null);
  const [tooLong, setTooLong] = useState("");
  const key = whole + "|" + window.innerWidth + "x" + window.innerHeight;
  const compact = Boolean(short) && short !== whole && tooLong === key;
  useLayoutEffect(() => {
    if (compact || !short || short === whole) return undefined;
    return inNextFrame(
      () => { const node = line.current; return !!node && node.isConnected && node.scrollWidth > node.clientWidth + 0.5; },
      (overflows) => { if (overflows) setTooLong(key); });
  }, [key, short, compact]);
  return html`<div class=${"seat-standing" + (compact ? " compact" : "")} ref=${line} title=${compact ? whole : undefined}>${compact ? short : whole}</div>`;
}

export function statusText(seatInfo) {
  if (seatInfo.kind === "bot") {
    if (seatInfo.fallback) return t("status_fallback");
    return t("status_bot") + (seatInfo.bot ? " · " + levelName(seatInfo.bot) : "");
  }
  if (seatInfo.kind === "open") return t("status_open");
  if (seatInfo.away) return t("status_away");
  return seatInfo.online ? t("status_online") : t("status_offline");
}

function SeatPicture({ s, seat, k, count, name, acting, deadline, timerLength, place, reaction, onWarn }) {
  const info = s.table.seats[seat];
  const mine = seat === s.seat;
  const over = s.game_over;
  const stand = over ? null : standing(s, seat);
  const dealer = !over && s.dealer === seat;
  const spot = seatPlace(k, count);
  const classes = ["seat", acting ? "acting" : "", mine ? "mine" : "", info.away ? "away" : "", info.fallback ? "fallback" : "",
    info.kind === "human" && !info.online ? "offline" : "", k === 0 ? "bottom" : "", `state-${stand ? stand.state : "over"}`].join(" ");
  const initial = info.kind === "bot" ? String(seat + 1) : (name || "?").trim().charAt(0).toUpperCase();
  const [standingLine, standingShort] = stand ? standingText(stand) : ["", ""];
  const numbers = stand && stand.bid !== null ? `${stand.tricks}/${stand.bid}` : stand ? `${stand.tricks}/–` : "";
  const described = [name, dealer ? t("dealer") : "", acting ? t("on_turn") : "", statusText(info),
    stand && stand.bid !== null ? t("seat_bid_tricks", { bid: stand.bid, tricks: stand.tricks }) : "", standingLine,
    place ? t("place_n", { n: place.place }) : "", tn("points_n", s.totals[seat])].filter(Boolean).join(", ");
  return html`<div class=${classes} data-seat=${seat} data-spot=${"seat-" + seat}
      style=${{ "--x": spot.x, "--y": spot.y }} role="group" aria-label=${described}>
    <div class="avatar" aria-hidden="true">
      ${deadline ? html`<${TimerRing} deadline=${deadline} length=${timerLength} warnAt=${Math.max(5, timerLength * 0.25)} onWarn=${mine ? onWarn : null} />` : null}
      <span class="initial">${initial}</span>
      ${dealer ? html`<span class="dealer-chip" title=${t("dealer")}>${dealerChip()}</span>` : null}
      ${info.kind === "bot" ? html`<span class=${"bot-mark" + (info.fallback ? " fallback" : "")}>${info.fallback ? "!" : "⚙"}</span>` : null}
    </div>
    <div class="seat-text" aria-hidden="true" title=${info.fallback ? t("status_fallback") : undefined}>
      <div class="seat-name" title=${name}>${name}</div>
      ${over
        ? html`<div class="seat-score"><b>${s.totals[seat]}</b>${place ? html`<span class="sep"> · </span><span class="place">${placeText(place)}</span>` : null}</div>`
        : html`<div class="seat-score"><b title=${t("total")}>${s.totals[seat]}</b>${numbers ? html` <span class="bid-tricks" title=${t("tricks") + " / " + t("bid")}>${numbers}</span>` : null}</div>
          ${standingLine ? html`<${Standing} whole=${standingLine} short=${standingShort} />`
            : html`<${Standing} whole=${info.fallback ? t("status_stand_in")
              : info.kind !== "human" || info.online && !info.away ? "" : statusText(info)} short=${info.fallback || info.away ? "⚙" : "⚠"} />`}`}
    </div>
    ${acting ? html`<span class="turn-arrow" aria-hidden="true"></span>` : null}
    ${reaction && reaction.reaction ? html`<span class="reaction" key=${reaction.at} aria-hidden="true"><${ReactionIcon} reaction=${reaction.reaction} /></span>` : null}
    ${reaction && reaction.text ? html`<span class="bubble" key=${reaction.at} aria-hidden="true">${reaction.text}</span>` : null}
  </div>`;
}

export function placeText(place) {
  return place.shared ? t("place_shared", { n: place.place }) : t("place_n", { n: place.place });
}

/** What a seat reads of the game's state: when none of it changed, the seat is not drawn again. */
function seatReads(s, seat) {
  return [s.table.seats[seat], s.seat, s.game_over, s.dealer, s.totals[seat], standing(s, seat)];
}

/** Whether two seats' props draw the same seat (the state compared by what the seat reads of it). */
export function sameSeat(a, b) {
  const { s: before, ...restBefore } = a;
  const { s: after, ...restAfter } = b;
  return sameProps(restBefore, restAfter) && samePicture(seatReads(before, a.seat), seatReads(after, b.seat));
}

export const Seat = memo(SeatPicture, sameSeat);
