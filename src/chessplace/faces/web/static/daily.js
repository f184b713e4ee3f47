// The daily puzzles: each day a Queens game (8×8) and a Star Battle (10×10, two stars per
// line), the same for everyone, made by the server from the day's seed (2026-11-27 →
// 20261127, so `chessplace generate queens-game -n 8 --seed 20261127` makes that Queens
// game): today's, or a past day's from the archive. One in progress comes back as it was.
import { today } from "./days.js";
import { showFacts, updateButtons } from "./jobs.js";
import { keepGame, restoreDaily } from "./keep.js";
import { optionsChanged } from "./options.js";
import { $, say, state } from "./state.js";

export const DAILY_NAMES = { "queens-game": "Queens game", "star-battle": "Star Battle" };

// The day in the day field: today when it is empty, malformed or still to come.
export function chosenDay() {
  const day = $("daily-day").value;
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && day <= today() ? day : today();
}

// Play the daily `puzzle` of `day`; true when it is on the board.
export async function startDaily(puzzle, day = chosenDay()) {
  if (state.job || state.generating) return false;
  const name = DAILY_NAMES[puzzle];
  keepGame(); // the game shown, before another may take its place
  if (restoreDaily(puzzle, day)) {
    optionsChanged();
    say("status", `Daily: the ${name} of ${day}, as you left it.`, "good");
    return true;
  }
  state.generating = true;
  updateButtons();
  say("status", `Daily: fetching the ${name} of ${day}…`, "busy");
  try {
    const response = await fetch(`/api/daily/${puzzle}/${day}`);
    const result = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(typeof result.detail === "string" ? result.detail : `request failed (${response.status})`);
    if (!result.grid) {
      say("status", `Daily: ${result.note}`, "bad");
      return false;
    }
    $("puzzle").value = puzzle;
    $("rows").value = result.grid.length;
    if (result.stars) $("stars").value = result.stars;
    $("seed").value = result.seed;
    Object.assign(state, { grid: result.grid, pieces: [], marks: [], hint: [] });
    state.daily = { puzzle, day, grid: result.grid.join(".") };
    optionsChanged();
    showFacts(result);
    say("status", `Daily: the ${name} of ${day}, one solution (seed ${result.seed}). Place the ${result.armies[0].piece}s!`, "good");
    return true;
  } catch (error) {
    say("status", `Daily failed: ${error.message}`, "bad");
    return false;
  } finally {
    state.generating = false;
    updateButtons();
  }
}
