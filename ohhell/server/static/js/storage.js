// What the browser remembers (localStorage): seats' tokens by table code, scoresheets, the
// player's name and the table preferences. Reading never throws: a broken entry is forgotten.

function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; } catch (error) { return fallback; }
}
function write(key, value) { localStorage.setItem(key, JSON.stringify(value)); }

export function seatsStored() { return read("ohhell.seats", {}); }
export function storeSeat(code, info) {
  const all = seatsStored();
  all[code] = { at: Date.now(), ...info };
  write("ohhell.seats", all);
}

export function sheetsStored() { return read("ohhell.sheets", {}); }
export function storeSheet(id, names) {
  const all = sheetsStored();
  all[id] = { names, at: Date.now() };
  write("ohhell.sheets", all);
}

export function savedName() { return localStorage.getItem("ohhell.name") || ""; }
export function saveName(name) { localStorage.setItem("ohhell.name", name); }

const DEFAULT_PREFS = {
  sound: false, // off until the player switches it on
  fourColour: false, // ♠ black, ♥ red, ♦ blue, ♣ green
  motion: true, // animations (never under prefers-reduced-motion)
  notify: false, // a system notification when it is your turn and the tab is hidden
  chatMuted: false, // hide the chat's new lines (no badge, no sound)
  mutedNames: [], // people whose chat lines are hidden
  teach: false, // after each hand, what the strong bot would have bid with this player's cards
};

let prefs = { ...DEFAULT_PREFS, ...read("ohhell.prefs", {}) };
const listeners = new Set();

export function getPrefs() { return prefs; }
export function setPrefs(changes) {
  prefs = { ...prefs, ...changes };
  write("ohhell.prefs", prefs);
  document.documentElement.classList.toggle("four-colour", prefs.fourColour);
  for (const listener of listeners) listener(prefs);
}
export function onPrefs(listener) { listeners.add(listener); return () => listeners.delete(listener); }
document.documentElement.classList.toggle("four-colour", prefs.fourColour);

/** Whether cards may move: the player's choice and the system's prefers-reduced-motion. */
export function motionAllowed() {
  return prefs.motion && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
