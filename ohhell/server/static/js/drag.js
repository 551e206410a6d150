// Dragging a card to the table with a mouse, a pen or a finger (pointer events). A press that
// moves less than a few pixels stays a click; a card dropped above the hand is played; one
// dropped back on the hand returns to its place.
const THRESHOLD_PX = 8;

/**
 * Call from pointerdown on a playable card. `drop(x, y)` says whether a drop there plays the
 * card; `play()` plays it. Returns nothing; the click that follows a drag is swallowed.
 */
export function dragCard(event, node, { drop, play }) {
  if (event.button !== 0 && event.pointerType === "mouse") return;
  const startX = event.clientX, startY = event.clientY;
  let dragging = false;
  const move = (e) => {
    const dx = e.clientX - startX, dy = e.clientY - startY;
    if (!dragging && Math.hypot(dx, dy) < THRESHOLD_PX) return;
    if (!dragging) {
      dragging = true;
      node.classList.add("dragging");
      try { node.setPointerCapture(e.pointerId); } catch (error) { /* already released */ }
    }
    node.style.translate = `${dx}px ${dy}px`;
    node.classList.toggle("will-play", drop(e.clientX, e.clientY));
    e.preventDefault();
  };
  const end = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (!dragging) return;
    const swallow = (c) => { c.stopPropagation(); c.preventDefault(); };
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
    node.classList.remove("dragging", "will-play");
    if (e.type === "pointerup" && drop(e.clientX, e.clientY)) {
      play(); // the card keeps its key: the animation takes it from where it was let go
    } else {
      const back = node.animate([{ translate: node.style.translate }, { translate: "0 0" }], { duration: 180, easing: "ease-out" });
      back.id = "flip";
    }
    node.style.translate = "";
  };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}
