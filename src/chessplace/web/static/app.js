// chessplace front end: plain JavaScript modules, no build step, nothing from outside the server.
import { Board, fileName, parseSquare, pieceLook } from "./board.js";
import { drawChart } from "./chart.js";
import { decode, encode } from "./share.js";

const $ = (id) => document.getElementById(id);
const TASKS = ["solve", "optimize", "count"];
const VERBS = { solve: "Solve", optimize: "Optimize", count: "Count", unique: "Uniqueness check", generate: "Generate" };
const COUNT_KINDS = ["at_least", "exactly", "at_most"];
const NUMBERS = [
  ["rows", "Rows"], ["cols", "Columns"], ["armies", "Armies"], ["white", "White pieces"],
  ["count-value", "The number of pieces"], ["time-limit", "The time limit"], ["stars", "Stars per row"],
];

const state = {
  catalog: null,
  limits: null,
  board: null,
  pieces: [], // {army: index, square: [file, rank]}, 0-based
  hint: [], // squares a hint tints (names)
  armies: [], // the current problem's armies: {name, piece}
  verdict: null, // the server's verify answer for the pieces
  optionsError: null,
  checks: 0,
  army: 0, // the army a click places
  grid: null, // a region puzzle's grid: one string per row, top row first
  paintLabel: null, // the region a painting click gives a square
  generating: false,
  result: null,
  offset: null, // the placement browsed to, or null
  more: true,
  job: null,
  history: [],
  timer: null,
};

// ---------- the server ----------

async function getJSON(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : `request failed (${response.status})`);
  return data;
}

// ---------- the options ----------

function spec() {
  return state.catalog.puzzles.find((puzzle) => puzzle.name === $("puzzle").value) || state.catalog.puzzles[0];
}

const whole = (id) => Number($(id).value);
const side = () => Math.max(whole("rows"), whole("cols"));

function armyCount() {
  return spec().takes_armies ? Number($("armies").value || 2) : 1;
}

const regional = () => Boolean(spec().takes_grid);

// The problem as the API's JSON options (only what is set).
function problemOptions() {
  const body = { puzzle: $("puzzle").value };
  if (regional()) {
    body.grid = state.grid;
    if (spec().takes_stars) body.stars = whole("stars");
    return body;
  }
  if (whole("rows") === whole("cols")) body.n = whole("rows");
  else Object.assign(body, { rows: whole("rows"), cols: whole("cols") });
  if (spec().takes_piece) body.piece = $("piece").value.trim();
  if (spec().takes_armies) {
    if ($("armies").value !== "") body.armies = whole("armies");
    if ($("white").value !== "") body.white = whole("white");
  }
  const kind = $("count-kind").value;
  if (kind && $("count-value").value !== "") body[kind] = whole("count-value");
  return body;
}

function runOptions() {
  const body = problemOptions();
  if ($("time-limit").value !== "") body.time_limit = Number($("time-limit").value);
  if ($("solver").value) body.solver = $("solver").value;
  return body;
}

// Keep a number input within its bounds (the server's limits); say so when it had to change.
function clamp(id, label) {
  const input = $(id);
  if (input.value === "") return null;
  const value = Number(input.value);
  const low = input.min === "" ? -Infinity : Number(input.min);
  const high = input.max === "" ? Infinity : Number(input.max);
  let kept = Number.isFinite(value) ? value : low;
  if (input.step !== "any") kept = Math.round(kept);
  kept = Math.min(high, Math.max(low, kept));
  if (kept === value) return null;
  input.value = kept;
  return `${label} is between ${low} and ${high} on this server: set to ${kept}`;
}

function showFields() {
  const puzzle = spec();
  $("puzzle-summary").textContent = puzzle.summary;
  $("piece-field").hidden = !puzzle.takes_piece;
  $("army-fields").hidden = !puzzle.takes_armies;
  $("count-value").disabled = $("count-kind").value === "";
  const grid = regional();
  $("grid-fields").hidden = !grid;
  $("stars-field").hidden = !puzzle.takes_stars;
  $("count-field").hidden = grid;
  for (const element of document.querySelectorAll(".board-only")) element.hidden = grid;
  $("size-label").textContent = grid ? "Size" : "Board";
  $("paint-toggle").hidden = !grid;
  $("optimize").hidden = grid;
  $("unique-check").hidden = !grid;
  $("hint").hidden = !grid;
  const idle = $("status").textContent;
  if (idle.startsWith("Press ")) {
    $("status").textContent = grid ? "Press Solve, Count, Unique? or Hint." : "Press Solve, Optimize or Count.";
  }
  if (!grid) $("paint").checked = false;
}

// Any option changed: check it here, keep the pieces that still fit, ask the server.
function optionsChanged() {
  const notes = NUMBERS.map(([id, label]) => clamp(id, label)).filter(Boolean);
  $("options-note").textContent = notes.join("; ");
  $("options-note").className = "note";
  showFields();
  if (regional()) fitGrid();
  const [rows, cols, armies] = [whole("rows"), whole("cols"), armyCount()];
  state.pieces = state.pieces.filter(
    ({ army, square: [file, rank] }) => file < cols && rank < rows && army < armies,
  );
  state.army = Math.min(state.army, armies - 1);
  state.offset = null;
  state.result = null;
  showFacts(null);
  $("position").textContent = "–";
  refresh();
}

// ---------- a region puzzle's grid ----------

// Keep the grid and the size field agreeing: a new size starts from stripes (one region
// per row, a valid grid to paint on).
function fitGrid() {
  const n = whole("rows");
  $("cols").value = n;
  if (!state.grid || state.grid.length !== n) {
    const labels = state.catalog.region_labels;
    state.grid = Array.from({ length: n }, (_, row) => labels[row % labels.length].repeat(n));
  }
  $("grid-text").value = state.grid.join("\n");
}

// The grid typed or pasted: one row per line (or a JSON list of strings); the server
// says what is wrong with it.
function gridTyped() {
  const text = $("grid-text").value;
  let rows = null;
  if (text.trim().startsWith("[")) {
    try {
      const list = JSON.parse(text);
      if (Array.isArray(list) && list.every((row) => typeof row === "string")) rows = list;
    } catch { /* read as lines */ }
  }
  rows = (rows || text.split("\n")).map((row) => row.replace(/\s+/g, "")).filter(Boolean);
  if (!rows.length) return;
  state.grid = rows;
  $("rows").value = rows.length;
  optionsChanged();
}

// Region number and label of every square, [rank][file]: regions numbered in the order
// their first square is read from the top row, as the SVG export colours them.
function regionView() {
  const grid = state.grid;
  const order = regionLabels();
  const numbers = [];
  const labels = [];
  for (let rank = 0; rank < grid.length; rank++) {
    const row = grid[grid.length - 1 - rank];
    labels.push([...row]);
    numbers.push([...row].map((label) => order.indexOf(label)));
  }
  return { numbers, labels };
}

// The labels in the grid in reading order, then unused ones up to n for the palette.
function regionLabels(palette = false) {
  const seen = [...new Set(state.grid.join(""))];
  if (!palette) return seen;
  const spare = [...state.catalog.region_labels].filter((label) => !seen.includes(label));
  return [...seen, ...spare.slice(0, Math.max(0, state.grid.length - seen.length))];
}

function showRegionPicker() {
  const picker = $("region-picker");
  const painting = regional() && $("paint").checked;
  picker.hidden = !painting;
  $("board").classList.toggle("painting", painting);
  state.board.painter = painting ? { paint: paintSquare, done: refresh } : null;
  if (!painting) return;
  const labels = regionLabels(true);
  if (!labels.includes(state.paintLabel)) state.paintLabel = labels[0];
  const colours = state.catalog.drawing.regions;
  picker.replaceChildren(...labels.map((label, number) => {
    const chip = document.createElement("button");
    chip.className = "chip region";
    chip.setAttribute("role", "radio");
    chip.setAttribute("aria-checked", String(label === state.paintLabel));
    chip.dataset.region = label;
    chip.title = `paint region ${label}`;
    chip.style.background = colours[number % colours.length];
    chip.textContent = label;
    chip.addEventListener("click", () => { state.paintLabel = label; showRegionPicker(); });
    return chip;
  }));
}

function paintSquare([file, rank]) {
  const row = state.grid.length - 1 - rank;
  const cells = [...state.grid[row]];
  if (file >= cells.length || cells[file] === state.paintLabel) return;
  cells[file] = state.paintLabel;
  state.grid = state.grid.map((text, index) => (index === row ? cells.join("") : text));
  $("grid-text").value = state.grid.join("\n");
  draw();
}

async function generateGrid() {
  if (state.job || state.generating || $("generate").disabled) return;
  const seed = $("seed").value === "" ? Math.floor(Math.random() * 1e9) : Number($("seed").value);
  const body = { puzzle: $("puzzle").value, n: whole("rows"), seed };
  if (spec().takes_stars) body.stars = whole("stars");
  if ($("time-limit").value !== "") body.time_limit = Number($("time-limit").value);
  state.generating = true;
  updateButtons();
  say("status", `Generate: making a ${body.n}×${body.n} grid with one solution…`, "busy");
  try {
    const result = await post("/api/generate", body);
    if (!result.grid) {
      say("status", `Generate: ${result.note} (${result.seconds.toFixed(1)} s)`, "bad");
    } else {
      state.grid = result.grid;
      state.pieces = [];
      $("grid-text").value = state.grid.join("\n");
      state.hint = [];
      const grade = (result.note || "").split("; ").pop();
      say("status", `Generate: a new grid with one solution, proven (seed ${seed}, ${grade}). Place the ${result.armies[0].piece}s!`, "good");
      showFacts(result);
      state.result = null;
      refresh();
    }
  } catch (error) {
    say("status", `Generate failed: ${error.message}`, "bad");
  } finally {
    state.generating = false;
    updateButtons();
  }
}

// The next piece a person could place by the named rules, and why; its square tinted.
async function showHint() {
  if (!regional()) return;
  try {
    const answer = await post("/api/hint", { ...problemOptions(), pieces: placed() });
    const ahead = answer.next_piece;
    const grade = `difficulty: ${answer.difficulty}`;
    state.hint = ahead ? ahead.step.places : [];
    $("status").dataset.hint = state.hint.join(" ");
    if (answer.solved) {
      say("status", "Hint: every square is decided", "good");
    } else if (!ahead) {
      say("status", `Hint: no rule applies here; the next move needs a guess (${grade})`, "neutral");
    } else {
      const { step, after } = ahead;
      const kinds = [...new Set(after)].join(", ");
      const before = after.length ? ` after ${after.length} step${after.length > 1 ? "s" : ""} (${kinds})` : "";
      say("status", `Hint${before}: ${step.rule}, ${step.because}: a piece on ${step.places.join(" ")} (${grade})`, "good");
    }
    draw();
  } catch (error) {
    say("status", `Hint failed: ${error.message}`, "bad");
  }
}

// ---------- the board and its verdict ----------

function pieceOf(army) {
  if (state.armies[army]) return state.armies[army].piece;
  if (regional()) return spec().takes_stars ? "star" : "crown";
  return spec().takes_piece ? $("piece").value.trim() || "?" : "queen";
}

function draw() {
  const verdict = state.verdict;
  const squares = (names) => names.map(parseSquare).filter(Boolean);
  state.board.draw({
    rows: whole("rows"),
    cols: whole("cols"),
    pieces: state.pieces.map(({ army, square }) => ({
      army, square, look: pieceLook(pieceOf(army), state.catalog),
    })),
    attacked: squares([...attackedShown(), ...state.hint]),
    conflicts: verdict ? verdict.conflicts.map(squares).filter((pair) => pair.length === 2) : [],
    regions: regional() ? regionView() : null,
  });
  showRegionPicker();
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
  const occupied = new Set(placed().map((piece) => piece.square));
  const free = [...new Set(names)].filter((square) => !occupied.has(square));
  const board = whole("rows") * whole("cols") - occupied.size;
  legend.textContent = several
    ? `Tinted: ${free.length} of ${board} free squares attacked by the other armies (no ${name} piece may stand there).`
    : `Tinted: ${free.length} of ${board} free squares attacked.`;
  return free;
}

function placed() {
  return state.pieces.map(({ army, square }) => ({
    army: state.catalog.armies[army], square: fileName(square[0]) + (square[1] + 1),
  }));
}

// Redraw at once, then check the placement (and the options) with the server.
async function refresh() {
  writeHash();
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
  updateButtons();
}

function say(id, text, kind) {
  $(id).textContent = text;
  $(id).className = kind;
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
  const items = broken.slice(0, 12).map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  });
  if (broken.length > 12) items.push(Object.assign(document.createElement("li"), { textContent: `and ${broken.length - 12} more` }));
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

function onSquare(square) {
  if (state.job || state.generating) return;
  state.hint = [];
  const at = state.pieces.findIndex((piece) => piece.square[0] === square[0] && piece.square[1] === square[1]);
  if (at >= 0) state.pieces.splice(at, 1);
  else state.pieces.push({ army: state.army, square });
  state.offset = null;
  $("position").textContent = "–";
  refresh();
}

function onHover(square) {
  if (!square) {
    $("hover").textContent = "";
    return;
  }
  const name = fileName(square[0]) + (square[1] + 1);
  const piece = state.pieces.find((p) => p.square[0] === square[0] && p.square[1] === square[1]);
  const attacked = state.verdict && state.verdict.attacked.includes(name);
  const what = piece ? `${state.catalog.armies[piece.army]} ${pieceOf(piece.army)}` : (attacked ? "attacked" : "free");
  const grid = state.grid && regional() ? state.grid[state.grid.length - 1 - square[1]] : null;
  const region = grid && grid[square[0]] ? ` · region ${grid[square[0]]}` : "";
  $("hover").textContent = `${name}${region}: ${what}`;
}

// ---------- the buttons ----------

function solverTasks() {
  const chosen = state.catalog.solvers.find((solver) => solver.name === $("solver").value);
  return chosen ? chosen.tasks : TASKS;
}

function updateButtons() {
  const notes = [];
  for (const task of TASKS) {
    const most = state.limits.sides[task];
    const tooBig = side() > most;
    const unable = !solverTasks().includes(task);
    if (tooBig) notes.push(`${VERBS[task]}: boards up to ${most} a side on this server`);
    if (unable) notes.push(`${VERBS[task]}: not with the ${$("solver").value} engine`);
    $(task).disabled = Boolean(state.job || state.generating || state.optionsError || tooBig || unable);
  }
  $("unique-check").disabled = $("count").disabled;
  const most = state.limits.sides.generate;
  const tooBig = regional() && side() > most;
  if (tooBig) notes.push(`New grid: sizes up to ${most} on this server`);
  $("generate").disabled = Boolean(state.job || state.generating || tooBig);
  $("task-limits").textContent = notes.join("; ");
  $("cancel").disabled = !state.job;
  $("previous").disabled = Boolean(state.job) || !state.offset;
  $("next").disabled = Boolean(state.job) || (state.offset !== null && !state.more);
}

// ---------- jobs: solve, optimize, count ----------

// Solve, optimize, count, or (a region puzzle) a count that stops at 2: is it unique?
async function runJob(task) {
  const button = task === "unique" ? "unique-check" : task;
  if (state.job || state.generating || $(button).disabled) return;
  const body = { ...runOptions(), task: task === "unique" ? "count" : task };
  if (task === "count") Object.assign(body, { unique: $("unique").checked, optimal: $("optimal").checked });
  if (task === "unique") body.limit = 2;
  let view;
  try {
    view = await post("/api/jobs", body);
  } catch (error) {
    say("status", error.message, "bad");
    return;
  }
  state.job = { id: view.id, task, timeLimit: view.time_limit, running: null };
  state.history = [];
  showFacts(null);
  $("live").hidden = false;
  showProgress();
  say("status", `${VERBS[task]}: starting…`, "busy");
  updateButtons();
  follow(view.id);
}

// Follow the job's server-sent events: its place in line, each progress report, its end.
function follow(id) {
  const source = new EventSource(`/api/jobs/${id}/events`);
  const job = state.job;
  source.addEventListener("state", (event) => {
    const data = JSON.parse(event.data);
    if (data.state === "queued") {
      say("status", `${VERBS[job.task]}: waiting, ${data.position} in line…`, "busy");
    } else {
      job.running = job.running || performance.now();
      say("status", `${VERBS[job.task]}: running…`, "busy");
    }
  });
  source.addEventListener("progress", (event) => {
    state.history.push(JSON.parse(event.data));
    showProgress();
  });
  source.addEventListener("end", (event) => {
    source.close();
    finish(JSON.parse(event.data));
  });
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED && state.job === job) poll(id);
  });
  state.timer = setInterval(showProgress, 250);
}

// Without events (a proxy that buffers them), ask for the job's state until it ends.
async function poll(id) {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const view = await getJSON(`/api/jobs/${id}`).catch(() => null);
    if (!view) return finish({ state: "failed", error: "the server stopped answering" });
    if (["done", "failed", "cancelled"].includes(view.state)) return finish(view);
  }
}

function elapsed() {
  const job = state.job;
  const last = state.history.length ? state.history[state.history.length - 1].seconds : 0;
  const local = job && job.running ? (performance.now() - job.running) / 1000 : 0;
  return Math.max(last, local);
}

// What the running job has said so far: the chart, the bar and a line in words.
function showProgress(final = null) {
  const job = state.job;
  const task = job ? job.task : final && final.task;
  const points = final ? [...state.history, final] : state.history;
  const seconds = final ? final.seconds : elapsed();
  // The chart once the engine has told a value (a run that answers at once needs none).
  const charted = task === "optimize" && state.history.some((p) => p.objective !== undefined || p.bound !== undefined);
  $("chart").hidden = !charted;
  $("legend").hidden = !charted;
  if (charted) drawChart($("chart"), points, seconds);
  const latest = {};
  for (const point of points) Object.assign(latest, point);
  const bar = $("progress");
  if (final) bar.value = 1;
  else if (latest.total) bar.value = latest.done / latest.total;
  else bar.value = Math.min(1, seconds / job.timeLimit);
  const words = [];
  if (latest.objective !== undefined) words.push(`best found ${latest.objective}`);
  if (latest.bound !== undefined) words.push(`bound ${latest.bound}`);
  if (latest.count !== undefined) words.push(`${latest.count.toLocaleString()} placements so far`);
  if (latest.total) words.push(`${latest.done} of ${latest.total} parts`);
  if (latest.message) words.push(latest.message);
  words.push(`${seconds.toFixed(1)} s`);
  $("progress-text").textContent = words.join(" · ");
}

function finish(view) {
  clearInterval(state.timer);
  const job = state.job;
  state.job = null;
  if (view.state === "failed") {
    say("status", `${VERBS[job.task]} failed: ${view.error}`, "bad");
  } else if (view.result && job.task === "unique") {
    showUniqueness(view.result, view.state === "cancelled");
  } else if (view.result) {
    showResult(view.result, view.state === "cancelled");
  } else {
    say("status", `${VERBS[job.task]}: cancelled before it started.`, "neutral");
  }
  updateButtons();
}

// A count with limit 2: one solution, several, or none (the solution found stays hidden).
function showUniqueness(result, cancelled) {
  const words = result.count >= 2 ? "not unique (at least 2)"
    : result.status !== "complete" ? "stopped before the check ended"
      : result.count === 1 ? "unique" : "no solution";
  const kind = { unique: "good", "no solution": "neutral" }[words] || "bad";
  say("status", `Uniqueness: ${words}${cancelled ? " (cancelled)" : ""}`, kind);
  showFacts({ ...result, uniqueness: words });
  showProgress({ seconds: result.seconds, count: result.count, task: "count" });
}

function statusWords(result) {
  if (result.task === "generate" && result.status === "feasible") return "a unique grid, proven";
  return {
    optimal: "optimal — proven",
    feasible: result.task === "optimize" ? "feasible — not proven optimal" : "feasible",
    infeasible: "infeasible — proven",
    complete: "complete — every placement counted",
    partial: "partial — stopped early",
    unknown: "unknown — stopped with nothing to show",
  }[result.status] || result.status;
}

function showFacts(result) {
  const facts = $("facts");
  facts.replaceChildren();
  $("passed-over").hidden = true;
  if (!result) return;
  const rows = [["status", "Status", statusWords(result)]];
  if (result.uniqueness !== undefined) rows.unshift(["uniqueness", "Uniqueness", result.uniqueness]);
  if (result.seed !== undefined) rows.push(["seed", "Seed", result.seed]);
  if (result.objective !== undefined) rows.push(["objective", "Best found", result.objective]);
  if (result.bound !== undefined) rows.push(["bound", "Bound", result.bound]);
  if (result.count !== undefined) {
    const label = result.status === "partial" ? "Placements (so far)" : "Placements";
    rows.push(["count", label, result.count.toLocaleString()]);
  }
  if (result.unique !== undefined) rows.push(["unique", "Classes (up to symmetry)", result.unique.toLocaleString()]);
  rows.push(["solver", "Engine", result.solver]);
  rows.push(["seconds", "Seconds", result.seconds.toFixed(result.seconds < 10 ? 3 : 1)]);
  if (result.note) rows.push(["note", "Note", result.note]);
  for (const [key, label, value] of rows) {
    const term = document.createElement("dt");
    term.textContent = label;
    const detail = document.createElement("dd");
    detail.dataset.fact = key;
    detail.textContent = String(value);
    facts.append(term, detail);
  }
  if (result.passed_over && result.passed_over.length) {
    $("passed-over").hidden = false;
    $("passed-over").querySelector("ul").replaceChildren(...result.passed_over.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
  }
}

function showResult(result, cancelled) {
  state.result = result;
  const kind = { infeasible: "neutral", unknown: "bad" }[result.status] || "good";
  say("status", `${VERBS[result.task]}: ${statusWords(result)}${cancelled ? " (cancelled)" : ""}`, kind);
  showFacts(result);
  showProgress({ seconds: result.seconds, objective: result.objective, bound: result.bound, count: result.count, task: result.task });
  if (result.grid) state.grid = result.grid;
  if (result.pieces.length || result.task !== "count") {
    state.armies = result.armies;
    state.pieces = fromJSON(result.pieces);
    state.offset = null;
    $("position").textContent = "–";
    refresh();
  }
}

function fromJSON(pieces) {
  return pieces.map((piece) => ({
    army: Math.max(0, state.catalog.armies.indexOf(piece.army)),
    square: [piece.file - 1, piece.rank - 1],
  }));
}

function cancel() {
  if (state.job) fetch(`/api/jobs/${state.job.id}`, { method: "DELETE" });
}

// ---------- browsing, sharing, downloads ----------

async function browse(step) {
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
    state.offset = offset;
    state.more = page.more;
    state.pieces = fromJSON(page.pieces);
    $("position").textContent = `#${offset + 1}${page.more ? "" : " (last)"}`;
    refresh();
  } catch (error) {
    say("status", error.message, "bad");
  }
  updateButtons();
}

function writeHash() {
  const armies = Array.from({ length: armyCount() }, () => []);
  for (const { army, square } of state.pieces) armies[army].push(fileName(square[0]) + (square[1] + 1));
  history.replaceState(null, "", `#${encode(runOptions(), armies)}`);
}

function readHash(hash) {
  const { options, armies } = decode(hash);
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
  for (const [key, id] of [["piece", "piece"], ["armies", "armies"], ["white", "white"], ["time_limit", "time-limit"]]) {
    set(id, options[key]);
  }
  const kind = COUNT_KINDS.find((name) => options[name] !== undefined);
  $("count-kind").value = kind || "";
  $("count-value").value = kind ? options[kind] : "";
  if (options.solver && [...$("solver").options].some((option) => option.value === options.solver)) {
    $("solver").value = options.solver;
  }
  state.pieces = armies.flatMap((squares, army) => squares.map((name) => ({ army, square: parseSquare(name) })));
}

async function copyLink() {
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

async function downloadImage(format) {
  const response = await fetch(`/api/render?format=${format}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...problemOptions(), pieces: placed() }),
  });
  if (response.ok) download(`${$("puzzle").value}.${format}`, await response.blob());
  else say("status", (await response.json().catch(() => ({}))).detail || "download failed", "bad");
}

function downloadJSON() {
  const data = state.result || { ...problemOptions(), pieces: placed() };
  download("placement.json", new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
}

// ---------- start ----------

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
