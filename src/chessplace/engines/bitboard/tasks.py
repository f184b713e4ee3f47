"""Work that runs where the count runs: a thread, a process or a Dask worker.

Everything here is importable by name and takes plain, picklable values,
so Dask can ship it to other machines.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from chessplace.core.pieces import piece_from_text
from chessplace.engines.bitboard.codegen import STOPPED
from chessplace.engines.bitboard.interpreted import interpreted
from chessplace.engines.bitboard.kernel import Search, compiled, shape_of, stop_flag
from chessplace.engines.bitboard.split import CountSpec, class_pruning

_BATCH = 1 << 12
"""Solutions a listing search hands out at a time."""


def _search(spec: CountSpec, collect: bool, interpret: bool) -> Search:
    """The compiled search for ``spec``, or with ``interpret`` the same search in plain
    Python (:mod:`chessplace.engines.bitboard.interpreted`)."""
    shape = shape_of(piece_from_text(spec.betza), spec.n, collect, spec.plain)
    return interpreted(shape) if interpret else compiled(shape)


def _forcing(n: int, prefix: tuple[int, ...]) -> np.ndarray:
    """Per-row masks that leave each prefix row only its own column."""
    forbid = np.zeros(n, dtype=np.uint64)
    full = (1 << n) - 1
    for row, column in enumerate(prefix):
        forbid[row] = np.uint64(full & ~(1 << column))
    return forbid


def count_prefix(
    spec: CountSpec,
    prefix: tuple[int, ...],
    stop: np.ndarray | None = None,
    interpret: bool = False,
) -> tuple[int, int] | None:
    """(solutions, symmetry classes) whose smallest member completes ``prefix``,
    or ``None`` when ``stop`` (a :func:`~chessplace.engines.bitboard.kernel.stop_flag`
    shared with the caller's thread) was set before the search finished; ``interpret``:
    by the search in plain Python."""
    rules = spec.forbidden() if spec.plain else class_pruning(spec.n, prefix)
    forbid = _forcing(spec.n, prefix) | rules
    nothing = np.zeros((0, spec.n), dtype=np.int64)
    found, classes = _search(spec, False, interpret)(
        forbid, prefix[0], nothing, stop_flag() if stop is None else stop
    )
    return None if found == STOPPED else (found, classes)


def solutions_of(
    spec: CountSpec, prefix: tuple[int, ...], stop: np.ndarray, interpret: bool = False
) -> Iterator[np.ndarray]:
    """Column arrays of every solution completing ``prefix``, in order (rows read as
    a sequence of columns), a batch of bounded size at a time.

    A full batch is handed out and the search goes on after its last
    solution, so memory stays flat, no solution waits for more than a
    batch and none is searched twice. Once ``stop`` is set the solutions
    end, without those of the batch under way. ``interpret``: by the search in plain
    Python.
    """
    search = _search(spec, True, interpret)
    out = np.zeros((_BATCH, spec.n), dtype=np.int64)
    pending = [_forcing(spec.n, prefix)]  # masks still to search, the next one last
    while pending and not stop[0]:
        forbid = pending.pop()
        found, _ = search(forbid, prefix[0], out, stop)
        if found == STOPPED:
            return
        yield from out[: found if found >= 0 else _BATCH]
        if found < 0:  # the batch filled up
            pending += _after(forbid, out[-1])


def _after(forbid: np.ndarray, columns: np.ndarray) -> list[np.ndarray]:
    """Masks that, together, allow exactly the solutions ``forbid`` allows after
    ``columns``: one per row where such a solution first takes a larger column,
    the last row's last (searched first)."""
    n = len(columns)
    full = (1 << n) - 1
    forced = _forcing(n, tuple(int(c) for c in columns))
    tails = []
    for row in range(n):
        up_to = np.uint64((2 << int(columns[row])) - 1)  # this row's columns up to its own
        if forbid[row] | up_to == full:
            continue  # no larger column is left in this row
        tail = forbid.copy()
        tail[:row] |= forced[:row]
        tail[row] |= up_to
        tails.append(tail)
    return tails
