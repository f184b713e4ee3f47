// A grid read from a screenshot: dropped on the page, pasted, or chosen as a file. The
// image is shrunk here to at most 1000 pixels a side (as the server's reader works) and
// sent to POST /api/screenshot, which finds the grid and its regions (as `chessplace
// solve queens-game --image shot.png` does); the grid then replaces the one shown.
import { optionsChanged } from "./options.js";
import { $, regional, say, state } from "./state.js";

const SIDE = 1000;

// A PNG of the image no larger than SIDE a side (the image itself when it is smaller).
async function shrunk(file) {
  let picture;
  try {
    picture = await createImageBitmap(file);
  } catch {
    return file; // not one the browser reads: the server says what it is
  }
  const scale = Math.min(1, SIDE / Math.max(picture.width, picture.height));
  if (scale === 1) return file;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(picture.width * scale);
  canvas.height = Math.round(picture.height * scale);
  canvas.getContext("2d").drawImage(picture, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

export async function readScreenshot(file) {
  if (!file || state.job || state.generating) return;
  say("status", "Screenshot: looking for the grid…", "busy");
  try {
    const body = await shrunk(file);
    const response = await fetch("/api/screenshot", {
      method: "POST", headers: { "Content-Type": body.type || "application/octet-stream" }, body,
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(typeof answer.detail === "string" ? answer.detail : `request failed (${response.status})`);
    if (!regional()) $("puzzle").value = "queens-game";
    Object.assign(state, { grid: answer.grid, pieces: [], marks: [], hint: [] });
    $("rows").value = answer.n;
    optionsChanged();
    say("status", `Screenshot: a ${answer.n}×${answer.n} grid of ${answer.n} regions, read.`, "good");
  } catch (error) {
    say("status", `Screenshot: ${error.message}`, "bad");
  }
}

const imageIn = (items) => [...(items || [])].find((item) => item.type.startsWith("image/"));

// Drops anywhere on the page, pastes (outside the fields), and the file picker.
export function listenForScreenshots() {
  $("grid-image").addEventListener("change", () => readScreenshot($("grid-image").files[0]));
  document.addEventListener("dragover", (event) => {
    if ([...event.dataTransfer.types].includes("Files")) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    const file = imageIn(event.dataTransfer.files);
    if (!file) return;
    event.preventDefault();
    readScreenshot(file);
  });
  document.addEventListener("paste", (event) => {
    const item = imageIn(event.clipboardData && event.clipboardData.items);
    if (!item) return;
    event.preventDefault();
    readScreenshot(item.getAsFile());
  });
}
