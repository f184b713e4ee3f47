"""One compiled search of a chunk, as the cores and the Dask workers both run it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chessplace.engines.lines import bounds_three_armies, kernel, kernel_three_armies
from chessplace.engines.lines.bounds import pair_table, product_table
from chessplace.engines.lines.geometry import Geometry

Finished = Callable[[int, int, int, int, int, np.ndarray], bool]
"""Takes a searched chunk (queue position, status, best, nodes, bound, witness);
true when no more chunks should be taken."""


def call(
    g: Geometry,
    prefix: np.ndarray,
    split: int,
    out: np.ndarray,
    maximize: bool,
    shared: np.ndarray,
    static: int = 0,
    tally: np.ndarray | None = None,
) -> tuple[int, int, int, int, int, np.ndarray]:
    """One compiled search below ``prefix`` (see :func:`kernel.search`, or
    :func:`kernel_three_armies.search` for three armies), for the target ``shared[1]``:
    (status, best, nodes, prefixes written, final target, witness). Two colours
    follow ``g.order`` at least down to depth ``static`` (``g.lines``: all the way);
    ``tally``, when given (two colours: ``g.lines + 1`` rows, families + 3 columns),
    receives where the search spends its nodes (see :func:`kernel.search`)."""
    witness = np.zeros(g.lines, dtype=np.int32)
    lines = (g.start, g.length, g.members, g.through, g.family_start, g.order, g.symmetric)
    below = (prefix, split, out, int(shared[1]), maximize, shared, witness)
    if g.colours == bounds_three_armies.COLOURS:
        symmetries = (g.source, g.recolour, g.product, *_three_tables(g), g.bounded_from)
        answer = kernel_three_armies.search(*lines, *symmetries, *below)
    else:
        table = _table(g, shared)
        bounds = (g.product, table, g.bounded_from)
        where = np.zeros((1, 1), dtype=np.int64) if tally is None else tally
        answer = kernel.search(*lines, static, g.source, g.swap, *bounds, *below, where)
    status, best, nodes, written, target = answer
    return int(status), int(best), int(nodes), int(written), int(target), witness


def _table(g: Geometry, shared: np.ndarray) -> np.ndarray:
    """The two-colour product table: on min(white, black), or on black beside the
    white target ``shared[2]`` when there is one."""
    if not g.product:
        return np.zeros((1, 1, 1, 1), dtype=np.int32)
    if shared.shape[0] > 2:
        return pair_table(g.board.rows, g.board.cols, int(shared[2]))
    return product_table(g.board.rows, g.board.cols)


def _three_tables(g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three-colour product table and its rank and file indices."""
    if not g.product:
        none = np.zeros((1, 1, 1), dtype=np.int32)
        return np.zeros((1, 1), dtype=np.int16), none, none
    return bounds_three_armies.product_table(g.board.rows, g.board.cols)
