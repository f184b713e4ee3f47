// The position a puzzle starts from, set by clicking (issue 44): blocked squares, pinned
// (given) pieces and pawns, as the API's `blocked`, `given` and `pawns` options.
import { fileName, parseSquare } from "./board.js";
import { $, placesPawns, regional, state } from "./state.js";

export const MODES = [
  ["place", "place pieces", "a click places or removes a piece"],
  ["block", "block square", "a click blocks a square (no piece stands there, rides pass over it)"],
  ["given", "pin piece", "a click pins a piece that every answer keeps (or unpins one)"],
  ["pawn", "drop pawn", "a click drops a pawn that stops every ride through it (or lifts it)"],
];

export const nameOf = (square) => fileName(square[0]) + (square[1] + 1);
const same = (a, b) => a[0] === b[0] && a[1] === b[1];

// The position as the API's options (only what is set); queens-and-pawns' pawns are part
// of the answer, not of the problem (see placedPawns).
export function positionOptions() {
  const body = {};
  if (state.blocked.length) body.blocked = [...state.blocked];
  if (state.pawns.length && !placesPawns()) body.pawns = [...state.pawns];
  const given = state.pieces.filter((piece) => piece.given)
    .map(({ army, square }) => `${state.catalog.armies[army]}:${nameOf(square)}`);
  if (given.length) body.given = given;
  return body;
}

// The pawns a queens-and-pawns answer places, as pieces.
export function placedPawns() {
  return placesPawns() ? state.pawns.map((square) => ({ piece: "pawn", army: "neutral", square })) : [];
}

// A blocked square or a pawn: no piece is placed there.
export function holdsPosition(square) {
  const name = nameOf(square);
  return state.blocked.includes(name) || state.pawns.includes(name);
}

// A click in a position mode (block, given, pawn): change the position there.
export function editPosition(square) {
  const name = nameOf(square);
  const at = state.pieces.findIndex((piece) => same(piece.square, square));
  const toggle = (list) => (list.includes(name) ? list.filter((n) => n !== name) : [...list, name]);
  const clearSquare = () => {
    if (at >= 0) state.pieces.splice(at, 1);
    state.blocked = state.blocked.filter((n) => n !== name);
    state.pawns = state.pawns.filter((n) => n !== name);
  };
  if (state.mode === "block") {
    const blocked = toggle(state.blocked);
    clearSquare();
    state.blocked = blocked;
  } else if (state.mode === "pawn") {
    const pawns = toggle(state.pawns);
    clearSquare();
    state.pawns = pawns;
  } else if (at >= 0) {
    state.pieces[at] = { ...state.pieces[at], given: !state.pieces[at].given };
  } else {
    clearSquare();
    state.pieces.push({ army: state.army, square, given: true });
  }
}

// Keep what still fits the board; a region puzzle has no position.
export function fitPosition(rows, cols) {
  const fits = (name) => {
    const square = parseSquare(name);
    return Boolean(square) && square[0] < cols && square[1] < rows;
  };
  state.blocked = regional() ? [] : state.blocked.filter(fits);
  state.pawns = regional() ? [] : state.pawns.filter(fits);
  if (regional()) state.pieces = state.pieces.map(({ army, square }) => ({ army, square }));
}

export function showModes() {
  const picker = $("mode-picker");
  picker.hidden = regional();
  if (regional()) state.mode = "place";
  picker.replaceChildren(...MODES.map(([mode, label, title]) => {
    const chip = document.createElement("button");
    chip.className = "chip mode";
    chip.setAttribute("role", "radio");
    chip.setAttribute("aria-checked", String(mode === state.mode));
    chip.dataset.mode = mode;
    chip.title = mode === "pawn" && placesPawns() ? "a click places a pawn of the answer (or lifts it)" : title;
    chip.textContent = label;
    chip.addEventListener("click", () => { state.mode = mode; showModes(); });
    return chip;
  }));
}
