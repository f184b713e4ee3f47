"""What the compiled search does at a solution: decode it, weigh its class."""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

# Index of an isolated bit by de Bruijn multiplication: (bit * K) >> 58.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % 2**64) >> 58] = _i


@njit(nogil=True, cache=True)
def popcount(word):  # type: ignore[no-untyped-def]
    """How many bits of a 64-bit word are set."""
    word = word - ((word >> uint64(1)) & uint64(0x5555555555555555))
    word = (word & uint64(0x3333333333333333)) + ((word >> uint64(2)) & uint64(0x3333333333333333))
    word = (word + (word >> uint64(4))) & uint64(0x0F0F0F0F0F0F0F0F)
    return (word * uint64(0x0101010101010101)) >> uint64(56)


@njit(nogil=True, cache=True)
def write_columns(bits, columns):  # type: ignore[no-untyped-def]
    """Each row's column, from the row's one-bit mask."""
    for row in range(bits.shape[0]):
        columns[row] = _BIT_INDEX[(bits[row] * _DE_BRUIJN) >> uint64(58)]


@njit(nogil=True, cache=True)
def class_size(bits, scratch):  # type: ignore[no-untyped-def]
    """Size of the solution's symmetry class if it is the class's smallest member, else 0.

    The solution is read as the sequence of its rows' columns; its images
    under the 7 other symmetries of the square are compared with it entry
    by entry until they differ.
    """
    n = bits.shape[0]
    perm = scratch[0]
    inverse = scratch[1]
    write_columns(bits, perm)
    for row in range(n):
        inverse[perm[row]] = row
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
