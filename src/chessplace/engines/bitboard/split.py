"""Splitting a row-by-row search into weighted, independent subproblems."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CountSpec:
    """What is counted: n pieces written ``betza``, one per row of n×n.

    ``forbid`` (a position's blocked squares and given pieces, as a mask per row of
    the columns it may not use) makes the count plain: every solution once, without
    symmetry, over subproblems that start in every column (:func:`plain_subproblems`).
    """

    n: int
    betza: str
    forbid: tuple[int, ...] = ()

    @property
    def plain(self) -> bool:
        return bool(self.forbid)

    def forbidden(self) -> np.ndarray:
        """``forbid`` as the kernel takes it (zeros when there is no position)."""
        return np.array(self.forbid or [0] * self.n, dtype=np.uint64)


@dataclass(frozen=True)
class Subproblem:
    """Complete the first rows' columns ``prefix``; each solution counts ``weight`` times.

    For listing, the weight is 2 when the mirror image (files reversed) is
    never searched itself. For counting by classes it is 1: the kernel
    weighs each class by its size.
    """

    prefix: tuple[int, ...]
    weight: int = 1

    @property
    def key(self) -> str:
        """A stable name, for checkpoints."""
        return "-".join(map(str, self.prefix))


def _extend(prefixes: list[tuple[int, ...]], n: int, rows: int) -> list[tuple[int, ...]]:
    for _ in range(rows - 1):
        prefixes = [(*p, c) for p in prefixes for c in range(n) if c not in p]
    return prefixes


def mirror_subproblems(n: int, rows: int = 2) -> list[Subproblem]:
    """Prefixes whose first column lies in the left half (weight 2) or middle (weight 1).

    Prefixes are not checked for attacks here: the kernel rejects invalid
    ones at once, and checking needs the piece.
    """
    found = []
    for first in range((n + 1) // 2):
        weight = 2 if first < n // 2 else 1
        found += [Subproblem(p, weight) for p in _extend([(first,)], n, min(rows, n))]
    return found


def class_subproblems(n: int) -> list[Subproblem]:
    """Prefixes that can start the smallest member of a symmetry class.

    The smallest member (rows read as a sequence of columns) has its first
    queen no further from a corner than any queen on the board's edge, so
    its first column is at most (n-1)/2. Prefixes fix two rows (where the
    board has them): the corner rule of :func:`class_pruning` needs the second.
    """
    firsts: list[tuple[int, ...]] = [(first,) for first in range((n - 1) // 2 + 1)]
    return [Subproblem(p) for p in _extend(firsts, n, min(2, n))]


def plain_subproblems(spec: CountSpec) -> list[Subproblem]:
    """Prefixes of the first two rows (where the board has them) in every pair of
    columns that the position allows, for a count without symmetry."""
    n = spec.n
    forbid = spec.forbid or (0,) * n
    firsts = [(c,) for c in range(n) if not forbid[0] >> c & 1]
    if n < 2:
        return [Subproblem(p) for p in firsts]
    return [
        Subproblem((*p, c))
        for p in firsts
        for c in range(n)
        if c != p[0] and not forbid[1] >> c & 1
    ]


def class_pruning(n: int, prefix: tuple[int, ...]) -> np.ndarray:
    """Columns each row may not use if the solution is to be its class's smallest member.

    With the first queen on column b: the queens on the side files lie in
    ranks b..n-1-b and the last row's queen in files b..n-1-b (else a
    symmetric image would start with a smaller column). With a corner queen
    (b = 0), the queen on file 1 lies no higher than row prefix[1] (else the
    transposed image is smaller).
    """
    forbid = np.zeros(n, dtype=np.uint64)
    first = prefix[0]
    sides = np.uint64((1 << 0) | (1 << (n - 1)))
    for row in range(1, n):
        if row < first or row > n - 1 - first:
            forbid[row] |= sides
    for column in range(n):
        if column < first or column > n - 1 - first:
            forbid[n - 1] |= np.uint64(1 << column)
    if first == 0 and len(prefix) > 1 and n > 1:
        for row in range(2, prefix[1]):
            forbid[row] |= np.uint64(1 << 1)
    return forbid
