// Telling a player whose tab is hidden that it is their turn: the title changes (a dot and
// "Your turn") until they come back, and, if they allowed it, a system notification.
import { getPrefs } from "./storage.js";

let baseTitle = document.title;
let flagged = false;
let lastTurn = { myTurn: false, text: "" };

export function setBaseTitle(title) {
  baseTitle = title;
  // Called on every table update: the title is written only when it changes (a write is work).
  if (!flagged && document.title !== title) document.title = title;
}

/** Called on every update with whether it is this player's turn. */
export function turnChanged(myTurn, text) {
  lastTurn = { myTurn, text };
  if (myTurn && document.hidden) {
    if (!flagged) {
      flagged = true;
      document.title = `● ${text} · ${baseTitle}`;
      if (getPrefs().notify && "Notification" in window && Notification.permission === "granted") {
        try { new Notification(baseTitle, { body: text, tag: "ohhell-turn", icon: "/static/favicon.svg" }); } catch (error) { /* not allowed here */ }
      }
    }
  } else if (!myTurn && flagged) {
    flagged = false;
    document.title = baseTitle;
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && flagged) { flagged = false; document.title = baseTitle; }
  // Leaving the tab while it is already your turn flags it too: no update may come until you act.
  else if (document.hidden && lastTurn.myTurn) turnChanged(true, lastTurn.text);
});

/** Ask for permission to notify (from a click: browsers require it). */
export async function askPermission() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  return (await Notification.requestPermission()) === "granted";
}
