// Days as the dailies name them: YYYY-MM-DD in the player's own calendar.
const pad = (value) => String(value).padStart(2, "0");

export function today(now = new Date()) {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// The day `count` days before `day` (after, when negative).
export function daysBefore(day, count) {
  const [year, month, date] = day.split("-").map(Number);
  const moved = new Date(Date.UTC(year, month - 1, date - count));
  return `${moved.getUTCFullYear()}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`;
}

// "Sat 28 Nov" for a list of days.
export function shortDay(day) {
  const [year, month, date] = day.split("-").map(Number);
  const when = new Date(Date.UTC(year, month - 1, date));
  return when.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
}
