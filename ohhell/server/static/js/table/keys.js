// Keyboard play beyond the buttons' own keys: when the turn comes, the focus goes to the bid
// buttons or to the hand of a player who uses the keyboard (a tap or a click since the last key:
// no focus ring thrown at a phone), unless they are typing or reading a panel; a number key bids
// that number; Escape closes the hand's summary. (Arrows move along the hand: hand.js.)
import { useEffect } from "../html.js";

let byKeyboard = false;
if (typeof document !== "undefined") {
  document.addEventListener("keydown", () => { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", () => { byKeyboard = false; }, true);
}

/** Whether a key press belongs to something else: a field being typed in, or a key with a modifier. */
function elsewhere(event) {
  const target = event.target;
  return event.ctrlKey || event.metaKey || event.altKey
    || !!(target && target.closest && target.closest("input, textarea, select, [contenteditable], .drawer"));
}

/** Where the focus goes when the turn comes: the first allowed bid, else the hand's card in the tab order. */
function turnTarget(root) {
  return root.querySelector(".bid-button:not([disabled])")
    || root.querySelector('#hand button.card[tabindex="0"]')
    || root.querySelector("#declare-high, #play-hidden");
}

/**
 * `myTurn`: this player acts now; `turnKey`: changes with each new turn (the phase, hand and
 * trick); `summaryOpen` and `onEscape()`: the summary that Escape closes.
 */
export function TableKeys({ myTurn, turnKey, summaryOpen, onEscape }) {
  useEffect(() => {
    if (!myTurn || !byKeyboard) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.closest("input, textarea, select, .drawer, .summary")) return;
    const target = turnTarget(document);
    if (target && target !== active) target.focus({ preventScroll: true });
  }, [myTurn, turnKey]);
  useEffect(() => {
    const onKey = (event) => {
      if (event.key === "Escape" && summaryOpen) { onEscape(); event.preventDefault(); return; }
      // The turn came before the first key told that this player uses the keyboard: Tab goes there.
      const active = document.activeElement;
      if (myTurn && event.key === "Tab" && !event.shiftKey && (!active || active === document.body)) {
        const target = turnTarget(document);
        if (target) { target.focus(); event.preventDefault(); return; }
      }
      if (elsewhere(event) || !/^[0-9]$/.test(event.key)) return;
      const button = document.querySelector(`.bid-button[data-bid="${event.key}"]:not([disabled])`);
      if (button) { button.click(); event.preventDefault(); }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [summaryOpen, onEscape, myTurn]);
  return null;
}
