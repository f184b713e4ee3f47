"""Work that runs where the count runs: a thread, a process or a Dask worker.

Everything here is importable by name and takes plain, picklable values,
so Dask can ship it to other machines.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np

from chessplace.pieces import BISHOP_DIRECTIONS, piece_from_text
from chessplace.rowsearch.kernel import Counter, counter
from chessplace.rowsearch.split import CountSpec, class_pruning, leap_table

_FIRST_BATCH = 1 << 16


@cache
def _kernel(spec: CountSpec, collect: bool) -> tuple[Counter, np.ndarray]:
    piece = piece_from_text(spec.betza)
    leaps = leap_table(piece, spec.n)
    diagonals = piece.ride_directions >= BISHOP_DIRECTIONS
    return counter(diagonals, leaps.shape[0], classes=not collect, collect=collect), leaps


def count_prefix(spec: CountSpec, prefix: tuple[int, ...]) -> tuple[int, int]:
    """(solutions, symmetry classes) whose smallest member completes ``prefix``."""
    kernel, leaps = _kernel(spec, False)
    nothing = np.zeros((0, spec.n), dtype=np.int64)
    pruning = class_pruning(spec.n, prefix)
    return kernel(spec.n, leaps, np.array(prefix, dtype=np.int64), pruning, nothing)


def solutions_of(spec: CountSpec, prefix: tuple[int, ...]) -> Iterator[np.ndarray]:
    """Column arrays of every solution completing ``prefix``, in batches of bounded size.

    When a batch would overflow, the prefix is split one row deeper, so
    memory stays flat however many solutions there are.
    """
    kernel, leaps = _kernel(spec, True)
    out = np.zeros((_FIRST_BATCH, spec.n), dtype=np.int64)
    unpruned = np.zeros(spec.n, dtype=np.uint64)
    found, _ = kernel(spec.n, leaps, np.array(prefix, dtype=np.int64), unpruned, out)
    if found >= 0:
        yield from out[:found]
        return
    for column in range(spec.n):
        if column not in prefix:
            yield from solutions_of(spec, (*prefix, column))
