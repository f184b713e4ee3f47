// The puzzle and the placement in the URL's hash, so that a link (or a reload) restores both:
//   #puzzle=peaceable-queens&n=6&p=a1,c5_b3,e2
// p lists each army's squares (in army order, "_" between armies); a region puzzle's grid
// is its rows, top first, joined by "." (#puzzle=queens-game&grid=AAB.ACB.CCB&p=a1,…).
export const KEYS = [
  "puzzle", "n", "rows", "cols", "piece", "armies", "white", "at_least", "exactly", "at_most",
  "time_limit", "solver", "stars", "grid",
];

export function encode(options, armies) {
  const parts = [];
  for (const key of KEYS) {
    if (options[key] === undefined) continue;
    const value = key === "grid" ? options.grid.join(".") : options[key];
    parts.push(`${key}=${encodeURIComponent(value)}`);
  }
  if (armies.some((squares) => squares.length)) {
    parts.push(`p=${armies.map((squares) => squares.join(",")).join("_")}`);
  }
  return parts.join("&");
}

// {options: {key: text}, armies: [[square names]]} from a hash ("#…" or "").
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
    ? placed.split("_").map((list) => list.split(",").filter((name) => /^[a-z]+[1-9][0-9]*$/.test(name)))
    : [];
  return { options, armies };
}
