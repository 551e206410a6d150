// Animation computed, not scripted (as chessground's anim.ts): before the page is patched,
// remember where every keyed element is on the screen; after, move each one from its old place
// to its new one. A card that left the hand for the trick keeps its key, so it flies from the
// hand to the trick; a card that appears with no old place comes from the element its
// `data-from` names (the seat that played it, the dealer for a new hand). Short and
// interruptible: an element caught mid-flight starts again from where it is seen now. Nothing
// moves when the player or the system asks for reduced motion.
import { motionAllowed } from "./storage.js";

const DURATION_MS = 260;
const EASING = "cubic-bezier(.2,.7,.25,1)";

function center(rect) { return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, w: rect.width }; }

/** Where each keyed element (`data-key`) and each origin (`data-spot`) is now. */
export function snapshot(root) {
  const places = new Map();
  if (!motionAllowed()) return places;
  for (const node of root.querySelectorAll("[data-key],[data-spot]")) {
    const key = node.dataset.key || "spot:" + node.dataset.spot;
    places.set(key, center(node.getBoundingClientRect()));
  }
  return places;
}

/** Move every keyed element from where `before` saw it (or from its origin) to where it is. */
export function animate(root, before) {
  if (!before.size || !motionAllowed()) return;
  for (const node of root.querySelectorAll("[data-key]")) {
    let from = before.get(node.dataset.key);
    let fresh = false;
    if (!from && node.dataset.from) {
      from = before.get("spot:" + node.dataset.from);
      fresh = true;
    }
    if (!from) continue;
    const to = center(node.getBoundingClientRect());
    const dx = from.x - to.x, dy = from.y - to.y;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    for (const running of node.getAnimations()) if (running.id === "flip") running.cancel();
    const scale = fresh ? 0.55 : Math.max(0.4, Math.min(2.2, from.w / (to.w || 1)));
    const delay = fresh ? Number(node.dataset.order || 0) * 25 : 0;
    const move = node.animate(
      [{ translate: `${dx}px ${dy}px`, scale: String(scale), opacity: fresh ? 0.2 : 1 }, { translate: "0 0", scale: "1", opacity: 1 }],
      { duration: DURATION_MS + delay, easing: EASING, delay: 0, fill: "none" },
    );
    move.id = "flip";
  }
}

/** Slide the nodes to the element at `spot` and fade them out (a trick going to its winner). */
export function sweep(nodes, spot, done) {
  if (!motionAllowed() || !spot) { done(); return; }
  const to = center(spot.getBoundingClientRect());
  let left = nodes.length;
  if (!left) { done(); return; }
  for (const node of nodes) {
    const from = center(node.getBoundingClientRect());
    const move = node.animate(
      [{ translate: "0 0", scale: "1", opacity: 1 }, { translate: `${to.x - from.x}px ${to.y - from.y}px`, scale: "0.45", opacity: 0 }],
      { duration: 320, easing: "cubic-bezier(.5,0,.75,.4)", fill: "forwards" },
    );
    move.onfinish = move.oncancel = () => { left -= 1; if (left === 0) done(); };
  }
}
