// What a board carries beside its pieces, drawn as the SVG export draws it
// (src/chessplace/forms/svg.py): blocked squares hatched, pawns as ♙, a green pin on
// given pieces; and for region puzzles the player's X marks and, in colour-blind mode,
// each region's letter in its squares. Each item is {square: [file, rank], name: "e4"};
// `at(square)` is a square's top-left corner.
import { add } from "./svgkit.js";

const CENTRED = { "text-anchor": "middle", "dominant-baseline": "central" };

export function drawBlocked(svg, drawing, at, items) {
  const { square: S, blocked, light } = drawing;
  for (const { square, name } of items) {
    const [x, y] = at(square);
    const group = add(svg, "g", { class: "blocked", "data-square": name });
    add(group, "rect", { x, y, width: S, height: S, fill: blocked });
    const hatch = { stroke: light, "stroke-width": 2, "stroke-opacity": 0.5 };
    for (let k = 1; k <= 4; k++) {
      const step = (k * S) / 4;
      add(group, "line", { x1: x, y1: y + step, x2: x + step, y2: y, ...hatch });
      add(group, "line", { x1: x + step, y1: y + S, x2: x + S, y2: y + step, ...hatch });
    }
  }
}

export function drawPawns(svg, drawing, at, items) {
  const { square: S, pawn, ink, font } = drawing;
  for (const { square, name } of items) {
    const [x, y] = at(square);
    add(svg, "text", {
      class: "pawn", "data-square": name, x: x + S / 2, y: y + S / 2 + 2, fill: pawn,
      stroke: ink, "stroke-width": 0.8, "font-size": 0.7 * S, "font-family": font, ...CENTRED,
    }, "♙");
  }
}

export function drawPins(svg, drawing, at, items) {
  for (const { square, name } of items) {
    const [x, y] = at(square);
    add(svg, "circle", {
      class: "given", "data-square": name, cx: x + 7, cy: y + 7, r: 5,
      fill: drawing.given, stroke: drawing.ink, "stroke-width": 1,
    });
  }
}

// An X on each marked square: the player's own, and (fainter) those a crown rules out.
export function drawMarks(svg, drawing, at, marks) {
  const S = drawing.square;
  const inset = 0.3 * S;
  for (const { square, name, auto } of marks) {
    const [x, y] = at(square);
    const d = `M${x + inset} ${y + inset}L${x + S - inset} ${y + S - inset}`
      + `M${x + S - inset} ${y + inset}L${x + inset} ${y + S - inset}`;
    add(svg, "path", {
      class: auto ? "mark auto" : "mark", "data-square": name, d,
      stroke: drawing.ink, "stroke-width": 3, "stroke-linecap": "round",
      "stroke-opacity": auto ? 0.35 : 0.8, fill: "none",
    });
  }
}

// Colour-blind mode: the region's letter in the corner of each of its squares.
export function drawLetters(svg, drawing, at, letters) {
  const S = drawing.square;
  for (const { square, label } of letters) {
    const [x, y] = at(square);
    add(svg, "text", {
      class: "region-letter", x: x + S - 8, y: y + S - 9, fill: drawing.ink, "fill-opacity": 0.75,
      "font-size": 12, "font-weight": "bold", "font-family": drawing.font, ...CENTRED,
    }, label);
  }
}
