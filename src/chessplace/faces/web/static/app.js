// chessplace front end: plain JavaScript modules, no build step, nothing from outside the server.
import { showDailies } from "./archive.js";
import { Board } from "./board.js";
import { startDaily } from "./daily.js";
import { dragMarks } from "./dragmarks.js";
import { on } from "./events.js";
import { generateGrid, gridTyped, showHint, showRegionPicker } from "./grid.js";
import { cancel, clearAnswer, runJob, showFacts, updateButtons } from "./jobs.js";
import { keepGame, keepOnLeaving, restoreGame } from "./keep.js";
import { optionsChanged } from "./options.js";
import { checked, copyDaily, hinted, moved, revealed } from "./play.js";
import { showModes } from "./position.js";
import { listenForScreenshots } from "./screenshot.js";
import { browse, copyLink, downloadImage, downloadJSON, readHash, writeHash } from "./sharing.js";
import { $, TASKS, getJSON, placesPawns, say, state } from "./state.js";
import { rememberToggle } from "./stored.js";
import { remember, undo } from "./undo.js";
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
  for (const id of ["puzzle", "rows", "cols", "piece", "armies", "white", "count-kind", "count-value", "time-limit", "solver", "stars", "place-pawns"]) {
    $(id).addEventListener("change", optionsChanged);
  }
  for (const task of TASKS) $(task).addEventListener("click", () => runJob(task));
  $("unique-check").addEventListener("click", () => runJob("unique"));
  $("hint").addEventListener("click", () => { if (!$("hint").hidden) hinted(); showHint(); });
  $("generate").addEventListener("click", generateGrid);
  $("daily").addEventListener("click", () => startDaily("queens-game"));
  $("daily-stars").addEventListener("click", () => startDaily("star-battle"));
  $("copy-daily").addEventListener("click", copyDaily);
  $("undo").addEventListener("click", undoOnce);
  rememberToggle($("letters"), "letters", draw);
  rememberToggle($("auto-x"), "auto-x", draw);
  $("grid-text").addEventListener("change", gridTyped);
  listenForScreenshots();
  $("paint").addEventListener("change", draw);
  $("cancel").addEventListener("click", cancel);
  $("next").addEventListener("click", () => browse(1));
  $("previous").addEventListener("click", () => browse(-1));
  $("clear").addEventListener("click", clear);
  $("show-attacks").addEventListener("change", draw);
  $("share").addEventListener("click", copyLink);
  $("download-json").addEventListener("click", downloadJSON);
  $("download-svg").addEventListener("click", () => downloadImage("svg"));
  $("download-png").addEventListener("click", () => downloadImage("png"));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.altKey) return;
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === "z") {
      event.preventDefault();
      undoOnce();
      return;
    }
    if (event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); browse(-1); }
    if (event.key === "ArrowRight") { event.preventDefault(); browse(1); }
    if (event.key === "Escape") cancel();
  });
  window.addEventListener("hashchange", () => { readHash(location.hash); optionsChangedKeepingPieces(); });
}

function undoOnce() {
  if (state.job || state.generating || !undo()) return;
  state.hint = [];
  $("position").textContent = "–";
  refresh();
}

// Clear takes the pieces (and X marks) off; pressed again, the position too.
function clear() {
  remember();
  const placed = state.pieces.filter((piece) => !piece.given);
  if (placed.length || state.marks.length || (placesPawns() && state.pawns.length)) {
    state.pieces = state.pieces.filter((piece) => piece.given);
    if (placesPawns()) state.pawns = [];
  } else {
    state.pieces = [];
    state.blocked = [];
    state.pawns = [];
  }
  state.marks = [];
  state.offset = null;
  $("position").textContent = "–";
  refresh();
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
on("options-changed", () => { showFacts(null); showModes(); refresh(); });
on("puzzle-changed", clearAnswer);
on("drawn", showRegionPicker);
on("refreshing", writeHash);
on("checked", () => { updateButtons(); checked(); keepGame(); });
on("moved", moved);
on("answered", revealed);
on("daily-solved", showDailies);

async function start() {
  try {
    [state.catalog, state.limits] = await Promise.all([getJSON("/api/catalog"), getJSON("/api/limits")]);
  } catch (error) {
    say("verdict", `The server did not answer: ${error.message}`, "invalid");
    return;
  }
  fillControls();
  state.board = new Board($("board"), state.catalog.drawing, onSquare, onHover);
  state.board.marker = dragMarks;
  listen();
  readHash(location.hash);
  restoreGame();
  optionsChangedKeepingPieces();
  keepOnLeaving();
  showDailies();
}

start();
