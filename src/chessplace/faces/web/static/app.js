// chessplace front end: plain JavaScript modules, no build step, nothing from outside the server.
import { Board } from "./board.js";
import { on } from "./events.js";
import { generateGrid, gridTyped, showHint, showRegionPicker } from "./grid.js";
import { cancel, runJob, showFacts, updateButtons } from "./jobs.js";
import { optionsChanged } from "./options.js";
import { browse, copyLink, downloadImage, downloadJSON, readHash, writeHash } from "./sharing.js";
import { $, TASKS, getJSON, say, state } from "./state.js";
import { draw, onHover, onSquare, refresh } from "./verdict.js";

function fillControls() {
  const { catalog, limits } = state;
  $("puzzle").replaceChildren(...catalog.puzzles.map((puzzle) => new Option(puzzle.name, puzzle.name)));
  $("piece-names").replaceChildren(...catalog.pieces.map((piece) => new Option(piece.betza, piece.name)));
  $("piece-list").textContent = catalog.pieces.map((piece) => piece.name).join(", ");
  for (const solver of catalog.solvers.filter((engine) => engine.installed)) {
    const option = new Option(`${solver.name} (${solver.tasks.join(", ")})`, solver.name);
    option.title = solver.summary;
    $("solver").appendChild(option);
  }
  const most = Math.max(...Object.values(limits.sides));
  $("rows").max = most;
  $("cols").max = most;
  $("armies").max = catalog.armies.length;
  $("white").max = most * most;
  $("time-limit").max = limits.max_seconds;
  $("time-limit").placeholder = `${limits.default_seconds} s`;
}

function listen() {
  for (const id of ["puzzle", "rows", "cols", "piece", "armies", "white", "count-kind", "count-value", "time-limit", "solver", "stars"]) {
    $(id).addEventListener("change", optionsChanged);
  }
  for (const task of TASKS) $(task).addEventListener("click", () => runJob(task));
  $("unique-check").addEventListener("click", () => runJob("unique"));
  $("hint").addEventListener("click", showHint);
  $("generate").addEventListener("click", generateGrid);
  $("grid-text").addEventListener("change", gridTyped);
  $("paint").addEventListener("change", draw);
  $("cancel").addEventListener("click", cancel);
  $("next").addEventListener("click", () => browse(1));
  $("previous").addEventListener("click", () => browse(-1));
  $("clear").addEventListener("click", () => { state.pieces = []; state.offset = null; $("position").textContent = "–"; refresh(); });
  $("show-attacks").addEventListener("change", draw);
  $("share").addEventListener("click", copyLink);
  $("download-json").addEventListener("click", downloadJSON);
  $("download-svg").addEventListener("click", () => downloadImage("svg"));
  $("download-png").addEventListener("click", () => downloadImage("png"));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); browse(-1); }
    if (event.key === "ArrowRight") { event.preventDefault(); browse(1); }
    if (event.key === "Escape") cancel();
  });
  window.addEventListener("hashchange", () => { readHash(location.hash); optionsChangedKeepingPieces(); });
}

// Options (and pieces) read from a link: check them as if typed, keeping the pieces.
function optionsChangedKeepingPieces() {
  const pieces = state.pieces;
  optionsChanged();
  if (state.pieces.length !== pieces.length) {
    say("options-note", "Some squares in the link are off this board and were left out.", "note");
  }
}

// Who reacts to what the lower modules announce.
on("options-changed", () => { showFacts(null); refresh(); });
on("drawn", showRegionPicker);
on("refreshing", writeHash);
on("checked", updateButtons);

async function start() {
  try {
    [state.catalog, state.limits] = await Promise.all([getJSON("/api/catalog"), getJSON("/api/limits")]);
  } catch (error) {
    say("verdict", `The server did not answer: ${error.message}`, "invalid");
    return;
  }
  fillControls();
  state.board = new Board($("board"), state.catalog.drawing, onSquare, onHover);
  listen();
  readHash(location.hash);
  optionsChangedKeepingPieces();
}

start();
