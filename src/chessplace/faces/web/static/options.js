// The options: what they ask of the server, their bounds, which fields show.
import { emit } from "./events.js";
import { fitMarks } from "./marks.js";
import { fitPosition, positionOptions } from "./position.js";
import { $, NUMBERS, armyCount, placesPawns, regional, spec, state, whole } from "./state.js";

// The problem as the API's JSON options (only what is set).
export function problemOptions() {
  const body = { puzzle: $("puzzle").value };
  if (regional()) {
    body.grid = state.grid;
    if (spec().takes_stars) body.stars = whole("stars");
    return body;
  }
  if (whole("rows") === whole("cols")) body.n = whole("rows");
  else Object.assign(body, { rows: whole("rows"), cols: whole("cols") });
  if (spec().takes_piece) body.piece = $("piece").value.trim();
  if (spec().takes_armies) {
    if ($("armies").value !== "") body.armies = whole("armies");
    if ($("white").value !== "") body.white = whole("white");
  }
  const kind = $("count-kind").value;
  if (kind && $("count-value").value !== "") body[kind] = whole("count-value");
  Object.assign(body, positionOptions());
  if (placesPawns()) body.pawns = whole("place-pawns");
  return body;
}

export function runOptions() {
  const body = problemOptions();
  if ($("time-limit").value !== "") body.time_limit = Number($("time-limit").value);
  if ($("solver").value) body.solver = $("solver").value;
  return body;
}

// Keep a number input within its bounds (the server's limits); say so when it had to change.
function clamp(id, label) {
  const input = $(id);
  if (input.value === "") return null;
  const value = Number(input.value);
  const low = input.min === "" ? -Infinity : Number(input.min);
  const high = input.max === "" ? Infinity : Number(input.max);
  let kept = Number.isFinite(value) ? value : low;
  if (input.step !== "any") kept = Math.round(kept);
  kept = Math.min(high, Math.max(low, kept));
  if (kept === value) return null;
  input.value = kept;
  return `${label} is between ${low} and ${high} on this server: set to ${kept}`;
}

function showFields() {
  const puzzle = spec();
  $("puzzle-summary").textContent = puzzle.summary;
  $("piece-field").hidden = !puzzle.takes_piece;
  $("army-fields").hidden = !puzzle.takes_armies;
  $("count-value").disabled = $("count-kind").value === "";
  const grid = regional();
  $("grid-fields").hidden = !grid;
  $("stars-field").hidden = !puzzle.takes_stars;
  $("count-field").hidden = grid;
  for (const element of document.querySelectorAll(".board-only")) element.hidden = grid;
  $("size-label").textContent = grid ? "Size" : "Board";
  $("paint-toggle").hidden = !grid;
  $("optimize").hidden = grid;
  $("unique-check").hidden = !grid;
  $("hint").hidden = !grid;
  $("symmetry-checks").hidden = grid; // region puzzles have no symmetry or optimum to ask for
  $("place-pawns-field").hidden = !placesPawns();
  for (const element of document.querySelectorAll(".region-only")) element.hidden = !grid;
  const idle = $("status").textContent;
  if (idle.startsWith("Press ")) {
    $("status").textContent = grid ? "Press Solve, Count, Unique? or Hint." : "Press Solve, Optimize or Count.";
  }
  if (!grid) $("paint").checked = false;
}

// Any option changed: check it here, keep the pieces that still fit, ask the server.
export function optionsChanged() {
  const notes = NUMBERS.map(([id, label]) => clamp(id, label)).filter(Boolean);
  $("options-note").textContent = notes.join("; ");
  $("options-note").className = "note";
  showFields();
  if (regional()) fitGrid();
  const [rows, cols, armies] = [whole("rows"), whole("cols"), armyCount()];
  state.pieces = state.pieces.filter(
    ({ army, square: [file, rank] }) => file < cols && rank < rows && army < armies,
  );
  fitPosition(rows, cols);
  fitMarks(rows, cols, regional());
  state.army = Math.min(state.army, armies - 1);
  state.offset = null;
  state.result = null;
  $("position").textContent = "–";
  if (state.puzzle !== $("puzzle").value) {
    state.puzzle = $("puzzle").value;
    emit("puzzle-changed");
  }
  emit("options-changed");
}

// A Queens game or Star Battle grid is square: the files follow the ranks, and a grid
// of another size starts again from one region per row.
function fitGrid() {
  const n = whole("rows");
  $("cols").value = n;
  if (!state.grid || state.grid.length !== n) {
    const labels = state.catalog.region_labels;
    state.grid = Array.from({ length: n }, (_, row) => labels[row % labels.length].repeat(n));
  }
  $("grid-text").value = state.grid.join("\n");
}
