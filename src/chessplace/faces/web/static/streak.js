// The dailies solved, kept in the browser (localStorage): for each puzzle and day, the
// time, the hints and the day it was solved on; and the streak: the days in a row, up to
// today (or up to yesterday while today's is still to solve), on which a daily of that
// very day was solved. A past day's daily solved later is ticked in the archive but
// makes no streak.
import { daysBefore } from "./days.js";
import { load, save } from "./stored.js";

const KEY = "dailies";

export const dailyKey = (puzzle, day) => `${puzzle} ${day}`;

// {"queens-game 2026-11-27": {seconds, hints, on}} as kept.
export function solvedDailies() {
  const kept = load(KEY, {});
  return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
}

// A daily solved on day `on`; the first solve of a daily is the one kept.
export function recordDaily(puzzle, day, seconds, hints, on) {
  const solved = solvedDailies();
  const key = dailyKey(puzzle, day);
  if (solved[key]) return;
  solved[key] = { seconds, hints, on };
  save(KEY, solved);
}

// {current, longest}: days in a row with a daily solved on its own day.
export function streak(solved, today) {
  const days = new Set();
  for (const [key, record] of Object.entries(solved)) {
    const day = key.split(" ")[1];
    if (record && record.on === day) days.add(day);
  }
  let current = 0;
  for (let day = days.has(today) ? today : daysBefore(today, 1); days.has(day); day = daysBefore(day, 1)) current++;
  let longest = 0;
  for (const day of days) {
    if (days.has(daysBefore(day, 1))) continue; // not the first of its run
    let length = 0;
    for (let next = day; days.has(next); next = daysBefore(next, -1)) length++;
    longest = Math.max(longest, length);
  }
  return { current, longest };
}
