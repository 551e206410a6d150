// Sounds made on the spot with the Web Audio API (no files): a soft two-note chime for "your
// turn", a short card snap for a card played, a low tick when the timer runs low. Off until the
// player switches them on (browsers allow audio only after a click anyway).
import { getPrefs } from "./storage.js";

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

function tone(ctx, frequency, start, length, volume, type = "sine") {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, ctx.currentTime + start);
  gain.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(volume, ctx.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

function noise(ctx, length, volume) {
  const samples = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / samples, 3);
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 2200;
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start();
}

export const sounds = {
  turn() { const ctx = audio(); if (ctx) { tone(ctx, 660, 0, 0.18, 0.12); tone(ctx, 880, 0.12, 0.28, 0.1); } },
  card() { const ctx = audio(); if (ctx) noise(ctx, 0.07, 0.5); },
  warn() { const ctx = audio(); if (ctx) tone(ctx, 330, 0, 0.12, 0.08, "triangle"); },
  chat() { const ctx = audio(); if (ctx) tone(ctx, 990, 0, 0.08, 0.05); },
};

/** Play a sound if the player switched sounds on. */
export function play(name) {
  if (getPrefs().sound && sounds[name]) {
    try { sounds[name](); } catch (error) { /* no audio device: stay quiet */ }
  }
}
