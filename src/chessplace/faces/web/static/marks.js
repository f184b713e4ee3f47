// A region puzzle played as Queens-game players expect (LinkedIn Queens): a tap marks a
// square X, a second tap (so a double tap) places the crown, a third clears it. With
// "auto X" on, the squares the crowns already rule out show a faint X.
import { parseSquare } from "./board.js";
import { nameOf } from "./position.js";
import { $, spec, state, whole } from "./state.js";

const same = (a, b) => a[0] === b[0] && a[1] === b[1];

// One tap on `square`: empty → X → crown → empty. An auto X is a hint, not a mark: its
// square taps as an empty one, so a double tap always places a crown.
export function cycle(square) {
  const name = nameOf(square);
  const at = state.pieces.findIndex((piece) => same(piece.square, square));
  if (at >= 0) {
    state.pieces.splice(at, 1);
  } else if (state.marks.includes(name)) {
    state.marks = state.marks.filter((n) => n !== name);
    state.pieces.push({ army: 0, square });
  } else {
    state.marks = [...state.marks, name];
  }
}

// Squares no further crown may take: those touching a crown, and the rest of every
// rank, file and region that already holds its crowns (K stars in Star Battle).
export function ruledOut() {
  const grid = state.grid;
  if (!grid || !state.pieces.length) return new Set();
  const n = grid.length;
  const per = spec().takes_stars ? whole("stars") : 1;
  const region = (file, rank) => (grid[n - 1 - rank] || "")[file];
  const counts = new Map();
  const bump = (key) => counts.set(key, (counts.get(key) || 0) + 1);
  const taken = new Set();
  for (const { square: [file, rank] } of state.pieces) {
    taken.add(`${file},${rank}`);
    bump(`r${rank}`); bump(`f${file}`); bump(`g${region(file, rank)}`);
  }
  const full = (key) => (counts.get(key) || 0) >= per;
  const out = new Set();
  for (let rank = 0; rank < n; rank++) {
    for (let file = 0; file < n; file++) {
      if (taken.has(`${file},${rank}`)) continue;
      const touching = state.pieces.some(({ square: [f, r] }) => Math.abs(f - file) <= 1 && Math.abs(r - rank) <= 1);
      if (touching || full(`r${rank}`) || full(`f${file}`) || full(`g${region(file, rank)}`)) {
        out.add(nameOf([file, rank]));
      }
    }
  }
  return out;
}

// The X marks to draw: the player's, then (with auto X) the ruled-out squares.
export function markView() {
  const own = state.marks.map((name) => ({ square: parseSquare(name), auto: false }));
  if (!$("auto-x").checked) return own;
  const auto = [...ruledOut()].filter((name) => !state.marks.includes(name));
  return [...own, ...auto.map((name) => ({ square: parseSquare(name), auto: true }))];
}

// Marks stay on the board they were made on; a board puzzle has none.
export function fitMarks(rows, cols, grid) {
  state.marks = grid ? state.marks.filter((name) => {
    const [file, rank] = parseSquare(name);
    return file < cols && rank < rows && !state.pieces.some((piece) => nameOf(piece.square) === name);
  }) : [];
}
