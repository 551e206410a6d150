// Provably fair deals (docs/fairness.md): this browser's own random contribution to each deal
// at a table where it holds a seat. Each one is kept in localStorage (by table code and hand)
// before it is sent, so that the history page can show whether the game's record holds the very
// value this browser sent — the one check a player can make that the server cannot fake.

const KEY = "ohhell.fair";
const KEEP_TABLES = 60; // the newest tables' contributions are kept; older ones are forgotten

function readAll() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || "{}");
    return all && typeof all === "object" ? all : {};
  } catch (error) { return {}; }
}

function writeAll(all) {
  const codes = Object.keys(all).sort((a, b) => (all[b].at || 0) - (all[a].at || 0));
  for (const code of codes.slice(KEEP_TABLES)) delete all[code];
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (error) { /* storage full or off: nothing kept */ }
}

/** 32 random bytes from the browser's own generator, as 64 hex digits. */
export function randomHex(bytes = 32) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return [...values].map((v) => v.toString(16).padStart(2, "0")).join("");
}

/** This browser's contributions at a table: `{hand: {value, at, refused}}`. */
export function contributionsAt(code) {
  const table = readAll()[code];
  return (table && table.hands) || {};
}

export function contributionFor(code, hand) {
  return contributionsAt(code)[hand] || null;
}

/** The contribution for `hand` at `code`: the one kept, else a new one (kept before it is sent). */
export function contributionToSend(code, hand) {
  const kept = contributionFor(code, hand);
  if (kept) return kept.value;
  const value = randomHex(32);
  const all = readAll();
  const table = all[code] || { hands: {} };
  table.hands[hand] = { value, at: Date.now() };
  table.at = Date.now();
  all[code] = table;
  writeAll(all);
  return value;
}

/** The server refused the contribution (`too-late`, or the seat could not contribute to this deal). */
export function markRefused(code, hand, reason) {
  const all = readAll();
  const entry = all[code] && all[code].hands[hand];
  if (!entry) return;
  entry.refused = reason || "refused";
  writeAll(all);
}

/**
 * Whether a hand's record holds this browser's contribution: `{state, seat}` where state is
 * "in" (the very value this browser sent, at `seat`), "refused" (the server said at the time
 * that it could not use it: too late, or the seat was recorded as away), "other" (this browser
 * sent one and the record does not hold it: the record is not the deal it took part in), or
 * null (this browser sent none for that hand, so it cannot tell).
 */
export function ownContribution(code, hand, fair) {
  const kept = contributionFor(code, hand);
  if (!kept || !fair) return { state: null, seat: null };
  const seat = (fair.contributions || []).findIndex((value) => value && value.toLowerCase() === kept.value);
  if (seat >= 0) return { state: "in", seat };
  return { state: kept.refused ? "refused" : "other", seat: null };
}

// ---- a duplicate event's or a daily deal's pool (one contribution per browser, sent before it begins)

/** The contribution this browser sends to the pool of `scope` (an event's id, `daily-DAY`): kept before it is sent. */
export function poolContribution(scope) {
  return contributionToSend(`pool:${scope}`, "pool");
}

/** The contribution this browser kept for the pool of `scope`, or null. */
export function keptPoolContribution(scope) {
  const kept = contributionFor(`pool:${scope}`, "pool");
  return kept ? kept.value : null;
}

/** Whether a closed pool (`contributions`, ascending) holds this browser's contribution: true, false, or null (none sent). */
export function inPool(scope, contributions) {
  const kept = keptPoolContribution(scope);
  if (!kept || !Array.isArray(contributions)) return null;
  return contributions.some((value) => value.toLowerCase() === kept);
}
