"""The compiled row-by-row bitboard search (Numba, ``nogil``).

One piece per row of an n×n board, for any piece that rides like a rook:
columns are one mask, diagonals two shifted masks when the piece also rides
like a bishop, and any further leaps (the knight's for an amazon) are
carried as masks of the columns they forbid in the next rows. One source
serves every such piece: :func:`counter` compiles it once per shape
(diagonals or not, how many rows leaps reach, classes or not), so the queen
kernel carries no leap code at all.

A search starts from a prefix (the columns of the first rows), so the work
splits into independent subproblems.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
from numba import njit, uint64

MAX_N = 32
"""Largest board side: masks are 64-bit and diagonals shift past the edge."""

# Index of an isolated bit by de Bruijn multiplication: (bit * K) >> 58.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % 2**64) >> 58] = _i

Counter = Callable[[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[int, int]]


@njit(nogil=True, cache=True)
def _class_size(perm, inverse, n):  # type: ignore[no-untyped-def]
    """Size of the symmetry class of ``perm`` if it is the class's smallest member, else 0.

    Images under the 7 other symmetries of the square are compared
    lexicographically, entry by entry, until they differ.
    """
    last = n - 1
    fixed = 1
    for transform in range(1, 8):
        same = True
        for i in range(n):
            if transform == 1:
                other = last - perm[i]
            elif transform == 2:
                other = perm[last - i]
            elif transform == 3:
                other = last - perm[last - i]
            elif transform == 4:
                other = inverse[i]
            elif transform == 5:
                other = last - inverse[last - i]
            elif transform == 6:
                other = last - inverse[i]
            else:
                other = inverse[last - i]
            if other != perm[i]:
                if other < perm[i]:
                    return 0
                same = False
                break
        if same:
            fixed += 1
    return 8 // fixed


@cache
def counter(diagonals: bool, depth: int, classes: bool, collect: bool = False) -> Counter:
    """The kernel for one shape of piece and question.

    The kernel is ``count(n, leaps, prefix, forbid, out) -> (solutions, classes)``:
    ``leaps[k, c]`` is the mask of columns a piece in column c forbids k+1
    rows further down (beyond its rook and bishop lines); ``prefix`` holds
    the columns of the first rows; ``forbid[r]`` masks columns row r may not
    use (the caller's pruning); a column forbidden in every later row must be
    taken by the time a row is left. An invalid prefix counts zero.

    With ``classes`` only the smallest member of each symmetry class counts,
    weighted by its class size, so ``solutions`` is still the full total and
    ``classes`` the number of classes; the caller's ``forbid`` may then prune
    anything that cannot be a smallest member. Without it every completion
    counts once. With ``collect`` each solution's columns go to a row of
    ``out``; when ``out`` is full the kernel returns ``(-1, 0)`` so the
    caller can split the prefix further.
    """
    track_columns = classes or depth > 0 or collect

    @njit(nogil=True)
    def count(n, leaps, prefix, forbid, out):  # type: ignore[no-untyped-def]
        full = uint64((1 << n) - 1)
        one = uint64(1)
        cols = np.zeros(n + 1, dtype=np.uint64)
        left = np.zeros(n + 1, dtype=np.uint64)
        right = np.zeros(n + 1, dtype=np.uint64)
        ahead = np.zeros((n + 1, depth + 1), dtype=np.uint64)
        free = np.zeros(n + 1, dtype=np.uint64)
        perm = np.zeros(n, dtype=np.int64)
        inverse = np.zeros(n, dtype=np.int64)
        # A column forbidden in every later row must be taken by this one.
        required = np.zeros(n, dtype=np.uint64)
        later = full
        for row in range(n - 2, -1, -1):
            later &= forbid[row + 1]
            required[row] = later
        start = prefix.shape[0]
        for row in range(start):
            column = prefix[row]
            bit = one << uint64(column)
            if bit & (cols[row] | left[row] | right[row] | ahead[row, 0] | forbid[row]):
                return 0, 0
            perm[row] = column
            cols[row + 1] = cols[row] | bit
            if cols[row + 1] & required[row] != required[row]:
                return 0, 0
            if diagonals:
                left[row + 1] = (left[row] | bit) << one
                right[row + 1] = (right[row] | bit) >> one
            for k in range(depth):
                ahead[row + 1, k] = ahead[row, k + 1] | leaps[k, column]
        if start == n:
            if collect:
                if out.shape[0] == 0:
                    return -1, 0
                out[0, :] = perm
            if classes:
                for r in range(n):
                    inverse[perm[r]] = r
                size = _class_size(perm, inverse, n)
                return size, 1 if size else 0
            return 1, 0
        total = 0
        canonical = 0
        free[start] = full & ~(
            cols[start] | left[start] | right[start] | ahead[start, 0] | forbid[start]
        )
        row = start
        while row >= start:
            options = free[row]
            if options == uint64(0):
                row -= 1
                continue
            bit = options & (~options + one)
            free[row] = options ^ bit
            column = 0
            if track_columns:
                column = _BIT_INDEX[(bit * _DE_BRUIJN) >> uint64(58)]
                perm[row] = column
            if row == n - 1:
                if collect:
                    if total == out.shape[0]:
                        return -1, 0
                    out[total, :] = perm
                if classes:
                    for r in range(n):
                        inverse[perm[r]] = r
                    size = _class_size(perm, inverse, n)
                    if size:
                        total += size
                        canonical += 1
                else:
                    total += 1
                continue
            taken = cols[row] | bit
            if taken & required[row] != required[row]:
                continue
            cols[row + 1] = taken
            if diagonals:
                left[row + 1] = (left[row] | bit) << one
                right[row + 1] = (right[row] | bit) >> one
            for k in range(depth):
                ahead[row + 1, k] = ahead[row, k + 1] | leaps[k, column]
            row += 1
            blocked = cols[row] | left[row] | right[row] | forbid[row]
            if depth > 0:
                blocked |= ahead[row, 0]
            free[row] = full & ~blocked
        return total, canonical

    return count
