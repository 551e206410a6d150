// Where things sit on the table: seats on an ellipse with this player at the bottom and the
// others clockwise in seat order (bottom, left, top, right, as play passes to the left), each
// played card in front of its player, and the hand fanned in one row.

/** A seat's place as fractions of the table box (0–1), for the k-th seat counted from mine. */
export function seatPlace(k, count) {
  const angle = (2 * Math.PI * k) / count;
  return { x: 0.5 - 0.5 * Math.sin(angle), y: 0.5 + 0.5 * Math.cos(angle) };
}

/**
 * The direction from the middle of the table to the k-th seat (dx, dy in -1..1); the stylesheet
 * puts the seat's card that way, as far out as the seats and the card's size allow.
 */
export function trickDirection(k, count) {
  const angle = (2 * Math.PI * k) / count;
  return { dx: -Math.sin(angle), dy: Math.cos(angle) };
}

/**
 * The hand's fan: each card's left edge in px and its tilt, for `count` cards of `cardWidth`
 * in `width` px. Cards overlap only as much as they must, and always leave their corner index
 * (rank and suit) visible: never wider than one row.
 */
export function fan(count, width, cardWidth) {
  if (count <= 0) return { step: 0, offset: 0, tilt: 0 };
  const natural = cardWidth * 1.08;
  const step = count > 1 ? Math.max(14, Math.min(natural, (width - cardWidth) / (count - 1))) : 0;
  const used = step * (count - 1) + cardWidth;
  return { step, offset: Math.max(0, (width - used) / 2), tilt: step < cardWidth ? Math.min(2, 14 / count) : 0 };
}
