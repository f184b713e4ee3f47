// Undo: what the board held before each change (a click, Clear, an answer shown).
import { state } from "./state.js";

const MOST = 200;
const past = [];

function snapshot() {
  return {
    pieces: state.pieces.map((piece) => ({ ...piece, square: [...piece.square] })),
    blocked: [...state.blocked],
    pawns: [...state.pawns],
    marks: [...state.marks],
  };
}

// Call before changing the board.
export function remember() {
  past.push(snapshot());
  if (past.length > MOST) past.shift();
}

// Put back the board as it was before the last change; false when there is none.
export function undo() {
  const before = past.pop();
  if (!before) return false;
  Object.assign(state, before);
  state.offset = null;
  return true;
}

export const canUndo = () => past.length > 0;
export function forget() { past.length = 0; }
