"""Upper bounds on min(white, black) below a node of the line search (Numba).

At a node some lines carry a colour. A square is still possible-white when
no labelled line through it is black (possible-black alike); ``white[l]``
and ``black[l]`` count those squares on line ``l``. Labelling more lines
only kills squares, so every bound below holds for the whole subtree.

- Family bound: each square lies on one line of a family, and an unlabelled
  line ends up white (giving at most its possible-white squares) or black
  (at most its possible-black ones), never both. The largest
  min(ΣW, ΣB) with each unlabelled line split fractionally is the
  fractional knapsack: lines sorted by white/black ratio, whites taken
  greedily until the two sums cross. It is exact for the relaxation.
- Product bound: white squares lie in white ranks × white files, black in
  black × black, so with ranks and files partly labelled
  min(W, B) <= max over splits of the open ones of min(ab, a'b'); tabulated
  once per board.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit


@njit(nogil=True, cache=True)
def _split_family(first, last, label, white, black, ps, qs):  # type: ignore[no-untyped-def]
    """The possible white and black squares of lines ``first .. last - 1`` that are
    settled (labelled, or with one colour only), and the open lines' counts copied
    to ``ps``/``qs``: (w, b, open lines, their white, their black)."""
    w = 0
    b = 0
    k = 0
    open_w = 0
    open_b = 0
    for line in range(first, last):
        p = white[line]
        q = black[line]
        if label[line] >= 0 or q == 0:
            w += p
            b += q
        elif p == 0:
            b += q
        else:
            ps[k] = p
            qs[k] = q
            k += 1
            open_w += p
            open_b += q
    return w, b, k, open_w, open_b


@njit(nogil=True, cache=True)
def _by_ratio(ps, qs, k):  # type: ignore[no-untyped-def]
    """Sort the first ``k`` open lines, best white/black ratio first (insertion sort:
    a family has a few dozen lines)."""
    for i in range(1, k):
        p = ps[i]
        q = qs[i]
        j = i - 1
        while j >= 0 and ps[j] * q < p * qs[j]:
            ps[j + 1] = ps[j]
            qs[j + 1] = qs[j]
            j -= 1
        ps[j + 1] = p
        qs[j + 1] = q


@njit(nogil=True, cache=True)
def family_bound(first, last, label, white, black, target, ps, qs):  # type: ignore[no-untyped-def]
    """The fractional bound on min(W, B) from the lines ``first .. last - 1`` of one
    family; ``ps`` and ``qs`` are scratch. Returns early with a weaker value once
    it is below ``target``."""
    w, b, k, open_w, open_b = _split_family(first, last, label, white, black, ps, qs)
    quick = min(w + open_w, b + open_b)
    if quick < target or k == 0:
        return quick
    _by_ratio(ps, qs, k)
    b += open_b
    if w >= b:
        return b
    for i in range(k):
        p = ps[i]
        q = qs[i]
        if w + p >= b - q:  # the sums cross inside this line
            return (w * (p + q) + p * (b - w)) // (p + q)
        w += p
        b -= q
    return min(w, b)


@njit(nogil=True, cache=True)
def family_pair_bound(first, last, label, white, black, white_target, ps, qs):  # type: ignore[no-untyped-def]
    """The fractional bound on B given W >= ``white_target`` from the lines ``first ..
    last - 1`` of one family (unequal armies): -1 when W cannot reach it. Open lines
    start black; the best white/black ratios turn white until W reaches the target."""
    w, b, k, _, open_b = _split_family(first, last, label, white, black, ps, qs)
    b += open_b
    if w >= white_target:
        return b
    _by_ratio(ps, qs, k)
    for i in range(k):
        p = ps[i]
        q = qs[i]
        if w + p >= white_target:  # this line turns white in part: lose q·(missing/p)
            missing = white_target - w
            return b - (q * missing + p - 1) // p
        w += p
        b -= q
    return -1


@njit(nogil=True, cache=True)
def _rank_file_table(rows, cols, white_target):  # type: ignore[no-untyped-def]
    """The product bound for every count of labelled ranks and files: on min(W, B)
    when ``white_target`` < 0, else on B given W >= ``white_target`` (-1: unreachable)."""
    table = np.full((rows + 1, rows + 1, cols + 1, cols + 1), -1, dtype=np.int32)
    for rw in range(rows + 1):
        for rb in range(rows + 1 - rw):
            ru = rows - rw - rb
            for cw in range(cols + 1):
                for cb in range(cols + 1 - cw):
                    cu = cols - cw - cb
                    best = -1
                    for x in range(ru + 1):
                        for y in range(cu + 1):
                            white = (rw + x) * (cw + y)
                            black = (rb + ru - x) * (cb + cu - y)
                            if white_target < 0:
                                best = max(best, min(white, black))
                            elif white >= white_target:
                                best = max(best, black)
                    table[rw, rb, cw, cb] = best
    return table


@cache
def pair_table(rows: int, cols: int, white_target: int) -> np.ndarray:
    """``table[rw, rb, cw, cb]``: the most black squares (-1: none) with at least
    ``white_target`` white ones, white in white ranks × files, black in black × black."""
    return _rank_file_table(rows, cols, white_target)  # type: ignore[no-any-return]


@cache
def product_table(rows: int, cols: int) -> np.ndarray:
    """``table[rw, rb, cw, cb]``: the product bound with ``rw`` white and ``rb`` black
    ranks, ``cw`` white and ``cb`` black files labelled."""
    return _rank_file_table(rows, cols, -1)  # type: ignore[no-any-return]
