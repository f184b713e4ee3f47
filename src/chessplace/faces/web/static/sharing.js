// Browsing the placements, links that restore a puzzle, downloads.
import { fileName, parseSquare } from "./board.js";
import { emit } from "./events.js";
import { takePieces, updateButtons } from "./jobs.js";
import { problemOptions, runOptions } from "./options.js";
import { nameOf } from "./position.js";
import { decode, encode } from "./share.js";
import { $, COUNT_KINDS, armyCount, placesPawns, post, regional, say, side, state, whole } from "./state.js";
import { remember } from "./undo.js";
import { placed, refresh } from "./verdict.js";

export async function browse(step) {
  if (state.job) return;
  const offset = state.offset === null ? 0 : state.offset + step;
  if (offset < 0 || (step > 0 && state.offset !== null && !state.more)) return;
  const most = state.limits.sides.solutions;
  if (side() > most) {
    say("status", `Browsing: boards up to ${most} a side on this server.`, "bad");
    return;
  }
  try {
    const body = { ...runOptions(), offset, unique: $("unique").checked };
    const page = await post("/api/solutions", body);
    if (page.status === "unknown") {
      say("status", `Browse: ${page.note}`, "neutral"); // the time limit came first
    } else {
      state.offset = offset;
      state.more = page.more;
      remember();
      takePieces(page.pieces);
      if (regional()) emit("answered");
      $("position").textContent = `#${offset + 1}${page.more ? "" : " (last)"}`;
      refresh();
    }
  } catch (error) {
    say("status", error.message, "bad");
  }
  updateButtons();
}

export function writeHash() {
  const armies = Array.from({ length: armyCount() }, () => []);
  for (const { army, square } of state.pieces) armies[army].push(fileName(square[0]) + (square[1] + 1));
  const options = { ...runOptions(), place_pawns: placesPawns() ? whole("place-pawns") : undefined };
  const position = {
    blocked: state.blocked,
    pawns: state.pawns,
    given: state.pieces.filter((piece) => piece.given).map((piece) => nameOf(piece.square)),
  };
  history.replaceState(null, "", `#${encode(options, armies, position)}`);
}

export function readHash(hash) {
  const { options, armies, position } = decode(hash);
  if (options.puzzle && state.catalog.puzzles.some((puzzle) => puzzle.name === options.puzzle)) {
    $("puzzle").value = options.puzzle;
  }
  const set = (id, value) => { if (value !== undefined) $(id).value = value; };
  set("rows", options.n ?? options.rows);
  set("cols", options.n ?? options.cols);
  if (options.grid) {
    state.grid = options.grid;
    set("rows", options.grid.length);
    set("cols", options.grid.length);
  }
  set("stars", options.stars);
  set("place-pawns", options.place_pawns);
  for (const [key, id] of [["piece", "piece"], ["armies", "armies"], ["white", "white"], ["time_limit", "time-limit"]]) {
    set(id, options[key]);
  }
  const kind = COUNT_KINDS.find((name) => options[name] !== undefined);
  $("count-kind").value = kind || "";
  $("count-value").value = kind ? options[kind] : "";
  if (options.solver && [...$("solver").options].some((option) => option.value === options.solver)) {
    $("solver").value = options.solver;
  }
  state.pieces = armies.flatMap((squares, army) => squares.map((name) => (
    position.given.includes(name) ? { army, square: parseSquare(name), given: true } : { army, square: parseSquare(name) })));
  state.blocked = position.blocked;
  state.pawns = position.pawns;
  state.marks = [];
}

export async function copyLink() {
  writeHash();
  const field = $("share-url");
  field.hidden = false;
  field.value = location.href;
  field.select();
  try {
    await navigator.clipboard.writeText(location.href);
    say("options-note", "Link copied: it opens this puzzle and placement.", "note");
  } catch {
    say("options-note", "Copy the link below: it opens this puzzle and placement.", "note");
  }
}

function download(name, blob) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

export async function downloadImage(format) {
  const response = await fetch(`/api/render?format=${format}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...problemOptions(), pieces: placed() }),
  });
  if (response.ok) download(`${$("puzzle").value}.${format}`, await response.blob());
  else say("status", (await response.json().catch(() => ({}))).detail || "download failed", "bad");
}

export function downloadJSON() {
  const data = state.result || { ...problemOptions(), pieces: placed() };
  download("placement.json", new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
}
