// The quick reactions drawn as pictures (SVG), as the fair-deal die is: a system without a
// colour-emoji font (Debian's Chromium) shows the emoji characters as empty boxes. The server
// still names each reaction by its emoji (docs/protocol.md); only the drawing is ours.
import { html } from "../html.js";
import { t } from "../i18n.js";

const FACE = html`<circle cx="12" cy="12" r="10.5" fill="#ffcc33" stroke="#b7791f" stroke-width="1" />`;
const EYES = html`<circle cx="8.3" cy="9.5" r="1.4" fill="#4a2c00" /><circle cx="15.7" cy="9.5" r="1.4" fill="#4a2c00" />`;

/** Each reaction's drawing (24×24) and the key of its name. */
const DRAWINGS = {
  "👍": ["reaction_thumbs", html`<path d="M3 11h4v10H3z" fill="#d9893a" />
    <path d="M8 20.5V11l4.2-7.2c.6-1 2.3-.6 2.3.8V9h5.2c1.3 0 2.2 1.2 1.9 2.4l-1.8 7.2c-.3 1.1-1.2 1.9-2.4 1.9z"
      fill="#ffcc33" stroke="#b7791f" stroke-width="1" stroke-linejoin="round" />`],
  "👏": ["reaction_clap", html`<g stroke="#b7791f" stroke-width="1" fill="#ffcc33">
      <rect x="5" y="7" width="7" height="13" rx="3.5" transform="rotate(-20 8.5 13.5)" />
      <rect x="11" y="7" width="7" height="13" rx="3.5" transform="rotate(20 14.5 13.5)" /></g>
    <path d="M6 2.5l1.2 2.6M12 1.5v3M18 2.5l-1.2 2.6" stroke="#e25822" stroke-width="1.6" stroke-linecap="round" />`],
  "😮": ["reaction_wow", html`${FACE}${EYES}<ellipse cx="12" cy="16" rx="2.4" ry="3" fill="#4a2c00" />`],
  "😂": ["reaction_laugh", html`${FACE}<path d="M6.5 9.5q1.8-2 3.6 0M13.9 9.5q1.8-2 3.6 0" fill="none" stroke="#4a2c00" stroke-width="1.5" stroke-linecap="round" />
    <path d="M6.5 13h11a5.5 5.5 0 0 1-11 0z" fill="#4a2c00" /><path d="M4.2 11.5q-1 2.2.3 3.3M19.8 11.5q1 2.2-.3 3.3" fill="none" stroke="#4fa3e0" stroke-width="1.8" stroke-linecap="round" />`],
  "😢": ["reaction_sad", html`${FACE}${EYES}<path d="M8 17.5q4-3.5 8 0" fill="none" stroke="#4a2c00" stroke-width="1.5" stroke-linecap="round" />
    <path d="M16.6 11.5q1.6 2.6 0 3.6q-1.6-1 0-3.6z" fill="#4fa3e0" />`],
  "🔥": ["reaction_fire", html`<path d="M12 1.5c1 4 6.5 6.2 6.5 12.2a6.5 6.5 0 0 1-13 0c0-3 1.6-4.9 3-6.3.3 2 1.1 3.1 2.1 3.6-.2-3.4.3-6.6 1.4-9.5z" fill="#e25822" />
    <path d="M12 11c.6 2 3.2 3 3.2 5.8a3.2 3.2 0 0 1-6.4 0c0-1.6.9-2.6 1.7-3.3.2 1 .6 1.5 1 1.7-.1-1.6.1-3 .5-4.2z" fill="#ffcc33" />`],
};

/** The spoken name of a reaction ("thumbs up"); an unknown one is its own text. */
export function reactionName(reaction) {
  const drawing = DRAWINGS[reaction];
  return drawing ? t(drawing[0]) : reaction;
}

/** A reaction as a picture (`label`: its name for a screen reader, else hidden from one). */
export function ReactionIcon({ reaction, label }) {
  const drawing = DRAWINGS[reaction];
  if (!drawing) return html`<span aria-hidden=${label ? undefined : "true"}>${reaction}</span>`;
  return html`<svg class="reaction-icon" viewBox="0 0 24 24" width="1em" height="1em" focusable="false" data-reaction=${reaction}
    role=${label ? "img" : undefined} aria-label=${label || undefined} aria-hidden=${label ? undefined : "true"}>${drawing[1]}</svg>`;
}
