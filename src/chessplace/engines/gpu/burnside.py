"""Symmetry classes from a plain count, by Burnside's lemma (Burnside 1897).

The classes of the solutions under the 8 symmetries of the square number the
average, over the symmetries, of the solutions each one maps to themselves:
(all + fixed by each of the 7 others) / 8. A solution fixed by a symmetry is a
union of its orbits of squares, so those are counted by a search that places
an orbit at a time (the next empty row's square and its images) on the CPU;
they are few beside all solutions. Conjugate symmetries fix as many
solutions: the quarter turns, the two mirrors, the two diagonal reflections.

The GPU's ``on_host`` weighing (:mod:`chessplace.engines.gpu.variant`) counts
all solutions and leaves the classes to :func:`classes`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

Map = Callable[[int, int, int], tuple[int, int]]
"""A symmetry of the n×n board: ``(n, row, column)`` to the image's row and column."""

SYMMETRIES: dict[str, tuple[Map, int]] = {
    "quarter turn": (lambda n, r, c: (c, n - 1 - r), 2),
    "half turn": (lambda n, r, c: (n - 1 - r, n - 1 - c), 1),
    "mirror": (lambda n, r, c: (r, n - 1 - c), 2),
    "diagonal reflection": (lambda n, r, c: (c, r), 2),
}
"""One symmetry of each conjugacy class but the identity, and how many members its
class has (the 7 symmetries besides the identity)."""


def classes(shape: Shape, solutions: int) -> int:
    """The symmetry classes of the ``solutions`` of ``shape`` (one piece per row)."""
    fixed = sum(members * fixed_by(shape, symmetry) for symmetry, members in SYMMETRIES.values())
    total, rest = divmod(solutions + fixed, 8)
    if rest:
        raise ArithmeticError(f"{solutions} solutions and {fixed} fixed do not make whole classes")
    return total


def fixed_by(shape: Shape, symmetry: Map) -> int:
    """The solutions of ``shape`` that ``symmetry`` maps to themselves."""
    n = shape.n
    reach = _reach(shape)
    images = np.zeros((n * n, 4), dtype=np.int64)
    sizes = np.zeros(n * n, dtype=np.int64)
    rows = np.zeros(n * n, dtype=np.int64)
    for square in range(n * n):
        orbit = [square]
        row, column = symmetry(n, *divmod(square, n))
        while row * n + column != square:
            orbit.append(row * n + column)
            row, column = symmetry(n, row, column)
        peaceful = all(not reach[a, b // n] >> (b % n) & 1 for a in orbit for b in orbit if a != b)
        if peaceful:
            images[square, : len(orbit)] = orbit
            sizes[square] = len(orbit)
            rows[square] = sum(1 << (a // n) for a in orbit)
    return int(_search(n, reach, images, sizes, rows))


def _reach(shape: Shape) -> np.ndarray:
    """Per square, per row, the columns a piece there attacks (the rook's lines, the
    diagonals if it rides them, its leaps either way)."""
    n = shape.n
    steps = [(dx, dy) for dx, dy in shape.leaps] + [(-dx, -dy) for dx, dy in shape.leaps]
    reach = np.zeros((n * n, n), dtype=np.uint32)
    for row in range(n):
        for column in range(n):
            masks = reach[row * n + column]
            masks[row] = ((1 << n) - 1) & ~(1 << column)
            for other in range(n):
                if other == row:
                    continue
                masks[other] |= 1 << column
                if shape.diagonals:
                    for side in (column - (other - row), column + (other - row)):
                        if 0 <= side < n:
                            masks[other] |= 1 << side
            for dx, dy in steps:
                if 0 <= row + dy < n and 0 <= column + dx < n:
                    masks[row + dy] |= 1 << (column + dx)
    return reach


@njit(nogil=True, cache=True)
def _search(n, reach, images, sizes, rows):  # type: ignore[no-untyped-def]
    """Count the unions of orbits (``images[s, :sizes[s]]``, a size 0 where the orbit
    attacks itself; ``rows[s]`` its rows) that fill every row peacefully: the first
    empty row takes each square in turn, with its orbit."""
    every = (1 << n) - 1
    attacked = np.zeros((n + 1, n), dtype=np.uint32)
    filled = np.zeros(n + 1, dtype=np.int64)
    empty_row = np.zeros(n + 1, dtype=np.int64)
    next_column = np.zeros(n + 1, dtype=np.int64)
    found = 0
    depth = 0
    while depth >= 0:
        row = empty_row[depth]
        column = next_column[depth]
        if column == n:
            depth -= 1
            continue
        next_column[depth] = column + 1
        square = row * n + column
        if attacked[depth, row] >> column & 1 or sizes[square] == 0:
            continue
        if rows[square] & filled[depth]:
            continue
        free = True
        for k in range(sizes[square]):
            image = images[square, k]
            if attacked[depth, image // n] >> (image % n) & 1:
                free = False
        if not free:
            continue
        now = filled[depth] | rows[square]
        if now == every:
            found += 1
            continue
        for other in range(n):
            attacked[depth + 1, other] = attacked[depth, other]
            for k in range(sizes[square]):
                attacked[depth + 1, other] |= reach[images[square, k], other]
        depth += 1
        filled[depth] = now
        first_empty = 0
        while now >> first_empty & 1:
            first_empty += 1
        empty_row[depth] = first_empty
        next_column[depth] = 0
    return found
