"""Region grids: an n×n board cut into n regions (the Queens game, Star Battle).

A grid is read from text (one character per cell, one line per row with the
first line the top rank, blank lines and spaces ignored) or from a JSON list
of strings in the same order. Every problem with regions asks for ``per_line``
pieces in every row, column and region, none touching another (not even at a
corner). Reading checks the grid's shape, not whether it has a solution:
every malformed grid is a ``ValueError`` with a one-line message.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from chessplace.core.board import Square

LABELS = string.ascii_uppercase + string.ascii_lowercase + string.digits
"""The characters that may name a region: letters and digits."""
MAX_SIDE = len(LABELS)
"""The largest grid: one region per row, each named by one letter or digit."""
MAX_GRID_CHARS = 64 * 1024
"""The longest grid text read (a 62×62 grid with generous spacing is far shorter)."""
FIT_BUDGET = 20_000
"""Steps spent looking for room for ``per_line`` pieces in one region before trusting it."""


@dataclass(frozen=True)
class Regions:
    """An n×n grid of region labels, ``rows[0]`` the top rank, and how many pieces
    every row, column and region holds."""

    rows: tuple[str, ...]
    per_line: int = 1

    def __post_init__(self) -> None:
        _check_shape(self.rows)
        _check_regions(self)
        _check_room(self)

    @property
    def size(self) -> int:
        return len(self.rows)

    def label(self, square: Square) -> str:
        """The label of the region holding ``square`` (file, rank)."""
        file, rank = square
        return self.rows[self.size - 1 - rank][file]

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Region labels, in reading order of their first cell (top row first)."""
        return tuple(dict.fromkeys("".join(self.rows)))

    @cached_property
    def number(self) -> dict[str, int]:
        """Label → region number, 0 to n − 1."""
        return {label: index for index, label in enumerate(self.labels)}

    @cached_property
    def _numbers(self) -> tuple[tuple[int, ...], ...]:
        """Region number per square, ``[rank][file]``."""
        number = self.number
        return tuple(tuple(number[c] for c in row) for row in reversed(self.rows))

    def region_of(self, square: Square) -> int:
        """The number of the region holding ``square``."""
        return self._numbers[square[1]][square[0]]

    @cached_property
    def _cells(self) -> tuple[list[Square], ...]:
        cells: tuple[list[Square], ...] = tuple([] for _ in self.labels)
        for rank, row in enumerate(self._numbers):
            for file, region in enumerate(row):
                cells[region].append((file, rank))
        return cells

    def squares(self, region: int) -> list[Square]:
        """The squares of region ``region``, rank by rank from a1."""
        return list(self._cells[region])


@dataclass(frozen=True)
class Sketch:
    """A grid as its maker draws it, not checked as :class:`Regions` is: the region
    number of every square (``numbers[rank][file]``, 0 to n − 1), the squares that
    may hold a piece (``allowed``: those already inside their region) and how many
    pieces every row, column and region holds."""

    numbers: tuple[tuple[int, ...], ...]
    allowed: frozenset[Square]
    per_line: int = 1

    @classmethod
    def of(
        cls, numbers: Sequence[Sequence[int]], allowed: Iterable[Square], per_line: int = 1
    ) -> Sketch:
        """The sketch of a maker's grid (``numbers[rank][file]``), frozen."""
        return cls(tuple(map(tuple, numbers)), frozenset(allowed), per_line)


def parse_grid(source: str | Sequence[str]) -> tuple[str, ...]:
    """The rows of a grid, top row first, from text, a JSON list of strings (as text or
    already decoded) or a JSON answer holding one under ``"grid"`` (as ``generate
    --json`` prints); raises ``ValueError`` on anything but letters and digits."""
    if isinstance(source, str):
        if len(source) > MAX_GRID_CHARS:
            raise ValueError(f"the grid is longer than {MAX_GRID_CHARS // 1024} KiB")
        source = source.removeprefix("\ufeff")  # the byte-order mark some editors write
        if source.lstrip().startswith(("[", "{")):
            try:
                decoded = json.loads(source)
            except (ValueError, RecursionError):
                raise ValueError("the grid is not a valid JSON list of strings") from None
            if isinstance(decoded, dict):  # an answer of generate or solve --json
                decoded = decoded.get("grid")
            source = decoded
        else:
            source = source.splitlines()
    if not isinstance(source, list | tuple) or not all(isinstance(r, str) for r in source):
        raise ValueError("a grid is a list of strings, one per row")
    if len(source) > 4 * MAX_SIDE or sum(map(len, source)) > MAX_GRID_CHARS:
        raise ValueError(f"the grid is too large: at most {MAX_SIDE} rows of {MAX_SIDE}")
    rows = tuple("".join(row.split()) for row in source)
    return tuple(row for row in rows if row)


def _check_shape(rows: tuple[str, ...]) -> None:
    """Raise ``ValueError`` unless the rows make a square of letters and digits."""
    if not rows:
        raise ValueError("the grid is empty")
    n = len(rows)
    if n > MAX_SIDE:
        raise ValueError(f"the grid has {n} rows; at most {MAX_SIDE} (one region per letter)")
    for number, row in enumerate(rows, 1):
        bad = next((c for c in row if c not in LABELS), None)
        if bad is not None:
            named = repr(bad) if bad.isascii() else f"{bad!r} (U+{ord(bad):04X})"  # look-alikes
            raise ValueError(
                f"grid row {number}: {named} is not a region label (use A-Z, a-z or 0-9)"
            )
        if len(row) != len(rows[0]):
            raise ValueError(f"grid row {number} has {len(row)} cells, row 1 has {len(rows[0])}")
    if len(rows[0]) != n:
        raise ValueError(f"the grid has {n} rows of {len(rows[0])} cells; it must be square")


def _check_regions(regions: Regions) -> None:
    """Raise ``ValueError`` unless there are n regions, each in one piece."""
    n, labels = regions.size, regions.labels
    if len(labels) != n:
        shown = "".join(labels[:20]) + ("…" if len(labels) > 20 else "")
        raise ValueError(f"the grid has {len(labels)} regions ({shown}); it needs {n}, one per row")
    for region in range(n):
        pieces = parts(regions.squares(region))
        if pieces > 1:
            raise ValueError(f"region {labels[region]} is not connected: it is in {pieces} parts")


def _check_room(regions: Regions) -> None:
    """``per_line`` pieces must fit in a row, in two neighbouring rows and in each region."""
    check_room(regions.size, regions.per_line)
    for region in range(regions.size):
        if not _fits(regions.squares(region), regions.per_line):
            raise ValueError(
                f"region {regions.labels[region]} has no room for {regions.per_line} "
                "non-touching pieces"
            )


def check_room(n: int, k: int) -> None:
    """Raise ``ValueError`` unless ``k`` non-touching pieces fit in a row of an n×n grid
    and twice as many in two neighbouring rows, leaving some for every file (when two
    rows need all (n + 1) / 2 of their room, on an odd n, only files a, c, e, … get any).
    The message says why, and the smallest grid that has room."""
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise ValueError(f"stars per row must be a positive integer, not {k!r}")
    reason = _no_room(n, k)
    if reason:
        smallest = next(m for m in range(2, 4 * k + 2) if _no_room(m, k) is None)
        raise ValueError(
            f"no {n}×{n} grid can hold {k} per row, file and region without touching "
            f"({reason}); the smallest that can is {smallest}×{smallest}"
        )


def _no_room(n: int, k: int) -> str | None:
    """Why ``k`` non-touching pieces per row and file cannot fit an n×n grid, or ``None``."""
    if 2 * k - 1 > n:
        return f"{k} cannot stand in a row of {n} apart"
    pair_room = (n + 1) // 2
    if n > 1 and 2 * k > pair_room:
        return f"two neighbouring rows of {n} hold at most {pair_room} apart, not {2 * k}"
    if n > 1 and 2 * k == pair_room and n % 2 == 1:
        return (
            f"two neighbouring rows would need all {pair_room} odd-numbered files "
            "(a, c, e, …), leaving none for the others"
        )
    return None


def touching(a: Square, b: Square) -> bool:
    """True for two different squares side by side or corner to corner."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def _fits(squares: list[Square], k: int) -> bool:
    """True when ``k`` squares of the region touch no other (or the search ran out of
    steps: the solvers will then find out)."""
    steps = 0

    def search(start: int, chosen: list[Square]) -> bool:
        nonlocal steps
        if len(chosen) == k:
            return True
        for index in range(start, len(squares)):
            steps += 1
            if steps > FIT_BUDGET:
                return True
            square = squares[index]
            if not any(touching(square, other) for other in chosen):
                chosen.append(square)
                if search(index + 1, chosen):
                    return True
                chosen.pop()
        return False

    return search(0, [])


def parts(squares: list[Square]) -> int:
    """The number of orthogonally connected parts of ``squares``."""
    left = set(squares)
    parts = 0
    while left:
        parts += 1
        stack = [left.pop()]
        while stack:
            f, r = stack.pop()
            for neighbour in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
                if neighbour in left:
                    left.remove(neighbour)
                    stack.append(neighbour)
    return parts


def neighbours(square: Square, n: int) -> Iterator[Square]:
    """The squares orthogonally next to ``square`` on an n×n board."""
    f, r = square
    for g, s in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
        if 0 <= g < n and 0 <= s < n:
            yield g, s
