// What every part of the page shares: the state, the server, the options as read.

export const $ = (id) => document.getElementById(id);
export const TASKS = ["solve", "optimize", "count"];
export const VERBS = { solve: "Solve", optimize: "Optimize", count: "Count", unique: "Uniqueness check", generate: "Generate" };
export const COUNT_KINDS = ["at_least", "exactly", "at_most"];
export const NUMBERS = [
  ["rows", "Rows"], ["cols", "Columns"], ["armies", "Armies"], ["white", "White pieces"],
  ["count-value", "The number of pieces"], ["time-limit", "The time limit"], ["stars", "Stars per row"],
];

export const state = {
  catalog: null,
  limits: null,
  board: null,
  pieces: [], // {army: index, square: [file, rank], given: true for a pinned piece}, 0-based
  blocked: [], // the position: blocked squares and pawns (names, "e4")
  pawns: [], // given pawns, or (queens-and-pawns) the pawns placed
  mode: "place", // what a click on a board does: place, block, given, pawn
  marks: [], // a region puzzle's squares marked X by the player (names)
  hint: [], // squares a hint tints (names)
  armies: [], // the current problem's armies: {name, piece}
  verdict: null, // the server's verify answer for the pieces
  optionsError: null,
  checks: 0,
  army: 0, // the army a click places
  grid: null, // a region puzzle's grid: one string per row, top row first
  daily: null, // the daily puzzle played: {puzzle, day, grid (rows joined by ".")}
  paintLabel: null, // the region a painting click gives a square
  generating: false,
  result: null,
  offset: null, // the placement browsed to, or null
  more: true,
  job: null,
  history: [],
  timer: null,
};

// ---------- the server ----------


export async function getJSON(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

export async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : `request failed (${response.status})`);
  return data;
}

// "a" or "an" before a number, by how it is said: an 8, an 11, an 18, an 80, a 1, a 100.
export function article(n) {
  let lead = Math.abs(Math.trunc(n));
  while (lead >= 1000) lead = Math.trunc(lead / 1000);
  const eight = lead === 8 || (lead >= 80 && lead < 90) || (lead >= 800 && lead < 900);
  return eight || lead === 11 || lead === 18 ? "an" : "a";
}

export function say(id, text, kind) {
  $(id).textContent = text;
  $(id).className = kind;
}

// ---------- the options as read ----------


export function spec() {
  return state.catalog.puzzles.find((puzzle) => puzzle.name === $("puzzle").value) || state.catalog.puzzles[0];
}

export const whole = (id) => Number($(id).value);
export const side = () => Math.max(whole("rows"), whole("cols"));

export function armyCount() {
  return spec().takes_armies ? Number($("armies").value || 2) : 1;
}

export const regional = () => Boolean(spec().takes_grid);
// queens-and-pawns: the answer places the pawns, so the pawns on the board are placed ones.
export const placesPawns = () => Boolean(spec().places_pawns);
