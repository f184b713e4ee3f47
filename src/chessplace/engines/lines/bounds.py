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
  By LP duality the same value is the least over weights α, β >= 0 of
  Σ over the lines of max(α·white, β·black), divided by α + β; the least
  is reached at the crossing line's ratio. So one pass at any weights
  shows the bound below a target (that weighted sum is), or at least the
  target (splitting the lines at the weights' ratio, the tied ones shared,
  reaches it), or says on which side of that ratio the lines cross, and only
  that side is sorted. The search keeps each family's last crossing ratio,
  which decides most nodes without sorting (:func:`family_reaches`).
  Beside a fixed army the bound is on B given W >= a white target, with dual
  Σ max(λ·white, black) - λ·(white target) over prices λ = α/β of a white square,
  decided the same way (:func:`family_pair_reaches`).
- Product bound: white squares lie in white ranks × white files, black in
  black × black, so with ranks and files partly labelled
  min(W, B) <= max over splits of the open ones of min(ab, a'b'); tabulated
  once per board.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

WHITE, BLACK = np.int64(1), np.int64(-1)
"""The signs :func:`_side` and :func:`_sort_side` take: NumPy integers, so that Numba
compiles each once for both (the literals 1 and -1 would each compile on their own)."""


@njit(nogil=True, cache=True)
def _sort_side(ps, qs, first, k, sign):  # type: ignore[no-untyped-def]
    """Sort ``ps[first : first + k]`` (with ``qs``) by white/black ratio, best first
    when ``sign`` is 1, worst first when -1 (insertion sort: a side has a few dozen)."""
    for i in range(first + 1, first + k):
        p = ps[i]
        q = qs[i]
        j = i - 1
        while j >= first and sign * (ps[j] * q - p * qs[j]) < 0:
            ps[j + 1] = ps[j]
            qs[j + 1] = qs[j]
            j -= 1
        ps[j + 1] = p
        qs[j + 1] = q


@njit(nogil=True, cache=True)
def _side(first, last, white, black, alpha, beta, sign, ps, qs):  # type: ignore[no-untyped-def]
    """Copy the open lines that the weights (α, β) make white (``sign`` 1) or black
    (-1) into ``ps`` and ``qs``; returns how many."""
    k = 0
    for line in range(first, last):
        p = white[line]
        q = black[line]
        if p > 0 and q > 0 and sign * (alpha * p - beta * q) > 0:
            ps[k] = p
            qs[k] = q
            k += 1
    return k


@njit(nogil=True, cache=True)
def _at_weights(first, last, white, black, alpha, beta):  # type: ignore[no-untyped-def]
    """One pass over lines ``first .. last - 1`` at the weights (α, β): the dual
    Σ max(α·white, β·black), the white of the lines they make white and the black
    of those they make black (settled lines, labelled or with one colour left,
    counted as they are), and the two counts of the lines they leave tied."""
    dual = 0
    w = 0
    b = 0
    tied_w = 0
    tied_b = 0
    for line in range(first, last):
        p = white[line]
        q = black[line]
        x = alpha * p
        y = beta * q
        dual += max(x, y)
        if q == 0 or p == 0:
            w += p
            b += q
        elif x > y:
            w += p
        elif x < y:
            b += q
        else:
            tied_w += p
            tied_b += q
    return dual, w, b, tied_w, tied_b


@njit(nogil=True, cache=True)
def family_reaches(first, last, white, black, target, weights, ps, qs):  # type: ignore[no-untyped-def]
    """Whether the family bound of lines ``first .. last - 1`` (a labelled line has
    one colour's count 0) is at least ``target``, deciding at the weights
    (α, β) = ``weights`` in one pass when it can, and keeping there the weights
    of the crossing when it has to find it. ``ps`` and ``qs`` are scratch."""
    alpha = weights[0]
    beta = weights[1]
    dual, w, b, tied_w, tied_b = _at_weights(first, last, white, black, alpha, beta)
    if dual < target * (alpha + beta):  # dual: (α + β) times a bound on min(W, B)
        return False
    if w >= b + tied_b:  # the sums cross among the white lines: whiten fewer
        if b + tied_b >= target:
            return True
        b += tied_b
        whites = _side(first, last, white, black, alpha, beta, WHITE, ps, qs)
        _sort_side(ps, qs, 0, whites, BLACK)
        for i in range(whites):
            p = ps[i]
            q = qs[i]
            if w - p <= b + q:  # they cross inside this line
                weights[0], weights[1] = q, p
                return (w * q + p * b) // (p + q) >= target
            w -= p
            b += q
        weights[0], weights[1] = 0, 1  # every open line black and still W >= B
        return b >= target
    if w + tied_w >= b:  # they cross among the tied lines, a share s of them white
        total = tied_w + tied_b
        return w * total + tied_w * (b + tied_b - w) >= target * total
    if w + tied_w >= target:
        return True
    w += tied_w  # they cross among the black lines: whiten more
    blacks = _side(first, last, white, black, alpha, beta, BLACK, ps, qs)
    _sort_side(ps, qs, 0, blacks, WHITE)
    for i in range(blacks):
        p = ps[i]
        q = qs[i]
        if w + p >= b - q:
            weights[0], weights[1] = q, p
            return (w * (p + q) + p * (b - w)) // (p + q) >= target
        w += p
        b -= q
    weights[0], weights[1] = 1, 0  # every open line white and still W < B
    return w >= target


@njit(nogil=True, cache=True)
def family_pair_reaches(first, last, white, black, white_target, target, weights, ps, qs):  # type: ignore[no-untyped-def]
    """Whether the fractional bound on B given W >= ``white_target`` (unequal armies)
    from lines ``first .. last - 1`` of one family reaches ``target``. The weights
    (α, β) = ``weights`` price a white square at λ = α/β black ones: for every
    labelling B + λ(W - white_target) <= Σ max(λ·white, black) - λ·white_target,
    equal at the crossing line's ratio. Decided in one pass at those weights when
    it can, else one side is sorted and the crossing's weights kept there."""
    alpha = weights[0]
    beta = weights[1]
    dual, w, b, tied_w, tied_b = _at_weights(first, last, white, black, alpha, beta)
    # dual bounds β·B + α·white_target; with β = 0 this says W cannot reach its target
    if dual - alpha * white_target < beta * target:
        return False
    if w >= white_target:  # W crosses its target among the white lines: blacken some
        if b + tied_b >= target:
            return True
        b += tied_b
        whites = _side(first, last, white, black, alpha, beta, WHITE, ps, qs)
        _sort_side(ps, qs, 0, whites, BLACK)
        for i in range(whites):
            p = ps[i]
            q = qs[i]
            if w - p < white_target:  # this line turns black in part
                weights[0], weights[1] = q, p
                return b * p + q * (w - white_target) >= target * p
            w -= p
            b += q
        weights[0], weights[1] = 0, 1  # every open line black and still W >= target
        return b >= target
    if w + tied_w >= white_target:  # among the tied lines, a share of them white
        return b * tied_w + tied_b * (w + tied_w - white_target) >= target * tied_w
    w += tied_w  # among the black lines: whiten the best ratios
    blacks = _side(first, last, white, black, alpha, beta, BLACK, ps, qs)
    _sort_side(ps, qs, 0, blacks, WHITE)
    for i in range(blacks):
        p = ps[i]
        q = qs[i]
        if w + p >= white_target:
            weights[0], weights[1] = q, p
            return b * p - q * (white_target - w) >= target * p
        w += p
        b -= q
    weights[0], weights[1] = 1, 0  # every open line white and still W < target
    return False


@njit(nogil=True, cache=True)
def _rank_file_table(rows, cols, white_target, table):  # type: ignore[no-untyped-def]
    """Fill ``table`` (-1 everywhere, made by the caller: np.full would compile a
    helper) with the product bound for every count of labelled ranks and files: on
    min(W, B) when ``white_target`` < 0, else on B given W >= ``white_target`` (-1:
    unreachable)."""
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


@cache
def pair_table(rows: int, cols: int, white_target: int) -> np.ndarray:
    """``table[rw, rb, cw, cb]``: the most black squares (-1: none) with at least
    ``white_target`` white ones, white in white ranks × files, black in black × black."""
    return _filled_table(rows, cols, white_target)


@cache
def product_table(rows: int, cols: int) -> np.ndarray:
    """``table[rw, rb, cw, cb]``: the product bound with ``rw`` white and ``rb`` black
    ranks, ``cw`` white and ``cb`` black files labelled."""
    return _filled_table(rows, cols, -1)


def _filled_table(rows: int, cols: int, white_target: int) -> np.ndarray:
    table = np.full((rows + 1, rows + 1, cols + 1, cols + 1), -1, dtype=np.int32)
    _rank_file_table(rows, cols, white_target, table)
    return table
