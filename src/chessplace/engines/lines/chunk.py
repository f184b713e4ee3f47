"""One compiled search of a chunk, as the cores and the Dask workers both run it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chessplace.engines.lines import bounds3, kernel, kernel3
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
) -> tuple[int, int, int, int, int, np.ndarray]:
    """One compiled search below ``prefix`` (see :func:`kernel.search`), for the target
    ``shared[1]``: (status, best, nodes, prefixes written, final target, witness)."""
    if g.colours == bounds3.COLOURS:
        return _call3(g, prefix, split, out, maximize, shared)
    if not g.product:
        table = np.zeros((1, 1, 1, 1), dtype=np.int32)
    elif shared.shape[0] > 2:
        table = pair_table(g.board.rows, g.board.cols, int(shared[2]))
    else:
        table = product_table(g.board.rows, g.board.cols)
    witness = np.zeros(g.lines, dtype=np.int32)
    status, best, nodes, written, target = kernel.search(
        g.start,
        g.length,
        g.members,
        g.through,
        g.family_start,
        g.order,
        g.symmetric,
        g.source,
        g.swap,
        g.product,
        table,
        prefix,
        split,
        out,
        int(shared[1]),
        maximize,
        shared,
        witness,
    )
    return int(status), int(best), int(nodes), int(written), int(target), witness


def _call3(
    g: Geometry,
    prefix: np.ndarray,
    split: int,
    out: np.ndarray,
    maximize: bool,
    shared: np.ndarray,
) -> tuple[int, int, int, int, int, np.ndarray]:
    """:func:`call` for three armies (:func:`kernel3.search`)."""
    if g.product:
        table, rank_index, file_index = bounds3.product_table(g.board.rows, g.board.cols)
    else:
        table = np.zeros((1, 1), dtype=np.int16)
        rank_index = file_index = np.zeros((1, 1, 1), dtype=np.int32)
    witness = np.zeros(g.lines, dtype=np.int32)
    status, best, nodes, written, target = kernel3.search(
        g.start,
        g.length,
        g.members,
        g.through,
        g.family_start,
        g.order,
        g.symmetric,
        g.source,
        g.recolour,
        g.product,
        table,
        rank_index,
        file_index,
        prefix,
        split,
        out,
        int(shared[1]),
        maximize,
        shared,
        witness,
    )
    return int(status), int(best), int(nodes), int(written), int(target), witness
