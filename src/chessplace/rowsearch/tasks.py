"""Work that runs where the count runs: a thread, a process or a Dask worker.

Everything here is importable by name and takes plain, picklable values,
so Dask can ship it to other machines.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from chessplace.pieces import piece_from_text
from chessplace.rowsearch.kernel import Search, compiled, shape_of
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


def count_prefix(spec: CountSpec, prefix: tuple[int, ...]) -> tuple[int, int]:
    """(solutions, symmetry classes) whose smallest member completes ``prefix``."""
    forbid = _forcing(spec.n, prefix) | class_pruning(spec.n, prefix)
    nothing = np.zeros((0, spec.n), dtype=np.int64)
    return _search(spec, False)(forbid, prefix[0], nothing)


def solutions_of(spec: CountSpec, prefix: tuple[int, ...]) -> Iterator[np.ndarray]:
    """Column arrays of every solution completing ``prefix``, in batches of bounded size.

    When a batch would overflow, the prefix is split one row deeper, so
    memory stays flat however many solutions there are.
    """
    out = np.zeros((_FIRST_BATCH, spec.n), dtype=np.int64)
    found, _ = _search(spec, True)(_forcing(spec.n, prefix), prefix[0], out)
    if found >= 0:
        yield from out[:found]
        return
    for column in range(spec.n):
        if column not in prefix:
            yield from solutions_of(spec, (*prefix, column))
