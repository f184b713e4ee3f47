"""Splitting a row-by-row search into weighted, independent subproblems."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chessplace.pieces import Piece


@dataclass(frozen=True)
class Subproblem:
    """Complete the first rows' columns ``prefix``; each solution counts ``weight`` times.

    The weight is 2 when the mirror image (files reversed) is never searched
    itself, which halves the work.
    """

    prefix: tuple[int, ...]
    weight: int

    @property
    def key(self) -> str:
        """A stable name, for checkpoints."""
        return "-".join(map(str, self.prefix))


def subproblems(n: int, rows: int = 2) -> list[Subproblem]:
    """Prefixes of ``rows`` rows whose first column lies in the left half (or middle).

    Prefixes are not checked for attacks here: the kernel rejects invalid
    ones at once, and checking needs the piece.
    """
    rows = min(rows, n)
    found = []
    for first in range((n + 1) // 2):
        weight = 2 if first < n // 2 else 1
        prefixes: list[tuple[int, ...]] = [(first,)]
        for _ in range(rows - 1):
            prefixes = [(*p, c) for p in prefixes for c in range(n) if c not in p]
        found += [Subproblem(p, weight) for p in prefixes]
    return found


def leap_table(piece: Piece, n: int) -> np.ndarray:
    """``table[k, c]``: columns that a piece in column c attacks k+1 rows ahead,
    beyond its rook and bishop lines."""
    vectors = {(dx, dy) for dx, dy in piece.bounded_vectors if dy > 0 and dx != 0}
    if piece.ride_directions >= {(1, 1), (-1, 1)}:
        vectors = {(dx, dy) for dx, dy in vectors if abs(dx) != dy}
    depth = max((dy for _, dy in vectors), default=0)
    table = np.zeros((depth, n), dtype=np.uint64)
    for column in range(n):
        for dx, dy in vectors:
            if 0 <= column + dx < n and dy <= n:
                table[dy - 1, column] |= np.uint64(1 << (column + dx))
    return table
