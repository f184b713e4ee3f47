// The region grid as the board draws it: numbers and labels by rank, and the palette.
import { state } from "./state.js";

export function regionView() {
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
export function regionLabels(palette = false) {
  const seen = [...new Set(state.grid.join(""))];
  if (!palette) return seen;
  const spare = [...state.catalog.region_labels].filter((label) => !seen.includes(label));
  return [...seen, ...spare.slice(0, Math.max(0, state.grid.length - seen.length))];
}
