// A rating chart: μ after each rated game with the band μ ± 2σ, drawn as SVG (attributes only: the
// Content-Security-Policy forbids inline styles; colours come from community.css classes).
import { html } from "../html.js";

export function RatingChart({ points, width = 560, height = 180 }) {
  if (!points || !points.length) return null;
  const pad = 34;
  const lows = points.map((p) => p.mu - 2 * p.sigma), highs = points.map((p) => p.mu + 2 * p.sigma);
  const min = Math.min(...lows), max = Math.max(...highs);
  const span = max - min || 1;
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad / 2 - ((v - min) * (height - pad)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" ");
  const band = [...points.map((p, i) => `${x(i).toFixed(1)},${y(p.mu + 2 * p.sigma).toFixed(1)}`),
    ...points.map((p, i) => `${x(i).toFixed(1)},${y(p.mu - 2 * p.sigma).toFixed(1)}`).reverse()].join(" ");
  return html`<svg class="rating-chart" viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${points.map((p) => Math.round(p.mu)).join(", ")}>
    <polygon class="band" points=${band} />
    <polyline class="line" points=${line} />
    ${points.map((p, i) => html`<circle class="dot" cx=${x(i)} cy=${y(p.mu)} r="3"><title>${Math.round(p.mu)} ± ${Math.round(2 * p.sigma)}</title></circle>`)}
    <text class="axis" x="2" y=${y(max) + 10}>${Math.round(max)}</text>
    <text class="axis" x="2" y=${y(min)}>${Math.round(min)}</text>
  </svg>`;
}
