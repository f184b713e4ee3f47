// A region puzzle played by a person: the clock runs from the first move to the solve,
// the best time per puzzle and size is kept in the browser, hints are counted, and a
// daily puzzle solved is recorded (streak.js) and its result can be shared as a line.
import { clockText, resetClock, running, startClock, stopClock } from "./clock.js";
import { today } from "./days.js";
import { emit } from "./events.js";
import { $, regional, spec, state, whole } from "./state.js";
import { load, save } from "./stored.js";
import { recordDaily } from "./streak.js";

let game = { key: null, hints: 0, helped: false, done: false };

export const gridKey = () => (regional() && state.grid ? `${$("puzzle").value}:${state.grid.join(".")}` : null);
const size = () => `${whole("rows")}×${whole("rows")}`;
const bestKey = () => `best.${$("puzzle").value}.${whole("rows")}${spec().takes_stars ? `.${whole("stars")}` : ""}`;

// A new grid (generated, typed, painted, from a link) starts a new game.
function current() {
  const key = gridKey();
  if (key === game.key) return;
  game = { key, hints: 0, helped: false, done: false };
  resetClock();
  $("play-note").textContent = "";
  $("daily-result").hidden = true;
  showBest();
}

function showBest() {
  const best = regional() ? load(bestKey(), null) : null;
  $("best").textContent = best === null ? "" : `best ${size()}: ${clockText(best)}`;
}

// The game as kept between visits (keep.js), and set back from it for the grid shown.
export const playState = () => ({ current: game.key === gridKey(), hints: game.hints, helped: game.helped, done: game.done });

export function resumePlay({ hints, helped, done }) {
  game = { key: gridKey(), hints: Math.max(0, Number(hints) || 0), helped: Boolean(helped), done: Boolean(done) };
  showBest();
}

export function moved() {
  current();
  if (regional() && !game.done) startClock();
}

export function hinted() {
  current();
  game.hints += 1;
}

// An engine's answer was shown (Solve, browsing): no best time for this game.
export function revealed() {
  current();
  game.helped = true;
}

export const hintWords = (hints) => (hints === 0 ? "no hints" : hints === 1 ? "1 hint" : `${hints} hints`);

// The line a solved daily shares: "chessplace daily 2026-11-27 · 8×8 · 1:23 · no hints"
// (a Star Battle's says so, with its stars per line).
export function dailyText({ puzzle, day }, n, stars, seconds, hints) {
  const what = puzzle === "star-battle" ? `Star Battle ${n}×${n}, ${stars}★` : `${n}×${n}`;
  return `chessplace daily ${day} · ${what} · ${clockText(seconds)} · ${hintWords(hints)}`;
}

// After each check: solved by hand with the clock running ends the game.
export function checked() {
  current();
  if (!regional() || game.done || !running()) return;
  if (!state.verdict || state.verdict.status !== "valid" || !state.pieces.length) return;
  game.done = true;
  const time = stopClock();
  if (game.helped) {
    $("play-note").textContent = `Shown by the engine after ${clockText(time)}: no best time.`;
    return;
  }
  const best = load(bestKey(), null);
  const fair = game.hints === 0;
  const record = fair && (best === null || time < best);
  if (record) save(bestKey(), time);
  $("play-note").textContent = `Solved in ${clockText(time)}, ${hintWords(game.hints)}`
    + (record ? ` — a new best for ${size()}!` : fair ? "." : " (bests count solves without hints).");
  showBest();
  const daily = state.daily;
  if (daily && daily.grid === state.grid.join(".")) {
    recordDaily(daily.puzzle, daily.day, time, game.hints, today());
    $("daily-result").hidden = false;
    $("daily-text").value = dailyText(daily, whole("rows"), whole("stars"), time, game.hints);
    emit("daily-solved");
  }
}

export async function copyDaily() {
  $("daily-text").select();
  try {
    await navigator.clipboard.writeText($("daily-text").value);
    $("play-note").textContent = "Result copied.";
  } catch { /* selected: copy it by hand */ }
}
