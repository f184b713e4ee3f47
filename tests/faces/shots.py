"""Screenshots of region grids, drawn for the tests that read them back: cells in a
palette's colours, thin lines, walls between regions, a border, on a page with a title
and a button; scaled (anti-aliased), noised and encoded as asked."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw

from chessplace.core.regions import LABELS

LINKEDIN = (
    "#bba3e2", "#ffc992", "#96beff", "#b3dfa0", "#dfdfdf", "#ff7b60",
    "#e6f388", "#b9b29e", "#dfa0bf", "#a3d2d8", "#62efea", "#ff93f3",
)  # fmt: skip
"""Colours like those of LinkedIn's Queens."""
STRONG = (
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4",
    "#46f0f0", "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff",
)  # fmt: skip
"""Saturated colours, some of them dark."""


def lettered(rows: list[str]) -> list[str]:
    """The rows with regions lettered in reading order, as the reader letters them."""
    order: dict[str, int] = {}
    return ["".join(LABELS[order.setdefault(label, len(order))] for label in row) for row in rows]


def shot(
    rows: list[str],
    palette: tuple[str, ...] = LINKEDIN,
    *,
    cell: int = 60,
    border: int = 4,
    thin: int = 1,
    wall: int = 3,
    page: str = "white",
    scale: float = 1.0,
    noise: float = 0.0,
    form: str = "PNG",
    crowns: tuple[tuple[int, int], ...] = (),
    crosses: tuple[tuple[int, int], ...] = (),
) -> bytes:
    """A screenshot of the grid: cells in the palette's colours (one per region, in
    reading order), thin lines between cells, walls between regions, a border, crowns
    and X marks on the (row, column) cells given (a game under way), on a page with a
    title above and a button below; scaled (anti-aliased), noised, encoded."""
    n = len(rows)
    side = n * cell
    left, top = 80, 200
    image = Image.new("RGB", (side + 2 * left, side + 2 * top), page)
    pen = ImageDraw.Draw(image)
    order = list(dict.fromkeys("".join(rows)))
    for row, labels in enumerate(rows):
        for column, label in enumerate(labels):
            x, y = left + column * cell, top + row * cell
            colour = palette[order.index(label) % len(palette)]
            pen.rectangle([x, y, x + cell - 1, y + cell - 1], fill=colour)
    for k in range(1, n if thin else 0):
        pen.line([left + k * cell, top, left + k * cell, top + side], fill="#555555", width=thin)
        pen.line([left, top + k * cell, left + side, top + k * cell], fill="#555555", width=thin)
    for row in range(n):
        for column in range(n):
            x, y = left + column * cell, top + row * cell
            if column + 1 < n and rows[row][column] != rows[row][column + 1]:
                pen.line([x + cell, y, x + cell, y + cell], fill="black", width=wall)
            if row + 1 < n and rows[row][column] != rows[row + 1][column]:
                pen.line([x, y + cell, x + cell, y + cell], fill="black", width=wall)
    if border:
        box = [left - border, top - border, left + side + border - 1, top + side + border - 1]
        pen.rectangle(box, outline="black", width=border)
    for row, column in crowns:  # a crown of five points, 60% of the cell wide
        x, y, r = left + (column + 0.5) * cell, top + (row + 0.5) * cell, 0.3 * cell
        points = [(-1, 0.6), (-1, -0.5), (-0.5, 0), (0, -0.8), (0.5, 0), (1, -0.5), (1, 0.6)]
        pen.polygon([(x + r * dx, y + r * dy) for dx, dy in points], fill="black")
    for row, column in crosses:
        x, y, r = left + (column + 0.5) * cell, top + (row + 0.5) * cell, cell / 5
        pen.line([x - r, y - r, x + r, y + r], fill="#333333", width=3)
        pen.line([x - r, y + r, x + r, y - r], fill="#333333", width=3)
    ink = "black" if page == "white" else "white"
    pen.text((left, top - 60), "Queens #123 · 0:42", fill=ink)
    pen.rounded_rectangle([left, top + side + 30, left + 120, top + side + 70], 12, "#0a66c2")
    if scale != 1.0:
        size = (round(image.width * scale), round(image.height * scale))
        image = image.resize(size, Image.Resampling.LANCZOS)
    if noise:
        values = np.asarray(image, dtype=np.float32)
        values += np.random.default_rng(7).normal(0, noise, values.shape)
        image = Image.fromarray(np.clip(values, 0, 255).astype(np.uint8))
    out = io.BytesIO()
    image.save(out, form, **({"quality": 85} if form == "JPEG" else {}))
    return out.getvalue()
