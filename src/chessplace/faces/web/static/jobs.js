// The buttons and the jobs they start (solve, optimize, count), followed live.
import { drawChart } from "./chart.js";
import { emit } from "./events.js";
import { runOptions } from "./options.js";
import { nameOf } from "./position.js";
import { $, TASKS, VERBS, getJSON, placesPawns, post, regional, say, side, state } from "./state.js";
import { remember } from "./undo.js";
import { refresh } from "./verdict.js";

function solverTasks() {
  const chosen = state.catalog.solvers.find((solver) => solver.name === $("solver").value);
  return chosen ? chosen.tasks : TASKS;
}

export function updateButtons() {
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
export async function runJob(task) {
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
  // Once ended, the answer replaces the running words ("3476 of 4670 parts").
  const words = final ? [final.words || "done"] : [];
  if (latest.objective !== undefined) words.push(`best found ${latest.objective}`);
  if (latest.bound !== undefined) words.push(`bound ${latest.bound}`);
  if (latest.count !== undefined) words.push(`${latest.count.toLocaleString()} placements${final ? "" : " so far"}`);
  if (latest.total && !final) words.push(`${latest.done} of ${latest.total} parts`);
  if (latest.message && !final) words.push(latest.message);
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
  showProgress({ seconds: result.seconds, count: result.count, task: "count", words });
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

export function showFacts(result) {
  const facts = $("facts");
  facts.replaceChildren();
  $("passed-over").hidden = true;
  if (!result) return;
  const rows = [["status", "Status", statusWords(result)]];
  if (result.uniqueness !== undefined) rows.unshift(["uniqueness", "Uniqueness", result.uniqueness]);
  if (result.seed !== undefined) rows.push(["seed", "Seed", result.seed]);
  if (result.difficulty !== undefined) rows.push(["difficulty", "Difficulty", `${result.difficulty} (${result.steps} steps by the rules)`]);
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
  showProgress({
    seconds: result.seconds, objective: result.objective, bound: result.bound, count: result.count,
    task: result.task, words: statusWords(result),
  });
  if (result.grid) state.grid = result.grid;
  if (result.pieces.length || result.task !== "count") {
    state.armies = result.armies;
    remember();
    takePieces(result.pieces);
    state.offset = null;
    $("position").textContent = "–";
    if (regional()) emit("answered");
    refresh();
  }
}

// An answer's pieces onto the board: the pinned ones stay pinned, and the pawns a
// queens-and-pawns answer places become the board's pawns.
export function takePieces(pieces) {
  const pinned = new Set(state.pieces.filter((piece) => piece.given).map((piece) => nameOf(piece.square)));
  if (placesPawns()) state.pawns = pieces.filter((piece) => piece.piece === "pawn").map((piece) => piece.square);
  state.pieces = pieces.filter((piece) => piece.piece !== "pawn").map((piece) => {
    const square = [piece.file - 1, piece.rank - 1];
    const taken = {
      army: Math.max(0, state.catalog.armies.indexOf(piece.army)), square,
    };
    return pinned.has(nameOf(square)) ? { ...taken, given: true } : taken;
  });
  state.marks = [];
}

// Another puzzle: the last job's words, facts and chart are about something else.
export function clearAnswer() {
  if (state.job) return;
  state.history = [];
  showFacts(null);
  $("live").hidden = true;
  $("chart").replaceChildren();
  $("progress-text").textContent = "";
  $("progress").value = 0;
  say("status", regional() ? "Press Solve, Count, Unique? or Hint." : "Press Solve, Optimize or Count.", "");
}

export function cancel() {
  if (state.job) fetch(`/api/jobs/${state.job.id}`, { method: "DELETE" });
}
