// A small live chart of an optimisation: best found and best bound against seconds.
const NS = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 150;
const PAD = { left: 34, right: 10, top: 12, bottom: 24 };
export const SERIES = [
  { key: "objective", label: "best found", colour: "#6cc070", dash: "" },
  { key: "bound", label: "best bound", colour: "#f0a33a", dash: "5 3" },
];

function add(parent, tag, attributes, text = null) {
  const element = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  parent.appendChild(element);
  return element;
}

// Step lines through `points` ({seconds, objective?, bound?}), each value held until it changes.
export function drawChart(container, points, now) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute("role", "img");
  const values = points.flatMap((p) => SERIES.map((s) => p[s.key]).filter((v) => v !== undefined));
  const end = Math.max(now, ...points.map((p) => p.seconds), 0.001);
  let low = values.length ? Math.min(...values) : 0;
  let high = values.length ? Math.max(...values) : 1;
  if (low === high) { low -= 1; high += 1; }
  const x = (seconds) => PAD.left + (seconds / end) * (WIDTH - PAD.left - PAD.right);
  const y = (value) => HEIGHT - PAD.bottom - ((value - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const axis = { stroke: "#77736b", "stroke-width": 1 };
  add(svg, "line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: HEIGHT - PAD.bottom, ...axis });
  add(svg, "line", { x1: PAD.left, y1: HEIGHT - PAD.bottom, x2: WIDTH - PAD.right, y2: HEIGHT - PAD.bottom, ...axis });
  const text = { fill: "#bdbab3", "font-size": 11 };
  add(svg, "text", { x: PAD.left - 4, y: y(high) + 4, "text-anchor": "end", ...text }, fmt(high));
  add(svg, "text", { x: PAD.left - 4, y: y(low) + 4, "text-anchor": "end", ...text }, fmt(low));
  add(svg, "text", { x: PAD.left, y: HEIGHT - 6, ...text }, "0 s");
  add(svg, "text", { x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end", ...text }, `${end.toFixed(1)} s`);
  for (const series of SERIES) {
    let last;
    const path = [];
    for (const point of points) {
      const value = point[series.key];
      if (value === undefined) continue;
      if (last === undefined) path.push(`M${x(point.seconds)} ${y(value)}`);
      else path.push(`H${x(point.seconds)}V${y(value)}`);
      last = value;
    }
    if (last === undefined) continue;
    path.push(`H${x(end)}`);
    add(svg, "path", {
      class: `series ${series.key}`, d: path.join(""), fill: "none", stroke: series.colour,
      "stroke-width": 2.5, "stroke-dasharray": series.dash,
    });
  }
  container.replaceChildren(svg);
}

function fmt(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
