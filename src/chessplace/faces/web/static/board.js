// The board as SVG, drawn as the SVG export draws it (src/chessplace/svgboard.py):
// the same squares, labels, glyphs, army colours, tint and conflict marks. The colours
// and sizes come from the server (GET /api/catalog, "drawing"). A grid of regions is drawn
// as the export draws it too: each square in its region's colour, walls between regions.
import { drawBlocked, drawLetters, drawMarks, drawPawns, drawPins } from "./overlays.js";
import { NS, add } from "./svgkit.js";

const FRAME = "#3b3a36";
const LABEL = "#e8e6e3";

export function fileName(file) {
  let name = "";
  for (let number = file + 1; number > 0; number = Math.floor((number - 1) / 26)) {
    name = String.fromCharCode(97 + ((number - 1) % 26)) + name;
  }
  return name;
}

// "e4" → [4, 3] (0-based file and rank), or null.
export function parseSquare(name) {
  const match = /^([a-z]+)([1-9][0-9]*)$/.exec(name);
  if (!match) return null;
  let file = 0;
  for (const letter of match[1]) file = file * 26 + (letter.charCodeAt(0) - 96);
  return [file - 1, Number(match[2]) - 1];
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];

// The squares after `from` up to `to` on the straight way between them (a fast pointer
// jumps squares).
function between(from, to) {
  const steps = Math.max(Math.abs(to[0] - from[0]), Math.abs(to[1] - from[1]));
  const way = [];
  for (let step = 1; step <= steps; step++) {
    way.push([0, 1].map((axis) => Math.round(from[axis] + ((to[axis] - from[axis]) * step) / steps)));
  }
  return way;
}

// How a piece is drawn: a glyph (and a badge for the amazon), or a lettered token.
export function pieceLook(name, catalog) {
  const known = catalog.pieces.find((piece) => piece.name === name);
  if (known) return known;
  return { name, glyph: null, badge: null, letter: name.trim().charAt(0).toUpperCase() };
}

export class Board {
  // onSquare(square) on a tap. With `painter` set ({paint(square), done()}), a press and
  // a drag over squares paint them instead; with `marker` set ({start(square) → true when
  // a drag from there marks, pass(square), done()}), a press dragged off its square marks
  // every square it passes.
  constructor(container, drawing, onSquare, onHover) {
    this.container = container;
    this.drawing = drawing;
    this.onSquare = onSquare;
    this.onHover = onHover;
    this.painter = null;
    this.marker = null;
    this.dragging = false;
    this.marking = false;
    this.svg = null;
    this.rows = 0;
    this.cols = 0;
    this.hovered = null;
    // A tap is a press and a release on one square, read from the pointer's place: a
    // redraw between the two (a verdict arriving) replaces the elements under it, which
    // would lose a "click" and turn a double tap into a single one.
    this.pressed = null;
    this.last = null; // the square a marking drag was last on
    container.addEventListener("pointerdown", (event) => {
      const square = this.squareAt(event);
      if (!this.painter) {
        this.pressed = square;
        this.last = square;
        return;
      }
      if (!square) return;
      event.preventDefault();
      this.dragging = true;
      this.painter.paint(square);
    });
    container.addEventListener("pointerup", (event) => {
      const pressed = this.pressed;
      this.pressed = null;
      const square = this.painter || !pressed ? null : this.squareAt(event);
      if (square && same(square, pressed)) this.onSquare(square);
    });
    container.addEventListener("pointermove", (event) => {
      const square = this.squareAt(event);
      if (this.dragging && this.painter && square) this.painter.paint(square);
      if (square && (this.pressed || this.marking)) this.mark(square, event);
      this.track(square);
    });
    container.addEventListener("pointerleave", () => this.track(null));
    window.addEventListener("pointerup", () => this.release());
    window.addEventListener("pointercancel", () => this.release());
  }

  // A press dragged to `square`: once it leaves its first square it marks (when the
  // marker takes it), and from then on every square on the way, skipped ones included.
  mark(square, event) {
    if (!this.last || same(square, this.last)) return;
    if (!this.marking) {
      if (!this.marker || !this.marker.start(this.pressed)) return; // a tap still, if released on its square
      this.pressed = null;
      this.marking = true;
      try { this.container.setPointerCapture(event.pointerId); } catch { /* released already */ }
    }
    for (const step of between(this.last, square)) this.marker.pass(step);
    this.last = square;
  }

  release() {
    this.pressed = null;
    if (this.marking) {
      this.marking = false;
      this.marker.done();
    }
    if (!this.dragging) return;
    this.dragging = false;
    if (this.painter) this.painter.done();
  }

  // Draw `view`: {rows, cols, pieces: [{army index, square, look, given}], attacked,
  // conflicts, regions: null or region numbers and labels by [rank][file]; and the
  // overlays (lists of [file, rank]): blocked, pawns, marks ({square, auto}), letters
  // (true: each region's letter in its squares)}.
  draw(view) {
    const { square: S, margin: M } = this.drawing;
    this.rows = view.rows;
    this.cols = view.cols;
    const width = 2 * M + view.cols * S;
    const height = 2 * M + view.rows * S;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `${view.rows}×${view.cols} board, ${view.pieces.length} pieces`);
    this.container.style.setProperty("--ratio", String(width / height));
    add(svg, "rect", { width, height, fill: FRAME });
    if (view.regions) this.regions(svg, view.regions);
    else this.squares(svg, view.rows, view.cols);
    if (view.attacked.length) this.tint(svg, view.attacked);
    if (view.regions) this.walls(svg, view.regions);
    this.labels(svg, view.rows, view.cols);
    const at = (square) => this.corner(square);
    const named = (square) => ({ square, name: fileName(square[0]) + (square[1] + 1) });
    drawBlocked(svg, this.drawing, at, (view.blocked || []).map(named));
    drawPawns(svg, this.drawing, at, (view.pawns || []).map(named));
    if (view.regions && view.letters) drawLetters(svg, this.drawing, at, this.letters(view.regions));
    drawMarks(svg, this.drawing, at, (view.marks || []).map((mark) => ({ ...mark, ...named(mark.square) })));
    for (const piece of view.pieces) this.piece(svg, piece);
    drawPins(svg, this.drawing, at, view.pieces.filter((piece) => piece.given).map((piece) => named(piece.square)));
    this.conflicts(svg, view.conflicts);
    this.hover = add(svg, "rect", {
      class: "hover", width: S, height: S, fill: "none", visibility: "hidden",
    });
    this.svg = svg;
    this.container.replaceChildren(svg);
    if (this.hovered) this.track(this.hovered); // what is under the pointer may have changed
  }

  letters({ labels }) {
    const found = [];
    for (let rank = 0; rank < this.rows; rank++) {
      for (let file = 0; file < this.cols; file++) {
        const label = labels[rank] ? labels[rank][file] : undefined;
        if (label) found.push({ square: [file, rank], label });
      }
    }
    return found;
  }

  corner([file, rank]) {
    const { square: S, margin: M } = this.drawing;
    return [M + file * S, M + (this.rows - 1 - rank) * S];
  }

  // Light squares everywhere, dark ones from a 2×2 pattern: one element for any size.
  squares(svg, rows, cols) {
    const { square: S, margin: M, light, dark } = this.drawing;
    const defs = add(svg, "defs");
    const pattern = add(defs, "pattern", {
      id: "checks", width: 2 * S, height: 2 * S, patternUnits: "userSpaceOnUse", x: M, y: M,
    });
    add(pattern, "rect", { width: 2 * S, height: 2 * S, fill: light });
    // The top-left square is file 0, rank rows − 1: dark when (0 + rows − 1) is even.
    const first = (rows - 1) % 2 === 0 ? 0 : S;
    add(pattern, "rect", { x: first, y: 0, width: S, height: S, fill: dark });
    add(pattern, "rect", { x: S - first, y: S, width: S, height: S, fill: dark });
    add(svg, "rect", {
      class: "squares", x: M, y: M, width: cols * S, height: rows * S, fill: "url(#checks)",
    });
  }

  // Each square in its region's colour ({numbers, labels} by [rank][file]; a cell
  // missing from a ragged grid stays light).
  regions(svg, { numbers, labels }) {
    const { square: S, light, regions: colours } = this.drawing;
    const group = add(svg, "g", { class: "regions" });
    for (let rank = 0; rank < this.rows; rank++) {
      for (let file = 0; file < this.cols; file++) {
        const number = numbers[rank] ? numbers[rank][file] : undefined;
        const [x, y] = this.corner([file, rank]);
        add(group, "rect", {
          x, y, width: S, height: S, class: "region",
          fill: number === undefined ? light : colours[number % colours.length],
          "data-square": fileName(file) + (rank + 1), "data-region": labels[rank][file] || "",
        });
      }
    }
  }

  // A dark line along every edge between two regions, as the export draws them.
  walls(svg, { numbers }) {
    const S = this.drawing.square;
    const at = (file, rank) => (numbers[rank] ? numbers[rank][file] : undefined);
    const path = [];
    for (let rank = 0; rank < this.rows; rank++) {
      for (let file = 0; file < this.cols; file++) {
        const [x, y] = this.corner([file, rank]);
        const here = at(file, rank);
        if (file + 1 < this.cols && at(file + 1, rank) !== here) path.push(`M${x + S} ${y}v${S}`);
        if (rank + 1 < this.rows && at(file, rank + 1) !== here) path.push(`M${x} ${y}h${S}`);
      }
    }
    add(svg, "path", {
      class: "walls", d: path.join(""), stroke: this.drawing.ink, "stroke-width": 3,
      "stroke-linecap": "square", fill: "none",
    });
  }

  tint(svg, squares) {
    const S = this.drawing.square;
    const path = squares.map((square) => {
      const [x, y] = this.corner(square);
      return `M${x} ${y}h${S}v${S}h${-S}z`;
    });
    add(svg, "path", {
      class: "attacked", d: path.join(""), fill: this.drawing.attacked, "fill-opacity": 0.35,
    });
  }

  labels(svg, rows, cols) {
    const { square: S, margin: M, font } = this.drawing;
    const style = {
      "text-anchor": "middle", "dominant-baseline": "central", "font-family": font,
      "font-size": 12, fill: LABEL, class: "label",
    };
    for (let file = 0; file < cols; file++) {
      const x = M + file * S + S / 2;
      for (const y of [M / 2, 1.5 * M + rows * S]) add(svg, "text", { ...style, x, y }, fileName(file));
    }
    for (let rank = 0; rank < rows; rank++) {
      const y = M + (rows - 1 - rank) * S + S / 2;
      for (const x of [M / 2, 1.5 * M + cols * S]) add(svg, "text", { ...style, x, y }, String(rank + 1));
    }
  }

  piece(svg, { army, square, look }) {
    const { square: S, ink, font, fills } = this.drawing;
    const [x, y] = this.corner(square);
    const cx = x + S / 2;
    const cy = y + S / 2;
    const fill = fills[army % fills.length];
    const group = add(svg, "g", {
      class: "piece", "data-army": army, "data-square": fileName(square[0]) + (square[1] + 1),
      "data-piece": look.letter,
    });
    const centred = { "text-anchor": "middle", "dominant-baseline": "central", "font-family": font };
    if (look.glyph) {
      const stroke = { fill, stroke: ink, "stroke-width": 0.8, ...centred };
      add(group, "text", { x: cx, y: cy + 2, "font-size": 0.78 * S, ...stroke }, look.glyph);
      if (look.badge) {
        add(group, "text", {
          x: cx + 0.3 * S, y: cy + 0.28 * S, "font-size": 0.36 * S, ...stroke,
        }, look.badge);
      }
      return;
    }
    add(group, "circle", { cx, cy, r: 0.38 * S, fill, stroke: ink, "stroke-width": 2 });
    add(group, "text", {
      x: cx, y: cy, fill: army !== 1 ? ink : "#f4f4f4", "font-size": 0.4 * S,
      "font-weight": "bold", ...centred,
    }, look.letter);
  }

  conflicts(svg, pairs) {
    const { square: S, conflict } = this.drawing;
    const ringed = new Set();
    for (const pair of pairs) {
      for (const square of pair) {
        const key = square.join(",");
        if (ringed.has(key)) continue;
        ringed.add(key);
        const [x, y] = this.corner(square);
        add(svg, "rect", {
          class: "conflict", x: x + 2, y: y + 2, width: S - 4, height: S - 4, fill: "none",
          stroke: conflict, "stroke-width": 4,
        });
      }
      const [x1, y1] = this.corner(pair[0]);
      const [x2, y2] = this.corner(pair[1]);
      add(svg, "line", {
        class: "attack-line", x1: x1 + S / 2, y1: y1 + S / 2, x2: x2 + S / 2, y2: y2 + S / 2,
        stroke: conflict, "stroke-width": 3, "stroke-opacity": 0.8,
      });
    }
  }

  // The [file, rank] under a pointer event, or null off the squares.
  squareAt(event) {
    const { square: S, margin: M } = this.drawing;
    const matrix = this.svg ? this.svg.getScreenCTM() : null;
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const file = Math.floor((point.x - M) / S);
    const rank = this.rows - 1 - Math.floor((point.y - M) / S);
    if (file < 0 || file >= this.cols || rank < 0 || rank >= this.rows) return null;
    return [file, rank];
  }

  track(square) {
    this.hovered = square;
    if (!this.hover) return;
    this.hover.setAttribute("visibility", square ? "visible" : "hidden");
    if (square) {
      const [x, y] = this.corner(square);
      this.hover.setAttribute("x", x);
      this.hover.setAttribute("y", y);
    }
    this.onHover(square);
  }
}
