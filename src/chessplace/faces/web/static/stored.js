// What the browser keeps between visits (localStorage): settings and personal bests.
// A browser that refuses storage (private mode, a full quota) just forgets.
const PREFIX = "chessplace.";

export function load(key, fallback) {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

export function save(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch { /* not kept */ }
}

// A checkbox whose state is remembered; `changed` runs on each change.
export function rememberToggle(input, key, changed) {
  input.checked = Boolean(load(key, input.checked));
  input.addEventListener("change", () => { save(key, input.checked); changed(); });
}
