"""The compiled search of one queen per segment: rows, files and diagonals cut by pawns.

With pawns on the board a line holds one queen per *segment*, the run of squares
between two pawns (or a pawn and the edge). n+k queens and k pawns fill every row
segment and every file segment exactly once (the board has n+k of each at most, and
only when no pawn stands on the edge or beside another on its row or file), so the
search places one queen per row segment, row by row, left to right, as the plain
N-Queens search places one per row.

The state is the plain search's: files taken and the two diagonal masks of the row
under consideration. Entering a row, the bits of its pawns' files are cleared from
all three (a pawn stops every ride through it), and the search gives up on the
branch unless each such file already holds a queen above the pawn (that file
segment ends here, and must have its queen). Two queens of one row, on either side
of a pawn, never share a file or a diagonal of that row, so the masks need no
change within a row. Blocked squares are left out of the segments (rides pass over
them); a given queen is its segment's only square.

A search returns ``(found, fixed)``: the placements it found and, for each symmetry
``syms`` lists (those of the board that keep the pawns, blocked squares and given
queens, the identity left out), how many of them that symmetry maps onto
themselves; with Burnside's lemma these give the classes (see
:mod:`chessplace.engines.bitboard.pawns`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

STOPPED = -2
"""What a search returns as its count when its stop flag was set."""

_STOP_EVERY = 1 << 16
"""Placements of a queen between two reads of the stop flag."""


@njit(nogil=True, cache=True)
def _popcount(word):  # type: ignore[no-untyped-def]
    word = word - ((word >> uint64(1)) & uint64(0x5555555555555555))
    word = (word & uint64(0x3333333333333333)) + ((word >> uint64(2)) & uint64(0x3333333333333333))
    word = (word + (word >> uint64(4))) & uint64(0x0F0F0F0F0F0F0F0F)
    return (word * uint64(0x0101010101010101)) >> uint64(56)


@njit(nogil=True, cache=True)
def image(transform, x, y, last):  # type: ignore[no-untyped-def]
    """Square (x, y)'s image under symmetry ``transform`` of a board whose last file
    and rank are ``last``, numbered as :meth:`chessplace.core.board.Board.symmetries`
    lists a square board's."""
    if transform == 0:
        return x, y
    if transform == 1:
        return last - x, last - y
    if transform == 2:
        return last - x, y
    if transform == 3:
        return x, last - y
    if transform == 4:
        return y, x
    if transform == 5:
        return last - y, last - x
    if transform == 6:
        return y, last - x
    return last - y, x


# Index of an isolated bit by de Bruijn multiplication: (bit * K) >> 58.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % 2**64) >> 58] = _i


@njit(nogil=True, cache=True)
def _fixed_by(transform, bits, rows, starts, n):  # type: ignore[no-untyped-def]
    """True when the queens (``bits[s]`` on row ``rows[s]``; row y's segments are
    ``starts[y]`` to ``starts[y + 1]``) are their own image; most placements fail at
    their first queen."""
    for s in range(bits.shape[0]):
        x = _BIT_INDEX[(bits[s] * _DE_BRUIJN) >> uint64(58)]
        ix, iy = image(transform, x, rows[s], n - 1)
        target = uint64(1) << uint64(ix)
        hit = False
        for t in range(starts[iy], starts[iy + 1]):
            if bits[t] == target:
                hit = True
                break
        if not hit:
            return False
    return True


@njit(nogil=True, cache=True)
def search(n, diagonals, segs, rows, ends, pawns, need, syms, stop):  # type: ignore[no-untyped-def]
    """``(found, fixed)`` for one queen in each segment ``segs[s]`` (a mask of the
    files of row ``rows[s]`` it may take, rows in order; ``ends[s]`` marks a row's
    last segment); ``pawns[y]`` are the pawns of row y, and ``need[y]`` those of them
    whose file segment above must already hold its queen. ``fixed[i]`` counts the
    placements that symmetry ``syms[i]`` fixes. ``found`` is :data:`STOPPED` when
    ``stop[0]`` was set."""
    m = segs.shape[0]
    fixed = np.zeros(syms.shape[0], dtype=np.int64)
    if m == 0:
        return 1, fixed + 1
    full = uint64((1 << n) - 1) if n < 64 else ~uint64(0)
    one = uint64(1)
    zero = uint64(0)
    files = np.zeros(m, dtype=np.uint64)
    left = np.zeros(m, dtype=np.uint64)
    right = np.zeros(m, dtype=np.uint64)
    free = np.zeros(m, dtype=np.uint64)
    bits = np.zeros(m, dtype=np.uint64)
    starts = np.zeros(n + 1, dtype=np.int64)  # row y's segments: starts[y] to starts[y + 1]
    for s in range(m):
        starts[rows[s] + 1] += 1
    for y in range(n):
        starts[y + 1] += starts[y]
    symmetric = syms.shape[0] > 0
    found = 0
    for y in range(rows[0] + 1):  # rows without a segment above the first hold pawns only
        if need[y]:
            return 0, fixed
    free[0] = segs[0]
    steps = 0
    d = 0
    while d >= 0:
        if d == m - 1 and not symmetric:
            found += _popcount(free[d])
            d -= 1
            continue
        word = free[d]
        if word == zero:
            d -= 1
            continue
        steps += 1
        if steps == _STOP_EVERY:
            steps = 0
            if stop[0]:
                return STOPPED, fixed
        bit = word & (zero - word)
        free[d] = word ^ bit
        bits[d] = bit
        if d == m - 1:
            found += 1
            for i in range(syms.shape[0]):
                if _fixed_by(syms[i], bits, rows, starts, n):
                    fixed[i] += 1
            continue
        taken = files[d] | bit
        up = left[d] | bit
        down = right[d] | bit
        if ends[d]:
            # The next rows: shift the diagonals, stop the rides at their pawns.
            dead = False
            for y in range(rows[d] + 1, rows[d + 1] + 1):
                if need[y] & ~taken:
                    dead = True  # a file segment above a pawn is left empty
                    break
                cut = pawns[y]
                taken &= ~cut
                if diagonals:
                    up = ((up << one) & full) & ~cut
                    down = (down >> one) & ~cut
                else:
                    up = zero
                    down = zero
            if dead:
                continue
        d += 1
        files[d] = taken
        left[d] = up
        right[d] = down
        free[d] = segs[d] & ~(taken | up | down)
    return found, fixed
