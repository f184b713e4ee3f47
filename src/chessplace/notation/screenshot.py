"""A Queens game (or Star Battle) grid read from a screenshot: the grid found in the
picture, its n×n cells, their colours grouped into n regions, and the grid written as
``--grid`` takes it (a letter per square, top row first, regions lettered in reading
order).

The grid is found from long straight edges: rows (and columns) of pixels along which
the colour changes over a long run give the candidate boxes, largest first. A box is
the grid when, for some n, each of its n×n cells is of one colour in its ring (the
cell less a margin, clear of lines and walls, and less its centre, where crowns and X
marks of a game under way are drawn), the cells' colours fall into exactly n groups,
each colour far from the other groups', and the cells do not go on past the box (a
corner of a grid cut off by the picture's edge is not taken for a grid). The pieces
are not read, only the regions. Needs Pillow (the ``image`` extra); the pixel count is
checked before the picture is decoded.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from chessplace.core.regions import LABELS

if TYPE_CHECKING:
    from numpy.typing import NDArray

MAX_BYTES = 32 << 20
"""The largest image file read."""
MAX_PIXELS = 40_000_000
"""The most pixels an image may have (8000×5000), checked before it is decoded."""
FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "BMP")
WORKING_SIDE = 1000
"""Larger images are shrunk (by a whole factor) to at most this longest side first."""
SIDES = range(4, 31)
"""The grid sizes looked for."""
SMALLEST_CELL = 8
"""The fewest pixels a cell may span (after shrinking)."""
EDGE = 28
"""The least change of a colour channel across an edge, on a 0–255 scale."""
LONG_EDGE = 0.12
"""The shortest edge run looked at, as a share of the image's shorter side."""
MARGIN = 0.12
"""The part of a cell's side next to each edge left out (lines, walls, borders)."""
CENTRE = 0.6
"""The side of a cell's centre left out (crowns, marks), as a share of what is left."""
SAME_COLOUR = 40.0
"""How far (RGB distance) a pixel in a cell's ring may be from the cell's colour."""
UNIFORM = 0.7
"""The share of a cell's ring that must be of the cell's colour."""
JOIN = 20.0
"""Cells whose colours are this close (RGB distance) belong to one region."""
BOXES_TRIED = 40


class ScreenshotError(ValueError):
    """The image cannot be read as a grid; the message is one line."""


@dataclass(frozen=True)
class Box:
    """A square part of the image, in pixels: left, top, right, bottom (exclusive)."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def side(self) -> int:
        return min(self.right - self.left, self.bottom - self.top)


def grid_from_image(data: bytes) -> list[str]:
    """The grid in a screenshot (PNG, JPEG, WebP, GIF or BMP bytes): its rows, top
    first; :class:`ScreenshotError` when there is none or the image is not read."""
    pixels = _pixels(data)
    near: str | None = None
    for box in _boxes(pixels):
        rows, why = _grid_in(pixels, box)
        if rows is not None:
            return rows
        near = near or why
    if near is not None:
        raise ScreenshotError(near)
    raise ScreenshotError("no grid of coloured squares found in the image")


def _pixels(data: bytes) -> NDArray[np.int16]:
    """The image as an array of RGB values (height × width × 3), transparent parts on
    white, shrunk to about :data:`WORKING_SIDE`; its size checked before decoding."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        raise ScreenshotError(
            "reading a screenshot needs Pillow: pip install 'chessplace[image]'"
        ) from None
    if len(data) > MAX_BYTES:
        raise ScreenshotError(f"the image is over {MAX_BYTES >> 20} MiB")
    most = f"the {MAX_PIXELS // 1_000_000} million read"
    try:
        image = Image.open(io.BytesIO(data), formats=FORMATS)
    except UnidentifiedImageError:
        raise ScreenshotError(f"not an image read here ({', '.join(FORMATS)})") from None
    except Image.DecompressionBombError:  # Pillow's own bound, far above ours
        raise ScreenshotError(f"the image has more pixels than {most}") from None
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ScreenshotError(f"the image is {width}×{height} pixels, more than {most}")
    try:
        if image.format == "JPEG":
            image.draft("RGB", (WORKING_SIDE, WORKING_SIDE))  # decoded at a smaller scale
        opaque: Any = image
        if "A" in image.getbands() or "transparency" in image.info:
            rgba = image.convert("RGBA")
            opaque = Image.new("RGBA", rgba.size, "white")
            opaque.alpha_composite(rgba)
        rgb: Any = opaque.convert("RGB")
        factor = -(-max(rgb.size) // WORKING_SIDE)
        if factor > 1:
            rgb = rgb.reduce(factor)
    except (OSError, ValueError, Image.DecompressionBombError) as error:
        raise ScreenshotError(f"the image cannot be decoded: {_first_line(error)}") from None
    return np.asarray(rgb).astype(np.int16)


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _boxes(pixels: NDArray[np.int16]) -> Iterator[Box]:
    """Candidate grids, largest first: squares whose two opposite sides are long edges
    of (about) the same extent, across rows (top and bottom) or columns (left, right)."""
    shortest = max(4 * SMALLEST_CELL, int(LONG_EDGE * min(pixels.shape[:2])))
    found: set[Box] = set()
    for across_rows in (True, False):
        runs = _edge_runs(pixels if across_rows else pixels.transpose(1, 0, 2), shortest)
        for box in _squares(runs):
            found.add(box if across_rows else Box(box.top, box.left, box.bottom, box.right))
    boxes = sorted(found, key=lambda box: -box.side)
    kept: list[Box] = []
    for box in boxes:
        if all(not _alike(box, other) for other in kept):
            kept.append(box)
            yield box
            if len(kept) == BOXES_TRIED:
                return


def _alike(one: Box, other: Box) -> bool:
    """Two boxes a pixel or two apart (an edge is seen on two rows or columns)."""
    slack = 2
    return all(
        abs(a - b) <= slack
        for a, b in zip(
            (one.left, one.top, one.right, one.bottom),
            (other.left, other.top, other.right, other.bottom),
            strict=True,
        )
    )


def _edge_runs(pixels: NDArray[np.int16], shortest: int) -> list[tuple[int, int, int]]:
    """(row, first column, last column + 1) of each run of at least ``shortest`` pixels
    along which the colour changes from the row above to the row below (by at least
    :data:`EDGE` in some channel), gaps of a few pixels bridged (where a wall meets a
    border of its colour)."""
    change = np.abs(pixels[2:] - pixels[:-2]).max(axis=2) >= EDGE
    gap = 3 + min(pixels.shape[:2]) // 100
    runs: list[tuple[int, int, int]] = []
    for row in np.flatnonzero(change.sum(axis=1) >= shortest):
        steps = np.diff(change[row].astype(np.int8), prepend=0, append=0)
        starts, ends = np.flatnonzero(steps == 1), np.flatnonzero(steps == -1)
        bridged = np.flatnonzero(starts[1:] - ends[:-1] > gap)
        for start, end in zip(starts[np.r_[0, bridged + 1]], ends[np.r_[bridged, -1]], strict=True):
            if end - start >= shortest:
                runs.append((int(row) + 1, int(start), int(end)))
    return runs


def _squares(runs: list[tuple[int, int, int]]) -> Iterator[Box]:
    """Boxes whose top and bottom are two runs of about the same extent, a width apart."""
    by_start: dict[int, list[tuple[int, int, int]]] = {}
    for run in runs:
        by_start.setdefault(run[1] // 8, []).append(run)
    for row, start, end in runs:
        width = end - start
        slack = max(3, width // 30)
        for bucket in range((start - slack) // 8, (start + slack) // 8 + 1):
            for other_row, other_start, other_end in by_start.get(bucket, ()):
                if (
                    abs(other_start - start) <= slack
                    and abs(other_end - end) <= slack
                    and abs(other_row - row - width) <= slack
                ):
                    yield Box(start, row, end, other_row)


def _grid_in(pixels: NDArray[np.int16], box: Box) -> tuple[list[str] | None, str | None]:
    """The grid in ``box``: its rows when some n×n division has cells of one colour each
    in exactly n groups, and the cells stop at the box's sides; else None, and what was
    nearly a grid (one line) if anything."""
    near = None
    for n in SIDES:
        if box.side < n * SMALLEST_CELL:
            break
        colours = _cell_colours(pixels, box, n)
        if colours is None:
            continue
        groups = _groups(colours)
        count = int(groups.max()) + 1
        if count != n:
            regions = "1 region" if count == 1 else f"{count} regions"
            near = (
                near
                or f"found a grid of {n}×{n} squares, but their colours make {regions}, not {n}"
            )
        elif _goes_on(pixels, box, n, colours, groups):
            near = near or (
                f"found {n}×{n} squares of {n} colours, but coloured squares go on past them: "
                "is the whole grid in the picture?"
            )
        else:
            return ["".join(LABELS[group] for group in row) for row in groups.reshape(n, n)], None
    return None, near


def _goes_on(
    pixels: NDArray[np.int16],
    box: Box,
    n: int,
    colours: NDArray[np.float64],
    groups: NDArray[np.int64],
) -> bool:
    """Whether the cells go on past a side of the box, as when it is a corner of a larger
    grid: half a cell beyond that side, at least half the would-be neighbours of its
    cells are of the box's colours, two or more of them."""
    height, width = pixels.shape[:2]
    cell = (box.right - box.left) / n
    along = [(k + 0.5) * cell for k in range(n)]
    sides = (
        [(box.top - cell / 2, box.left + a) for a in along],
        [(box.bottom + cell / 2, box.left + a) for a in along],
        [(box.top + a, box.left - cell / 2) for a in along],
        [(box.top + a, box.right + cell / 2) for a in along],
    )
    for points in sides:
        found = []
        for y, x in points:
            row, column = int(y), int(x)
            if 1 <= row < height - 1 and 1 <= column < width - 1:
                patch = pixels[row - 1 : row + 2, column - 1 : column + 2].reshape(-1, 3)
                distance = np.sqrt(((colours - np.median(patch, axis=0)) ** 2).sum(axis=1))
                if distance.min() <= JOIN:
                    found.append(int(groups[int(distance.argmin())]))
        if 2 * len(found) >= n and len(set(found)) >= 2:
            return True
    return False


def _cell_colours(pixels: NDArray[np.int16], box: Box, n: int) -> NDArray[np.float64] | None:
    """Each cell's colour (the median of its ring: the cell less a margin, clear of
    lines and walls, and less its centre, where a crown or a mark is drawn), n·n × 3,
    row by row from the top; None when some cell's ring is not of one colour."""
    width = (box.right - box.left) / n
    height = (box.bottom - box.top) / n
    colours = np.empty((n * n, 3), dtype=np.float64)
    for row in range(n):
        top = box.top + row * height
        for column in range(n):
            left = box.left + column * width
            cell = pixels[
                int(top + MARGIN * height) : int(top + (1 - MARGIN) * height) + 1,
                int(left + MARGIN * width) : int(left + (1 - MARGIN) * width) + 1,
            ]
            ring = cell[_ring(*cell.shape[:2])]
            colour = np.median(ring, axis=0)
            near = np.sqrt(((ring - colour) ** 2).sum(axis=1)) <= SAME_COLOUR
            if near.mean() < UNIFORM:
                return None
            colours[row * n + column] = colour
    return colours


def _ring(height: int, width: int) -> NDArray[np.bool_]:
    """The pixels of a cell's inside (``height`` × ``width``) outside its centre."""
    rows, columns = np.ogrid[:height, :width]
    centre_rows = np.abs(rows - (height - 1) / 2) <= CENTRE * height / 2
    centre_columns = np.abs(columns - (width - 1) / 2) <= CENTRE * width / 2
    return ~(centre_rows & centre_columns)


def _groups(colours: NDArray[np.float64]) -> NDArray[np.int64]:
    """The group of each colour: colours joined when within :data:`JOIN` of another of
    the group (single linkage), groups numbered in the order their first cell comes."""
    count = len(colours)
    distance = np.sqrt(((colours[:, None, :] - colours[None, :, :]) ** 2).sum(axis=2))
    parent = list(range(count))

    def root(item: int) -> int:
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    for one, other in zip(*np.nonzero(np.triu(distance <= JOIN, 1)), strict=True):
        parent[root(int(one))] = root(int(other))
    numbers: dict[int, int] = {}
    return np.array([numbers.setdefault(root(item), len(numbers)) for item in range(count)])
