// The archive of daily puzzles: the last days, each with its dailies (ticked, with the
// time, when solved in this browser), and the streak of days solved.
import { clockText } from "./clock.js";
import { DAILY_NAMES, startDaily } from "./daily.js";
import { daysBefore, shortDay, today } from "./days.js";
import { $ } from "./state.js";
import { dailyKey, solvedDailies, streak } from "./streak.js";

export const ARCHIVE_DAYS = 14;

const days = (count) => (count === 1 ? "1 day" : `${count} days`);

export function showDailies() {
  const solved = solvedDailies();
  const now = today();
  const { current, longest } = streak(solved, now);
  $("streak").textContent = `Streak: ${days(current)}${longest > current ? ` (longest ${days(longest)})` : ""}`;
  $("daily-day").max = now;
  if (!$("daily-day").value) $("daily-day").value = now;
  const list = Array.from({ length: ARCHIVE_DAYS }, (_, back) => dayRow(daysBefore(now, back), solved));
  $("archive-list").replaceChildren(...list);
}

function dayRow(day, solved) {
  const row = document.createElement("li");
  row.dataset.day = day;
  const label = Object.assign(document.createElement("span"), { className: "day", textContent: shortDay(day) });
  const buttons = Object.entries(DAILY_NAMES).map(([puzzle, name]) => {
    const record = solved[dailyKey(puzzle, day)];
    const button = document.createElement("button");
    button.className = record ? "quiet solved" : "quiet";
    button.textContent = record ? `${name} ✓ ${clockText(record.seconds)}` : name;
    button.title = `play the ${name} of ${day}`;
    button.dataset.puzzle = puzzle;
    button.addEventListener("click", () => startDaily(puzzle, day));
    return button;
  });
  row.append(label, ...buttons);
  return row;
}
