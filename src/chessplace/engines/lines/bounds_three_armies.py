"""Upper bounds on the smallest of three armies below a node of the line search.

Each line carries one of three colours; a square is still possible in colour
``c`` when no labelled line through it has another colour, and ``count[c, l]``
counts those squares on line ``l``. As with two colours (:mod:`bounds`),
labelling more lines only kills squares, so each bound holds for the subtree.

- Family bound: for any two colours a and b, min(X_a, X_b) is at most the
  two-colour fractional bound of :mod:`bounds` over one family
  (a line of the third colour gives neither, so it never helps); and
  X_0 + X_1 + X_2 is at most the sum over the family's lines of their largest
  count, so the smallest is at most a third of it.
- Product bound: squares of colour c lie in c-ranks × c-files, so with the
  ranks and files partly labelled the smallest army is at most the largest
  min_c R_c·F_c over the ways to colour the open ones; tabulated once per
  board by index of the labelled counts (:func:`product_table`).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from chessplace.engines.lines.bounds import family_reaches
from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

COLOURS = 3
PAIRS = COLOURS * (COLOURS - 1) // 2
"""Pairs of colours: each keeps its own weights in :func:`family_reaches3`."""


@njit(nogil=True, cache=True)
def family_reaches3(first, last, count, target, weights, ps, qs):  # type: ignore[no-untyped-def]
    """Whether the third-of-the-total bound and every pair bound on the smallest of
    three armies from lines ``first .. last - 1`` of one family reach ``target``
    (``weights[pair]``: each pair's last crossing ratio, see
    :func:`bounds.family_reaches`)."""
    total = 0
    for line in range(first, last):
        total += max(count[0, line], count[1, line], count[2, line])
    if total // COLOURS < target:
        return False
    pair = 0
    for a in range(COLOURS - 1):
        for b in range(a + 1, COLOURS):
            if not family_reaches(first, last, count[a], count[b], target, weights[pair], ps, qs):
                return False
            pair += 1
    return True


def simplex_index(total: int) -> tuple[np.ndarray, np.ndarray]:
    """Every count vector (a, b, c) with a + b + c <= ``total``, as rows of an array,
    and ``index[a, b, c]`` its row (-1 past the total)."""
    vectors = [
        (a, b, c)
        for a in range(total + 1)
        for b in range(total + 1 - a)
        for c in range(total + 1 - a - b)
    ]
    index = np.full((total + 1,) * COLOURS, -1, dtype=np.int32)
    for row, vector in enumerate(vectors):
        index[vector] = row
    return np.array(vectors, dtype=np.int32), index


def _closure(vectors: np.ndarray, index: np.ndarray, total: int) -> list[tuple[int, np.ndarray]]:
    """The incomplete vectors (sum below ``total``), largest sum first, each with the
    rows of the three vectors one more in one colour."""
    sums = vectors.sum(axis=1)
    units = np.eye(COLOURS, dtype=np.int32)
    steps = []
    for row in np.argsort(-sums, kind="stable"):
        if sums[row] < total:
            up = [index[tuple(vectors[row] + unit)] for unit in units]
            steps.append((int(row), np.array(up)))
    return steps


@cache
def product_table(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(table, rank_index, file_index)``: ``table[rank_index[r], file_index[f]]`` is the
    product bound with ``r[c]`` ranks and ``f[c]`` files labelled colour ``c``."""
    rank_vectors, rank_index = simplex_index(rows)
    file_vectors, file_index = simplex_index(cols)
    table = np.outer(rank_vectors[:, 0], file_vectors[:, 0])
    for c in range(1, COLOURS):  # one colour at a time: no rows × files × colours array
        np.minimum(table, np.outer(rank_vectors[:, c], file_vectors[:, c]), out=table)
    complete_ranks = rank_vectors.sum(axis=1) == rows
    for row, up in _closure(file_vectors, file_index, cols):  # every way to finish the files
        table[complete_ranks, row] = table[np.ix_(complete_ranks, up)].max(axis=1)
    for row, up in _closure(rank_vectors, rank_index, rows):  # then the ranks
        table[row, :] = table[up, :].max(axis=0)
    return table.astype(np.int16), rank_index, file_index
