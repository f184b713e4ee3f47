"""Work that runs where the count runs: a thread, a process or a Dask worker.

Everything here is importable by name and takes plain, picklable values,
so Dask can ship it to other machines.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from chessplace.pieces import piece_from_text
from chessplace.rowsearch.codegen import STOPPED
from chessplace.rowsearch.kernel import Search, compiled, shape_of, stop_flag
from chessplace.rowsearch.split import CountSpec, class_pruning

_FIRST_BATCH = 1 << 16


def _search(spec: CountSpec, collect: bool) -> Search:
    return compiled(shape_of(piece_from_text(spec.betza), spec.n, collect))


def _forcing(n: int, prefix: tuple[int, ...]) -> np.ndarray:
    """Per-row masks that leave each prefix row only its own column."""
    forbid = np.zeros(n, dtype=np.uint64)
    full = (1 << n) - 1
    for row, column in enumerate(prefix):
        forbid[row] = np.uint64(full & ~(1 << column))
    return forbid


def count_prefix(
    spec: CountSpec, prefix: tuple[int, ...], stop: np.ndarray | None = None
) -> tuple[int, int] | None:
    """(solutions, symmetry classes) whose smallest member completes ``prefix``,
    or ``None`` when ``stop`` (a :func:`~chessplace.rowsearch.kernel.stop_flag`
    shared with the caller's thread) was set before the search finished."""
    forbid = _forcing(spec.n, prefix) | class_pruning(spec.n, prefix)
    nothing = np.zeros((0, spec.n), dtype=np.int64)
    found, classes = _search(spec, False)(
        forbid, prefix[0], nothing, stop_flag() if stop is None else stop
    )
    return None if found == STOPPED else (found, classes)


def solutions_of(
    spec: CountSpec, prefix: tuple[int, ...], stop: np.ndarray
) -> Iterator[np.ndarray]:
    """Column arrays of every solution completing ``prefix``, in batches of bounded size;
    they end early, with no solution of the interrupted batch, once ``stop`` is set.

    When a batch would overflow, the prefix is split one row deeper, so
    memory stays flat however many solutions there are.
    """
    out = np.zeros((_FIRST_BATCH, spec.n), dtype=np.int64)
    found, _ = _search(spec, True)(_forcing(spec.n, prefix), prefix[0], out, stop)
    if found >= 0:
        yield from out[:found]
        return
    for column in range(spec.n):
        if stop[0]:  # also when the search above came back STOPPED
            return
        if column not in prefix:
            yield from solutions_of(spec, (*prefix, column), stop)
