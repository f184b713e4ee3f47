// The puzzle and the placement in the URL's hash, so that a link (or a reload) restores both:
//   #puzzle=peaceable-queens&n=6&p=a1,c5_b3,e2
// p lists each army's squares (in army order, "_" between armies).
export const KEYS = [
  "puzzle", "n", "rows", "cols", "piece", "armies", "white", "at_least", "exactly", "at_most",
  "time_limit", "solver",
];

export function encode(options, armies) {
  const parts = [];
  for (const key of KEYS) {
    if (options[key] !== undefined) parts.push(`${key}=${encodeURIComponent(options[key])}`);
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
  const placed = params.get("p");
  const armies = placed
    ? placed.split("_").map((list) => list.split(",").filter((name) => /^[a-z]+[1-9][0-9]*$/.test(name)))
    : [];
  return { options, armies };
}
