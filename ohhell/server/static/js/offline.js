// The scorekeeper's sheets on the phone, so that it works without the network: each sheet is
// kept in IndexedDB (idb-keyval, vendored) as the server last sent it (`base`) with the changes
// made since (`pending`, each with the hand it was made on). The page shows the base with the
// changes applied by the browser's rules (rules.js); they are sent, in order, when the network
// is there (POST /api/sheets/{id}/sync). The server stays the judge: when another device
// changed the same hand, or the server refuses a change, the sheet keeps both versions
// (`conflict`) until the keeper chooses; nothing is dropped without that choice.
//
// Also here: the service worker's registration (the whole site installable and starting
// offline), and the page reloading itself once when a new version takes over.
import { createStore, get, set, keys } from "./vendor/idb-keyval.mjs";
import { applyEntry } from "./rules.js";
import { language } from "./i18n.js";

const store = createStore("ohhell", "sheets");

/** The sheet as kept on the phone: `{id, base, pending, conflict}`, or null. */
export async function keptSheet(id) { return (await get(id, store)) || null; }

async function keep(kept) { await set(kept.id, kept, store); return kept; }

/** Every sheet kept on the phone (the offline list). */
export async function keptSheets() {
  const found = [];
  for (const id of await keys(store)) {
    const kept = await get(id, store);
    if (kept && kept.base) found.push(kept);
  }
  return found;
}

/** The sheet as it stands with the changes not yet sent (the base when none). */
export function shown(kept) {
  // In a conflict the sheet is the server's; the phone's version of the hand is in the conflict.
  if (kept.conflict) return kept.base;
  let sheet = kept.base;
  for (const change of kept.pending) {
    // An edit (a settled conflict) is the server's to work out: the sheet shows it once sent.
    if (change.op === "edit") continue;
    sheet = applyEntry(sheet, change);
  }
  return sheet;
}

function sameHand(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

/** A hand as entered (bids by seat, tricks or null), as web/sheets.py `hand_as_entered` says it. */
export function handAsEntered(sheet, index) {
  const hand = sheet.hands[index];
  if (!hand) return null;
  return { bids: [...hand.bids], tricks: hand.scores ? [...hand.tricks] : null };
}

/** Keep a sheet the server just sent (nothing waiting: the server's is the sheet). */
export async function keepFromServer(sheet) {
  const kept = (await keptSheet(sheet.id)) || { id: sheet.id, pending: [], conflict: null };
  if (kept.pending.length || kept.conflict) return kept; // the phone's changes come first: sync sends them
  kept.base = sheet;
  return keep(kept);
}

/**
 * Enter a change: checked by the browser's rules at once (a Refusal is thrown, nothing kept),
 * kept on the phone, then sent when possible.
 */
export async function enter(id, change) {
  const kept = await keptSheet(id);
  const before = shown(kept);
  applyEntry(before, change); // throws a Refusal for an entry the rules do not allow
  kept.pending.push({ ...change, hand: before.hand_index });
  return keep(kept);
}

/** Take back the last change not yet sent (undo without the network). */
export async function dropLast(id) {
  const kept = await keptSheet(id);
  kept.pending.pop();
  return keep(kept);
}

class Offline extends Error {}

async function post(url, body) {
  let response;
  try {
    response = await fetch(`${url}?lang=${language()}`, { method: "POST", headers: { "Content-Type": "application/json" },
                                                         body: JSON.stringify(body) });
  } catch (error) { throw new Offline(error.message); }
  let data;
  try { data = await response.json(); } catch (error) { data = { error: response.statusText }; }
  return { status: response.status, data };
}

/**
 * Send the changes waiting, in order. Returns the kept sheet and `offline: true` when the
 * network is not there (they wait). A conflict is kept with both versions of the hand.
 */
const syncing = new Map(); // sheet id → the sync under way: one at a time, or a change is sent twice

export function sync(id) {
  const previous = syncing.get(id) || Promise.resolve();
  const next = previous.catch(() => {}).then(() => syncOnce(id));
  syncing.set(id, next);
  return next;
}

async function syncOnce(id) {
  const kept = await keptSheet(id);
  if (!kept || !kept.pending.length || kept.conflict) return { kept, offline: false };
  const base = {};
  for (const change of kept.pending) {
    if (!(change.hand in base)) base[change.hand] = handAsEntered(kept.base, change.hand);
  }
  const mine = shown(kept);
  let answer;
  try { answer = await post(`/api/sheets/${id}/sync`, { changes: kept.pending, base }); } catch (error) {
    if (error instanceof Offline) return { kept, offline: true };
    throw error;
  }
  if (answer.status === 200 || answer.status === 409) {
    // Changes entered while this sync was under way come after the ones it sent: they stay.
    const latest = await keptSheet(id);
    const sent = kept.pending.length;
    latest.base = answer.data.sheet;
    latest.pending = latest.pending.slice(answer.status === 409 ? answer.data.applied : sent);
    latest.conflict = answer.status === 409 ? { ...answer.data.conflict, mine: handAsEntered(mine, answer.data.conflict.hand) } : null;
    const conflict = latest.conflict;
    if (conflict && conflict.reason === "changed" && sameHand(conflict.server, conflict.mine)) {
      // The server has this hand as the phone has it: an earlier sync got there, only its answer
      // was lost. Nothing to choose: those changes are made.
      latest.conflict = null;
      latest.pending = latest.pending.filter((change) => change.hand !== conflict.hand);
    }
    if (!latest.conflict && latest.pending.length) {
      await keep(latest);
      return syncOnce(id);
    }
    return { kept: await keep(latest), offline: false };
  }
  return { kept, offline: false, error: answer.data.error || String(answer.status) };
}

/**
 * Settle a conflict: keep the server's version of the hand (the phone's changes to it and
 * after it are dropped: the keeper chose so), or the phone's (sent as an edit of that hand,
 * then the phone's later changes).
 */
export async function settle(id, keepMine) {
  const kept = await keptSheet(id);
  const conflict = kept.conflict;
  if (!conflict) return kept;
  kept.conflict = null;
  if (!keepMine) {
    kept.pending = [];
    return keep(kept);
  }
  const later = kept.pending.filter((change) => change.hand > conflict.hand);
  const same = kept.pending.filter((change) => change.hand === conflict.hand);
  if (conflict.server === null || !conflict.mine) {
    kept.pending = [...same, ...later]; // the hand is not on the server: enter it as it was entered here
  } else {
    const edit = { op: "edit", hand: conflict.hand, bids: conflict.mine.bids, tricks: conflict.mine.tricks };
    kept.pending = [edit, ...later];
  }
  return keep(kept);
}

// ---------------------------------------------------------------------------- the worker

/** Register the site's service worker; when a new version takes over, reload once. */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const hadWorker = !!navigator.serviceWorker.controller;
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first install takes over a page that is already this version: no reload then.
    if (!hadWorker || reloading) return;
    reloading = true;
    location.reload();
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
