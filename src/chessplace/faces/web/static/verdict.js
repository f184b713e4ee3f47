// The board and its verdict: drawing, placing pieces, the server's check.
import { parseSquare, pieceLook } from "./board.js";
import { emit } from "./events.js";
import { cycle, markView, ruledOut } from "./marks.js";
import { problemOptions } from "./options.js";
import { editPosition, holdsPosition, nameOf, placedPawns } from "./position.js";
import { regionView } from "./regions.js";
import { $, armyCount, post, regional, say, side, spec, state, whole } from "./state.js";
import { remember } from "./undo.js";

// Broken rules listed under the board: a few, and the rest behind "… and N more" (a
// player's first wrong crowns on 8×8 break some 20, which pushed Solve and Hint off a
// phone's screen).
export const LISTED = 3;

function pieceOf(army) {
  if (state.armies[army]) return state.armies[army].piece;
  if (regional()) return spec().takes_stars ? "star" : "crown";
  return spec().takes_piece ? $("piece").value.trim() || "?" : "queen";
}

export function draw() {
  const verdict = state.verdict;
  const squares = (names) => names.map(parseSquare).filter(Boolean);
  state.board.draw({
    rows: whole("rows"),
    cols: whole("cols"),
    pieces: state.pieces.map(({ army, square, given }) => ({
      army, square, given, look: pieceLook(pieceOf(army), state.catalog),
    })),
    attacked: squares([...attackedShown(), ...state.hint]),
    conflicts: verdict ? verdict.conflicts.map(squares).filter((pair) => pair.length === 2) : [],
    regions: regional() ? regionView() : null,
    blocked: squares(state.blocked),
    pawns: squares(state.pawns),
    marks: regional() ? markView() : [],
    letters: $("letters").checked,
  });
  showPositionLegend();
  emit("drawn");
}

// What the marks of a position mean, under the board while it has them: the pin of a
// given piece, the neutral pawn, the hatched blocked square.
function showPositionLegend() {
  const legend = $("position-legend");
  const drawing = state.catalog.drawing;
  const keys = [];
  if (state.pieces.some((piece) => piece.given)) {
    const pin = Object.assign(document.createElement("span"), { className: "dot pin" });
    pin.style.background = drawing.given;
    keys.push([pin, "pinned: every answer keeps this piece"]);
  }
  if (state.pawns.length) {
    keys.push([Object.assign(document.createElement("span"), { className: "key-pawn", textContent: "♙" }),
      "pawn: no army's; it holds its square and stops every ride through it"]);
  }
  if (state.blocked.length) {
    const hatch = Object.assign(document.createElement("span"), { className: "key-blocked" });
    hatch.style.backgroundColor = drawing.blocked;
    keys.push([hatch, "blocked: no piece stands there, rides pass over it"]);
  }
  legend.hidden = !keys.length;
  legend.replaceChildren(...keys.map(([mark, words]) => {
    const item = document.createElement("span");
    item.className = "key-item";
    item.append(mark, ` ${words}`);
    return item;
  }));
}

// The squares tinted when asked: those the pieces attack or, with several armies, those
// the other armies attack (where a piece of the army being placed may not stand).
function attackedShown() {
  const verdict = state.verdict;
  const legend = $("attack-legend");
  legend.hidden = !$("show-attacks").checked;
  if (!verdict || legend.hidden) return [];
  const by = verdict.attacked_by;
  const several = by.length > 1;
  const name = state.catalog.armies[state.army];
  const names = several ? by.filter((_, army) => army !== state.army).flat() : verdict.attacked;
  const occupied = new Set([...placed().map((piece) => piece.square), ...state.blocked, ...state.pawns]);
  const free = [...new Set(names)].filter((square) => !occupied.has(square));
  const board = whole("rows") * whole("cols") - occupied.size;
  legend.textContent = several
    ? `Tinted: ${free.length} of ${board} free squares attacked by the other armies (no ${name} piece may stand there).`
    : `Tinted: ${free.length} of ${board} free squares attacked.`;
  return free;
}

// The pieces on the board as the API takes them (given ones too; pawns an answer places).
export function placed() {
  return [
    ...state.pieces.map(({ army, square }) => ({ army: state.catalog.armies[army], square: nameOf(square) })),
    ...placedPawns(),
  ];
}

// Redraw at once, then check the placement (and the options) with the server.
export async function refresh() {
  emit("refreshing");
  const piece = spec().takes_piece ? ` of ${$("piece").value.trim()}` : "";
  const stars = spec().takes_stars ? ` · ${whole("stars")} per row` : "";
  $("board-title").textContent = `${$("puzzle").value}${piece} · ${whole("rows")}×${whole("cols")}${stars}`;
  draw();
  showArmies();
  const check = ++state.checks;
  if (side() > state.limits.sides.verify) {
    state.verdict = null;
    state.optionsError = null;
  } else {
    try {
      const verdict = await post("/api/verify", { ...problemOptions(), pieces: placed() });
      if (check !== state.checks) return;
      state.verdict = verdict;
      state.armies = verdict.armies;
      state.optionsError = null;
    } catch (error) {
      if (check !== state.checks) return;
      state.verdict = null;
      state.optionsError = error.message;
    }
  }
  draw();
  showArmies();
  showVerdict();
  emit("checked");
}

function showVerdict() {
  const verdict = state.verdict;
  const broken = verdict ? verdict.violations : [];
  $("violations").replaceChildren();
  if (state.optionsError) {
    say("options-note", state.optionsError, "note error");
    say("verdict", "Fix the options above to check a placement.", "neutral");
    return;
  }
  if (!state.pieces.length) {
    const what = regional() ? `${pieceOf(0)}s` : "pieces";
    say("verdict", `Empty board: click squares to place ${what}, or press Solve.`, "neutral");
    return;
  }
  if (!verdict) {
    const most = state.limits.sides.verify;
    say("verdict", `Not checked: this server checks boards up to ${most} a side.`, "neutral");
    return;
  }
  const pieces = state.pieces.length === 1 ? "1 piece" : `${state.pieces.length} pieces`;
  const grid = regional();
  if (verdict.status === "valid" && grid) {
    const each = spec().takes_stars ? `${whole("stars")} ${pieceOf(0)}s` : `one ${pieceOf(0)}`;
    say("verdict", `Solved: ${each} in every row, column and region, none touching.`, "valid");
  } else if (verdict.status === "valid") {
    say("verdict", `Valid: ${pieces}, every rule kept.`, "valid");
  } else if (verdict.conflicts.length) {
    const count = verdict.conflicts.length;
    const what = grid ? (count === 1 ? "touching pair" : "touching pairs") : (count === 1 ? "attack" : "attacks");
    say("verdict", `Invalid: ${count} ${what} (ringed in red).`, "invalid");
  } else if (grid) {
    say("verdict", `Not solved yet (${pieces}):`, "pending");
  } else {
    say("verdict", `Not a solution yet (${pieces}): no attacks, but`, "pending");
  }
  const item = (text) => Object.assign(document.createElement("li"), { textContent: text });
  const items = broken.slice(0, LISTED).map(item);
  if (broken.length > LISTED) {
    const rest = broken.slice(LISTED);
    const more = Object.assign(document.createElement("details"), { className: "more" });
    const list = document.createElement("ul");
    list.append(...rest.map(item));
    more.append(Object.assign(document.createElement("summary"), { textContent: `… and ${rest.length} more` }), list);
    const last = Object.assign(document.createElement("li"), { className: "more" });
    last.append(more);
    items.push(last);
  }
  $("violations").replaceChildren(...items);
}

function showArmies() {
  const picker = $("army-picker");
  const count = armyCount();
  picker.replaceChildren();
  if (count < 2) return;
  const fills = state.catalog.drawing.fills;
  for (let army = 0; army < count; army++) {
    const chip = document.createElement("button");
    chip.className = "chip";
    chip.setAttribute("role", "radio");
    chip.setAttribute("aria-checked", String(army === state.army));
    chip.dataset.army = army;
    chip.title = `place ${state.catalog.armies[army]} pieces`;
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = fills[army % fills.length];
    chip.append(dot, state.catalog.armies[army]);
    chip.addEventListener("click", () => { state.army = army; showArmies(); draw(); });
    picker.appendChild(chip);
  }
}

// A click on a square: a region puzzle's tap (X, crown, empty); a piece placed or removed;
// or, in another mode, the position changed.
export function onSquare(square) {
  if (state.job || state.generating) return;
  if (!regional() && state.mode === "place" && holdsPosition(square)) return;
  state.hint = [];
  remember();
  if (regional()) {
    cycle(square);
  } else if (state.mode !== "place") {
    editPosition(square);
  } else {
    const at = state.pieces.findIndex((piece) => piece.square[0] === square[0] && piece.square[1] === square[1]);
    if (at >= 0) state.pieces.splice(at, 1);
    else state.pieces.push({ army: state.army, square });
  }
  emit("moved");
  state.offset = null;
  $("position").textContent = "–";
  refresh();
}

export function onHover(square) {
  if (!square) {
    $("hover").textContent = "";
    return;
  }
  const name = nameOf(square);
  const piece = state.pieces.find((p) => p.square[0] === square[0] && p.square[1] === square[1]);
  const attacked = state.verdict && state.verdict.attacked.includes(name);
  const grid = regional();
  let what = attacked ? "attacked" : "free";
  if (piece) what = `${grid ? "" : `${state.catalog.armies[piece.army]} `}${pieceOf(piece.army)}${piece.given ? " (pinned)" : ""}`;
  else if (state.blocked.includes(name)) what = "blocked";
  else if (state.pawns.includes(name)) what = "pawn";
  else if (grid && state.marks.includes(name)) what = "marked X";
  else if (grid && $("auto-x").checked && ruledOut().has(name)) what = "ruled out";
  const row = state.grid && grid ? state.grid[state.grid.length - 1 - square[1]] : null;
  const region = row && row[square[0]] ? ` · region ${row[square[0]]}` : "";
  $("hover").textContent = `${name}${region}: ${what}`;
}
