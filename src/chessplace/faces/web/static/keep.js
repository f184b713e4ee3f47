// The region puzzle in progress, kept in the browser (localStorage) so that a reload, or
// the page opened again, finds it as it was: the grid, the crowns, the X marks, the clock,
// the hints taken and the daily it is. One game is kept: the last one played.
import { parseSquare } from "./board.js";
import { clockState, resumeClock } from "./clock.js";
import { playState, resumePlay } from "./play.js";
import { nameOf } from "./position.js";
import { decode } from "./share.js";
import { $, regional, spec, state, whole } from "./state.js";
import { load, save } from "./stored.js";

const KEY = "game";
const SQUARE = /^[a-z]+[1-9][0-9]*$/;

// Keep the game shown, once it has been played (a grid merely opened keeps the last one).
export function keepGame() {
  if (!regional() || !state.grid) return;
  const clock = clockState();
  const play = playState();
  if (!play.current || (clock.state === "idle" && !state.pieces.length && !state.marks.length)) return;
  save(KEY, {
    puzzle: $("puzzle").value,
    grid: state.grid,
    stars: spec().takes_stars ? whole("stars") : null,
    pieces: state.pieces.map((piece) => nameOf(piece.square)),
    marks: state.marks,
    clock,
    play: { hints: play.hints, helped: play.helped, done: play.done },
    daily: state.daily || null,
    note: $("play-note").textContent,
    shared: $("daily-result").hidden ? null : $("daily-text").value,
  });
}

// At the start, after the link is read: the kept game comes back when the link names its
// grid, or names no puzzle and the game is unfinished. True when it came back.
export function restoreGame() {
  const kept = readKept();
  if (!kept) return false;
  const named = decode(location.hash).options.puzzle !== undefined;
  const same = $("puzzle").value === kept.puzzle && state.grid && state.grid.join(".") === kept.grid.join(".");
  if (named ? !same : kept.play.done) return false;
  $("puzzle").value = kept.puzzle;
  state.grid = kept.grid;
  $("rows").value = kept.grid.length;
  $("cols").value = kept.grid.length;
  if (kept.stars) $("stars").value = kept.stars;
  state.pieces = kept.pieces.map((name) => ({ army: 0, square: parseSquare(name) }));
  state.marks = kept.marks;
  state.daily = kept.daily;
  resumePlay(kept.play);
  resumeClock(kept.clock);
  $("play-note").textContent = kept.note;
  $("daily-result").hidden = kept.shared === null;
  $("daily-text").value = kept.shared || "";
  return true;
}

// The kept game, or null when there is none or it is not one this page can show.
function readKept() {
  const kept = load(KEY, null);
  const names = (list) => Array.isArray(list) && list.every((name) => typeof name === "string" && SQUARE.test(name));
  try {
    const puzzle = state.catalog.puzzles.find((known) => known.name === kept.puzzle);
    const grid = Array.isArray(kept.grid) && kept.grid.length && kept.grid.every((row) => typeof row === "string");
    if (!puzzle || !puzzle.takes_grid || !grid || !names(kept.pieces) || !names(kept.marks)) return null;
    if (typeof kept.clock !== "object" || typeof kept.play !== "object") return null;
    return { ...kept, note: String(kept.note || ""), shared: kept.shared ? String(kept.shared) : null };
  } catch {
    return null;
  }
}

export function keepOnLeaving() {
  window.addEventListener("pagehide", keepGame);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") keepGame(); });
}
