// A region puzzle's grid: typed, painted or generated, and hints for the next piece.
import { showFacts, updateButtons } from "./jobs.js";
import { optionsChanged, problemOptions } from "./options.js";
import { regionLabels } from "./regions.js";
import { $, article, post, regional, say, spec, state, whole } from "./state.js";
import { draw, placed, refresh } from "./verdict.js";

// Keep the grid and the size field agreeing: a new size starts from stripes (one region
// per row, a valid grid to paint on).
// The grid typed or pasted: one row per line (or a JSON list of strings); the server
// says what is wrong with it.
export function gridTyped() {
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
export function showRegionPicker() {
  const picker = $("region-picker");
  const painting = regional() && $("paint").checked;
  picker.hidden = !painting;
  $("board").classList.toggle("painting", painting);
  $("board").classList.toggle("playing", regional() && !painting); // a drag marks, not scrolls
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

// A new grid from the server; true when one came.
export async function generateGrid() {
  if (state.job || state.generating || $("generate").disabled) return false;
  const seed = $("seed").value === "" ? Math.floor(Math.random() * 1e9) : Number($("seed").value);
  const body = { puzzle: $("puzzle").value, n: whole("rows"), seed };
  if (spec().takes_stars) body.stars = whole("stars");
  if ($("time-limit").value !== "") body.time_limit = Number($("time-limit").value);
  state.generating = true;
  updateButtons();
  say("status", `Generate: making ${article(body.n)} ${body.n}×${body.n} grid with one solution…`, "busy");
  try {
    const result = await post("/api/generate", body);
    if (!result.grid) {
      say("status", `Generate: ${result.note} (${result.seconds.toFixed(1)} s)`, "bad");
    } else {
      state.grid = result.grid;
      state.pieces = [];
      state.marks = [];
      $("grid-text").value = state.grid.join("\n");
      state.hint = [];
      const grade = (result.note || "").split("; ").pop();
      say("status", `Generate: a new grid with one solution, proven (seed ${seed}, ${grade}). Place the ${result.armies[0].piece}s!`, "good");
      showFacts(result);
      state.result = null;
      refresh();
      return true;
    }
  } catch (error) {
    say("status", `Generate failed: ${error.message}`, "bad");
  } finally {
    state.generating = false;
    updateButtons();
  }
  return false;
}

// The next piece a person could place by the named rules, and why; its square tinted.
export async function showHint() {
  if (!regional()) return;
  try {
    const answer = await post("/api/hint", { ...problemOptions(), pieces: placed() });
    const ahead = answer.next_piece;
    const grade = `difficulty: ${answer.difficulty}`;
    state.hint = ahead ? ahead.step.places : [];
    $("status").dataset.hint = state.hint.join(" ");
    if (answer.solved) {
      say("status", "Hint: every square is decided", "good");
    } else if (answer.dead_end) {
      say("status", `Hint: ${answer.message}`, "bad");
    } else if (!ahead && answer.stopped) {
      say("status", `Hint: ${answer.message}`, "neutral");
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
