// A drag marks X's, as in LinkedIn's Queens: a press on an empty square of a region
// puzzle, dragged over others, marks it and every empty square it passes (crowns and
// marks already there stay). Undo takes the whole drag back.
import { emit } from "./events.js";
import { nameOf } from "./position.js";
import { $, regional, state } from "./state.js";
import { remember } from "./undo.js";
import { draw, refresh } from "./verdict.js";

function empty(square) {
  const name = nameOf(square);
  return !state.marks.includes(name) && !state.pieces.some((piece) => nameOf(piece.square) === name);
}

function markX(square) {
  if (!empty(square)) return;
  state.marks = [...state.marks, nameOf(square)];
  draw();
}

export const dragMarks = {
  start(square) {
    if (!square || state.job || state.generating || !regional() || !empty(square)) return false;
    remember();
    state.hint = [];
    markX(square);
    return true;
  },
  pass: markX,
  done() {
    emit("moved");
    state.offset = null;
    $("position").textContent = "–";
    refresh();
  },
};
