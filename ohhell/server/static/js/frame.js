// The table's animations, computed, not scripted (as chessground's anim.ts), planned once a frame with the layout reads batched: every place is
// read first, then every animation is started (read all, then write). The page's `update()`
// only patches the DOM; it reads no layout (a read between two writes makes the browser lay the
// page out there and then, once per read: on a slow phone that is most of an update's time).
// The reads happen in the next animation frame, just before the browser lays the page out for
// that frame anyway, so they cost no layout of their own, and no frame is painted with a card
// in its new place before its flight starts.
//
// Where a card was is what this frame saw last time (the places are kept between frames, so
// nothing is read before the patch); a card caught mid-flight starts again from where it is
// seen now. A card that appears with no old place comes from the element its `data-from`
// names (the seat that played it, the dealer for a new hand). After a resize the places are
// read again without moving anything: the layout changed, the cards did not.
import { motionAllowed } from "./storage.js";

const DURATION_MS = 260;
const EASING = "cubic-bezier(.2,.7,.25,1)";

/** The centre of a box and its width (the scale of a card that changes size). */
function centre(rect) { return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, w: rect.width }; }

/** A running flight of this module on `node`, if any (reading it lays nothing out). */
function flightOf(node) {
  const flight = node.__flight;
  return flight && flight.animation.playState === "running" ? flight : null;
}

/**
 * Run `read` in the next animation frame, with every other read asked for that frame, and then
 * `write(whatReadReturned)` after all of them: no write comes between two reads, so the page is
 * laid out once. Returns a function that takes the job back (a component gone before its frame).
 */
export function inNextFrame(read, write = () => {}) {
  const job = { read, write, cancelled: false };
  jobs.push(job);
  if (!requested) requested = requestAnimationFrame(runFrame);
  return () => { job.cancelled = true; };
}

let jobs = [];
let requested = 0;

function runFrame() {
  requested = 0;
  const now = jobs.filter((job) => !job.cancelled);
  jobs = [];
  const seen = now.map((job) => job.read());
  now.forEach((job, i) => { if (!job.cancelled) job.write(seen[i]); });
}

export class FramePlanner {
  /** `root`: the element whose keyed children (`data-key`) and origins (`data-spot`) are planned. */
  constructor(root) {
    this.root = root;
    this.places = new Map(); // key (or "spot:" + spot) -> where it stood, in layout, last frame
    this.cancel = null;
    this.stale = true; // nothing seen yet, or the window changed size: read, move nothing
    this.onResize = () => { this.stale = true; };
    window.addEventListener("resize", this.onResize);
    // benchmarks/ui_latency.py reads how long each frame's plan took (off otherwise).
    this.timings = window.__ohhellFrames || null;
  }

  stop() {
    if (this.cancel) this.cancel();
    this.cancel = null;
    window.removeEventListener("resize", this.onResize);
  }

  /** The DOM was patched: plan the flights in the next frame (one plan for many patches). */
  changed() {
    if (this.cancel) return;
    let readAt = 0;
    this.cancel = inNextFrame(
      () => { this.cancel = null; readAt = performance.now(); return this.read(); },
      (seen) => {
        this.write(seen);
        if (this.timings) this.timings.push({ ms: performance.now() - readAt, nodes: seen.length });
      });
  }

  /** Where every keyed element and every origin is now (one layout for all of them). */
  read() {
    if (!motionAllowed()) return [];
    return [...this.root.querySelectorAll("[data-key],[data-spot]")].map((node) => {
      const now = centre(node.getBoundingClientRect());
      const flight = node.dataset.key ? flightOf(node) : null;
      // Mid-flight, the box is drawn away from its place by what is left of the flight.
      const left = flight ? 1 - (flight.animation.effect.getComputedTiming().progress ?? 1) : 0;
      const place = flight ? { x: now.x - left * flight.dx, y: now.y - left * flight.dy, w: now.w } : now;
      return { node, now, place, flight };
    });
  }

  /**
   * Start the flights, from the old places to the new ones, and keep the new places. A card
   * flies when it is a new element for its key (from the hand to the trick) or its slot changed
   * (its inline style: the fan's spacing; its parent); a card whose box moved for another reason
   * (its own CSS transition, the raised playable cards) is left to that transition.
   */
  write(seen) {
    if (!motionAllowed()) { this.places.clear(); this.stale = true; return; }
    const stale = this.stale;
    const before = this.places;
    const places = new Map();
    for (const { node, place } of seen) {
      places.set(node.dataset.key || "spot:" + node.dataset.spot, { ...place, node, slot: slotOf(node) });
    }
    for (const { node, now, place, flight } of seen) {
      const key = node.dataset.key;
      if (!key || stale) continue;
      const old = before.get(key);
      if (old && old.node === node && old.slot === places.get(key).slot) continue;
      let from = flight ? now : old;
      let fresh = false;
      if (!from && node.dataset.from) {
        from = before.get("spot:" + node.dataset.from) || places.get("spot:" + node.dataset.from);
        fresh = true;
      }
      if (!from) continue;
      const dx = from.x - place.x, dy = from.y - place.y;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      if (flight) flight.animation.cancel();
      const scale = fresh ? 0.55 : Math.max(0.4, Math.min(2.2, from.w / (place.w || 1)));
      const delay = fresh ? Number(node.dataset.order || 0) * 25 : 0;
      const animation = node.animate(
        [{ translate: `${dx}px ${dy}px`, scale: String(scale), opacity: fresh ? 0.2 : 1 }, { translate: "0 0", scale: "1", opacity: 1 }],
        { duration: DURATION_MS + delay, easing: EASING, fill: "none" },
      );
      animation.id = "flip";
      node.__flight = { animation, dx, dy };
    }
    this.places = places;
    this.stale = false;
  }
}

/** Where an element is meant to be, as the page set it (read without laying anything out). */
function slotOf(node) {
  const parent = node.parentNode;
  return (node.getAttribute("style") || "") + "|" + (parent && parent.dataset ? parent.id || parent.dataset.seat || "" : "");
}

/** Slide the nodes to the element at `spot` and fade them out (a trick going to its winner). */
export function sweep(nodes, spot, done) {
  if (!motionAllowed() || !spot || !nodes.length) { done(); return; }
  // Read every box first, then start every slide.
  const to = centre(spot.getBoundingClientRect());
  const from = nodes.map((node) => centre(node.getBoundingClientRect()));
  let left = nodes.length;
  nodes.forEach((node, i) => {
    const move = node.animate(
      [{ translate: "0 0", scale: "1", opacity: 1 }, { translate: `${to.x - from[i].x}px ${to.y - from[i].y}px`, scale: "0.45", opacity: 0 }],
      { duration: 320, easing: "cubic-bezier(.5,0,.75,.4)", fill: "forwards" },
    );
    move.onfinish = move.oncancel = () => { left -= 1; if (left === 0) done(); };
  });
}
