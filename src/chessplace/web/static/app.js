// chessplace front end: plain JavaScript, no build step.
"use strict";

const GLYPHS = { queen: "♛", rook: "♜", bishop: "♝", knight: "♞", king: "♚", amazon: "♛" };
const GENERAL = new Set(["independent", "peaceable", "dominating"]);
const $ = (id) => document.getElementById(id);

const state = { pieces: [], offset: 0, job: null, lastResult: null, verifyToken: 0, limits: null };

// The server's limits (GET /api/limits): the inputs are clamped to them.
async function loadLimits() {
  try {
    state.limits = await (await fetch("/api/limits")).json();
  } catch (error) {
    state.limits = null;
  }
  if (!state.limits) return;
  $("n").max = state.limits.sides.verify;
  $("time-limit").max = state.limits.max_seconds;
  $("time-limit").placeholder = state.limits.default_seconds;
}

// Clamp a number input to its min and max; say so when it had to change.
function clamp(input, label) {
  if (input.value === "") return;
  const value = Number(input.value);
  const low = input.min === "" ? -Infinity : Number(input.min);
  const high = input.max === "" ? Infinity : Number(input.max);
  const kept = Math.min(high, Math.max(low, Number.isFinite(value) ? Math.round(value) : low));
  if (kept !== value) {
    input.value = kept;
    $("status").textContent = `${label} is between ${low} and ${high} on this server: set to ${kept}`;
  }
}

// The server's message for a task whose board is over its limit, before sending anything.
function overLimit(task) {
  const side = state.limits && state.limits.sides[task];
  const n = Number($("n").value);
  return side && n > side ? `n = ${n} is over this server's limit for ${task}: sides up to ${side}` : null;
}

function options() {
  const body = { puzzle: $("puzzle").value, n: Number($("n").value) };
  if (GENERAL.has(body.puzzle)) body.piece = $("piece").value;
  if ($("at-least").value !== "") body.at_least = Number($("at-least").value);
  if ($("time-limit").value !== "") body.time_limit = Number($("time-limit").value);
  return body;
}

function fileName(file) {
  let name = "";
  for (let number = file + 1; number > 0; number = Math.floor((number - 1) / 26)) {
    name = String.fromCharCode(97 + ((number - 1) % 26)) + name;
  }
  return name;
}

function drawBoard(verdict) {
  const n = Number($("n").value);
  const board = $("board");
  const size = Math.max(4, Math.min(52, Math.floor(640 / n)));
  board.style.setProperty("--square", `${size}px`);
  board.style.gridTemplateColumns = `repeat(${n}, ${size}px)`;
  board.replaceChildren();
  const attacked = new Set(verdict ? verdict.attacked : []);
  const conflicts = new Set((verdict ? verdict.conflicts : []).flat());
  const bySquare = new Map(state.pieces.map((p) => [p.square, p]));
  for (let rank = n; rank >= 1; rank--) {
    for (let file = 1; file <= n; file++) {
      const name = fileName(file - 1) + rank;
      const square = document.createElement("div");
      square.className = `square ${(file + rank) % 2 === 0 ? "dark" : "light"}`;
      square.dataset.square = name;
      if (attacked.has(name)) square.classList.add("attacked");
      if (conflicts.has(name)) square.classList.add("conflict");
      const piece = bySquare.get(name);
      if (piece) {
        const glyph = document.createElement("span");
        glyph.className = `piece ${piece.army}`;
        glyph.textContent = GLYPHS[piece.piece] || piece.piece.slice(0, 2);
        square.appendChild(glyph);
      }
      square.addEventListener("click", () => toggle(name, file, rank));
      board.appendChild(square);
    }
  }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(describeError(data));
  return data;
}

function describeError(data) {
  return typeof data.detail === "string" ? data.detail : "request failed";
}

async function verify() {
  const token = ++state.verifyToken;
  const refused = overLimit("verify");
  if (refused) {
    $("verdict").textContent = refused;
    $("verdict").className = "invalid";
    $("board").replaceChildren();
    return;
  }
  try {
    const verdict = await post("/api/verify", { ...options(), pieces: state.pieces });
    if (token !== state.verifyToken) return;
    $("verdict").textContent = verdict.status === "valid"
      ? `valid: ${state.pieces.length} pieces`
      : `invalid: ${verdict.violations.length} broken rule(s)`;
    $("verdict").className = verdict.status;
    $("violations").replaceChildren(...verdict.violations.slice(0, 12).map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
    drawBoard(verdict);
  } catch (error) {
    $("verdict").textContent = error.message;
    $("verdict").className = "invalid";
    drawBoard(null);
  }
}

function toggle(square, file, rank) {
  const index = state.pieces.findIndex((p) => p.square === square);
  if (index >= 0) {
    state.pieces.splice(index, 1);
  } else {
    const army = document.querySelector("input[name=army]:checked").value;
    const twoArmies = $("puzzle").value.startsWith("peaceable");
    const piece = pieceName();
    state.pieces.push({ piece, army: twoArmies ? army : "white", square, file, rank });
  }
  verify();
}

function pieceName() {
  const puzzle = $("puzzle").value;
  if (puzzle === "amazons") return "amazon";
  if (puzzle === "bishops") return "bishop";
  if (GENERAL.has(puzzle)) return $("piece").value;
  return "queen";
}

function showResult(result) {
  state.lastResult = result;
  const parts = [`${result.status}`];
  if (result.objective !== undefined) parts.push(`objective ${result.objective}`);
  if (result.bound !== undefined && result.status !== "optimal") parts.push(`bound ${result.bound}`);
  if (result.count !== undefined) parts.push(`${result.count.toLocaleString()} placements`);
  if (result.unique !== undefined) parts.push(`${result.unique.toLocaleString()} up to symmetry`);
  parts.push(`${result.solver}, ${result.seconds.toFixed(3)} s`);
  $("status").textContent = parts.join(" · ");
  if (result.pieces.length || result.task !== "count") {
    state.pieces = result.pieces;
    verify();
  }
}

async function runJob(task) {
  if (state.job) return;
  const refused = overLimit(task);
  if (refused) {
    $("status").textContent = refused;
    return;
  }
  const body = { ...options(), task, unique: $("unique").checked };
  try {
    const { id } = await post("/api/jobs", body);
    state.job = id;
    $("cancel").disabled = false;
    $("status").textContent = `${task}…`;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const job = await (await fetch(`/api/jobs/${id}`)).json();
      if (job.state === "queued") {
        $("status").textContent = `${task}: queued, position ${job.position}`;
        continue;
      }
      if (job.state === "running" || job.state === "cancelling") {
        const p = job.progress;
        const bits = [`${task}…`];
        if (p.objective !== undefined) bits.push(`best ${p.objective}`);
        if (p.bound !== undefined) bits.push(`bound ${p.bound}`);
        if (p.count !== undefined) bits.push(`${p.count.toLocaleString()} found`);
        if (p.done !== undefined) bits.push(`${p.done}/${p.total} parts`);
        $("status").textContent = bits.join(" · ");
        continue;
      }
      if (job.state === "failed") $("status").textContent = `failed: ${job.error}`;
      else if (job.result) showResult(job.result);
      if (job.state === "cancelled") {
        $("status").textContent = job.result ? `${$("status").textContent} (cancelled)` : "cancelled";
      }
      break;
    }
  } catch (error) {
    $("status").textContent = error.message;
  } finally {
    state.job = null;
    $("cancel").disabled = true;
  }
}

async function browse(step) {
  const offset = Math.max(0, state.offset + step);
  const refused = overLimit("solutions");
  if (refused) {
    $("status").textContent = refused;
    return;
  }
  try {
    const page = await post("/api/solutions", { ...options(), offset, unique: $("unique").checked });
    state.offset = offset;
    state.pieces = page.pieces;
    $("position").textContent = `#${offset + 1}${page.more ? "" : " (last)"}`;
    verify();
  } catch (error) {
    $("status").textContent = error.message;
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
    body: JSON.stringify({ ...options(), pieces: state.pieces }),
  });
  if (response.ok) download(`${$("puzzle").value}.${format}`, await response.blob());
  else $("status").textContent = describeError(await response.json());
}

function reset() {
  state.pieces = [];
  state.offset = 0;
  $("position").textContent = "–";
  $("piece-label").style.display = GENERAL.has($("puzzle").value) ? "" : "none";
  verify();
}

$("solve").addEventListener("click", () => runJob("solve"));
$("optimize").addEventListener("click", () => runJob("optimize"));
$("count").addEventListener("click", () => runJob("count"));
$("cancel").addEventListener("click", () => state.job && fetch(`/api/jobs/${state.job}`, { method: "DELETE" }));
$("next").addEventListener("click", () => browse(state.pieces.length && $("position").textContent !== "–" ? 1 : 0));
$("previous").addEventListener("click", () => browse(-1));
$("clear").addEventListener("click", reset);
$("puzzle").addEventListener("change", reset);
$("n").addEventListener("change", () => {
  clamp($("n"), "n");
  loadLimits().then(reset);
});
$("time-limit").addEventListener("change", () => clamp($("time-limit"), "the time limit"));
$("download-json").addEventListener("click", () => download("placement.json",
  new Blob([JSON.stringify(state.lastResult || { pieces: state.pieces }, null, 2)], { type: "application/json" })));
$("download-svg").addEventListener("click", () => downloadImage("svg"));
$("download-png").addEventListener("click", () => downloadImage("png"));
loadLimits().then(reset);
