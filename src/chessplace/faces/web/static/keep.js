// The region puzzle in progress, kept in the browser (localStorage) so that a reload, or
// the page opened again, finds it as it was: the grid, the crowns, the X marks, the clock,
// the hints taken and the daily it is. The last game played is kept, and the last daily
// of each kind, so that today's Queens game and Star Battle can be played in turns.
import { parseSquare } from "./board.js";
import { clockState, resumeClock } from "./clock.js";
import { playState, resumePlay } from "./play.js";
import { nameOf } from "./position.js";
import { decode } from "./share.js";
import { $, regional, spec, state, whole } from "./state.js";
import { load, save } from "./stored.js";

const KEY = "game";
const dailyKey = (puzzle) => `game.daily.${puzzle}`;
const SQUARE = /^[a-z]+[1-9][0-9]*$/;

// Keep the game shown, once it has been played (a grid merely opened keeps the last one).
export function keepGame() {
  if (!regional() || !state.grid) return;
  const clock = clockState();
  const play = playState();
  if (!play.current || (clock.state === "idle" && !state.pieces.length && !state.marks.length)) return;
  const daily = state.daily && state.daily.grid === state.grid.join(".") ? state.daily : null;
  const game = {
    puzzle: $("puzzle").value,
    grid: state.grid,
    stars: spec().takes_stars ? whole("stars") : null,
    pieces: state.pieces.map((piece) => nameOf(piece.square)),
    marks: state.marks,
    clock,
    play: { hints: play.hints, helped: play.helped, done: play.done },
    daily,
    note: $("play-note").textContent,
    shared: $("daily-result").hidden ? null : $("daily-text").value,
  };
  save(KEY, game);
  if (daily) save(dailyKey(daily.puzzle), game);
}

// At the start, after the link is read: the kept game comes back when the link names its
// grid, or names no puzzle and the game is unfinished. True when it came back.
export function restoreGame() {
  const kept = readKept();
  if (!kept) return false;
  const named = decode(location.hash).options.puzzle !== undefined;
  const same = $("puzzle").value === kept.puzzle && state.grid && state.grid.join(".") === kept.grid.join(".");
  if (named ? !same : kept.play.done) return false;
  bringBack(kept);
  return true;
}

// The daily `puzzle` of `day` back as it was left, when it is the game kept; true if so.
export function restoreDaily(puzzle, day) {
  const kept = readKept(dailyKey(puzzle));
  if (!kept || !kept.daily || kept.daily.puzzle !== puzzle || kept.daily.day !== day) return false;
  bringBack(kept);
  return true;
}

function bringBack(kept) {
  $("puzzle").value = kept.puzzle;
  state.grid = kept.grid;
  $("rows").value = kept.grid.length;
  $("cols").value = kept.grid.length;
  if (kept.stars) $("stars").value = kept.stars;
  state.pieces = kept.pieces.map((name) => ({ army: 0, square: parseSquare(name) }));
  state.marks = kept.marks;
  state.hint = [];
  state.daily = kept.daily;
  resumePlay(kept.play);
  resumeClock(kept.clock);
  $("play-note").textContent = kept.note;
  $("daily-result").hidden = kept.shared === null;
  $("daily-text").value = kept.shared || "";
}

// The kept game, or null when there is none or it is not one this page can show.
function readKept(key = KEY) {
  const kept = load(key, null);
  const names = (list) => Array.isArray(list) && list.every((name) => typeof name === "string" && SQUARE.test(name));
  try {
    const puzzle = state.catalog.puzzles.find((known) => known.name === kept.puzzle);
    const grid = Array.isArray(kept.grid) && kept.grid.length && kept.grid.every((row) => typeof row === "string");
    if (!puzzle || !puzzle.takes_grid || !grid || !names(kept.pieces) || !names(kept.marks)) return null;
    if (typeof kept.clock !== "object" || typeof kept.play !== "object") return null;
    const daily = kept.daily && typeof kept.daily.puzzle === "string" && typeof kept.daily.day === "string" ? kept.daily : null;
    return { ...kept, daily, note: String(kept.note || ""), shared: kept.shared ? String(kept.shared) : null };
  } catch {
    return null;
  }
}

export function keepOnLeaving() {
  window.addEventListener("pagehide", keepGame);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") keepGame(); });
}
