// The clock of a region puzzle being played: starts at the first move, stops when
// solved, shown as m:ss (h:mm:ss past an hour).
import { $ } from "./state.js";

let started = null;
let stopped = null;
let ticker = null;

export function clockText(seconds) {
  const whole = Math.floor(seconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const pad = (value) => String(value).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export const seconds = () => (started === null ? 0 : ((stopped ?? performance.now()) - started) / 1000);
export const running = () => started !== null && stopped === null;
const phase = () => (running() ? "running" : (stopped !== null ? "stopped" : "idle"));

function show() {
  $("clock").textContent = clockText(seconds());
  $("clock").dataset.state = phase();
}

export function startClock() {
  if (started !== null) return;
  started = performance.now();
  ticker = setInterval(show, 250);
  show();
}

export function stopClock() {
  if (!running()) return seconds();
  stopped = performance.now();
  clearInterval(ticker);
  show();
  return seconds();
}

export function resetClock() {
  clearInterval(ticker);
  started = null;
  stopped = null;
  show();
}

// The clock as kept between visits ({seconds, state}), and set back from it: running on
// from there (the time away does not count), stopped at it, or idle.
export const clockState = () => ({ seconds: seconds(), state: phase() });

export function resumeClock({ seconds: kept, state: how }) {
  resetClock();
  if (how !== "running" && how !== "stopped") return;
  started = performance.now() - 1000 * Math.max(0, Number(kept) || 0);
  if (how === "stopped") stopped = performance.now();
  else ticker = setInterval(show, 250);
  show();
}
