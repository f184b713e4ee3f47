// A small event hub, so that lower modules announce what happened without importing the
// modules that react (app.js wires them): options-changed, drawn, refreshing, checked.
const listeners = new Map();

export function on(name, listener) {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(listener);
}

export function emit(name) {
  for (const listener of listeners.get(name) || []) listener();
}
