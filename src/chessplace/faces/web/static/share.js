// The puzzle and the placement in the URL's hash, so that a link (or a reload) restores both:
//   #puzzle=peaceable-queens&n=6&p=a1,c5_b3,e2
// p lists each army's squares (in army order, "_" between armies); a region puzzle's grid
// is its rows, top first, joined by "." (#puzzle=queens-game&grid=AAB.ACB.CCB&p=a1,…).
// The position: blocked=a1,b3 (blocked squares), pawns=c4 (pawns), given=d1 (the pieces
// in p that are pinned), place_pawns=2 (queens-and-pawns: how many the answer places).
export const KEYS = [
  "puzzle", "n", "rows", "cols", "piece", "armies", "white", "at_least", "exactly", "at_most",
  "time_limit", "solver", "stars", "grid", "place_pawns",
];
export const POSITION = ["blocked", "pawns", "given"];
const SQUARE = /^[a-z]+[1-9][0-9]*$/;

export function encode(options, armies, position = {}) {
  const parts = [];
  for (const key of KEYS) {
    if (options[key] === undefined) continue;
    const value = key === "grid" ? options.grid.join(".") : options[key];
    parts.push(`${key}=${encodeURIComponent(value)}`);
  }
  for (const key of POSITION) {
    if (position[key] && position[key].length) parts.push(`${key}=${position[key].join(",")}`);
  }
  if (armies.some((squares) => squares.length)) {
    parts.push(`p=${armies.map((squares) => squares.join(",")).join("_")}`);
  }
  return parts.join("&");
}

// {options: {key: text}, armies: [[square names]], position: {blocked, pawns, given}}
// from a hash ("#…" or "").
export function decode(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const options = {};
  for (const key of KEYS) if (params.has(key)) options[key] = params.get(key);
  if (options.grid !== undefined) {
    const rows = options.grid.split(".").filter((row) => /^[A-Za-z0-9]+$/.test(row));
    if (rows.length) options.grid = rows;
    else delete options.grid;
  }
  const placed = params.get("p");
  const armies = placed
    ? placed.split("_").map((list) => list.split(",").filter((name) => SQUARE.test(name)))
    : [];
  const position = {};
  for (const key of POSITION) {
    position[key] = (params.get(key) || "").split(",").filter((name) => SQUARE.test(name));
  }
  return { options, armies, position };
}
