"""The depth-first line-labelling search for three armies (Numba, ``nogil``).

The search of :mod:`kernel` with colours 0, 1 and 2 on every line: army ``i``
stands where every line through the square carries colour ``2 - i``, and the
value of a labelling is its smallest army. A node is cut when a bound of
:mod:`bounds_three_armies` is below the target, or when some symmetry (a board symmetry
with a permutation of the colours, ``recolour``) maps its rank/file labels
below themselves; the argument of :mod:`kernel` for why no answer is lost
holds word for word, the colour permutations keeping the smallest army.

Dominance, after the ranks and files only: a colour c with no possible square
on a line is not tried there when another colour c' has one. Giving the line
c kills the squares of both other colours on it and gains none; giving it c'
kills only the third colour's (c has none there) and keeps c''s, so it is
never worse.

The loop repeats :func:`kernel.search` line for line with three counts per line
in place of two: Numba compiles each specialised, and sharing the loop would
cost the two-colour search its speed.

It speaks the same protocol as :func:`kernel.search` (prefix, split rows,
shared stop flag and target, witness) and returns the same tuple, so the
runner, checkpoints and Dask take it unchanged.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from chessplace.engines.lines.bounds_three_armies import COLOURS, PAIRS, family_reaches3
from chessplace.engines.lines.kernel import CHECK_EVERY, EXHAUSTED, FOUND, FULL, STOPPED
from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart


@njit(nogil=True, cache=True)
def _paint(line, colour, step, start, length, members, through, dead, count):  # type: ignore[no-untyped-def]
    """Give ``line`` its colour (``step`` 1) or take it back (``step`` -1): the other
    colours die on its squares."""
    families = through.shape[1]
    for k in range(start[line], start[line] + length[line]):
        s = members[k]
        for c in range(COLOURS):
            if c != colour:
                dead[c, s] += step
                if (step == 1 and dead[c, s] == 1) or (step == -1 and dead[c, s] == 0):
                    for f in range(families):
                        count[c, through[s, f]] -= step


@njit(nogil=True, cache=True)
def _smallest(depth, labels, source, recolour):  # type: ignore[no-untyped-def]
    """False when some symmetry maps the labelled prefix below itself (lex order)."""
    for g in range(source.shape[0]):
        for p in range(source.shape[1]):
            q = source[g, p]
            if p >= depth or q >= depth:
                break
            image = recolour[g, labels[q]]
            if image < labels[p]:
                return False
            if image > labels[p]:
                break
    return True


@njit(nogil=True, cache=True)
def _reaches(  # type: ignore[no-untyped-def]
    target, count, family_start, product, table, ranks, files, bounded_from, counts, weights, ps, qs
):
    """Whether every bound at this node reaches ``target`` (``table`` indexed through
    ``ranks`` and ``files``: see :func:`bounds_three_armies.product_table`; the family
    bounds from family ``bounded_from`` on; ``weights[f]``: family ``f``'s last
    crossing ratios)."""
    if product:
        r = ranks[counts[0, 0], counts[0, 1], counts[0, 2]]
        f = files[counts[1, 0], counts[1, 1], counts[1, 2]]
        if table[r, f] < target:
            return False
    for f in range(family_start.shape[0] - 2, bounded_from - 1, -1):
        first, stop = family_start[f], family_start[f + 1]
        if not family_reaches3(first, stop, count, target, weights[f], ps, qs):
            return False
    return True


@njit(nogil=True, cache=True)
def search(  # type: ignore[no-untyped-def]
    start,
    length,
    members,
    through,
    family_start,
    order,
    symmetric,
    source,
    recolour,
    product,
    table,
    rank_index,
    file_index,
    bounded_from,
    prefix,
    split,
    out,
    target,
    maximize,
    shared,
    witness,
):
    """Search below ``prefix`` for a labelling whose smallest army is at least
    ``target``; arguments and answer as :func:`kernel.search` (no white target),
    with ``recolour`` for the colour swap and the three-colour product ``table``
    indexed through ``rank_index`` and ``file_index``, family bounds from
    ``bounded_from``."""
    lines = length.shape[0]
    families = family_start.shape[0] - 1
    squares = through.shape[0]
    count = np.empty((COLOURS, lines), dtype=np.int32)
    for c in range(COLOURS):
        count[c, :] = length
    dead = np.zeros((COLOURS, squares), dtype=np.int32)
    label = np.full(lines, -1, dtype=np.int32)
    labels = np.full(lines, -1, dtype=np.int32)  # by position
    counts = np.zeros((families, COLOURS), dtype=np.int32)
    family_of = np.zeros(lines, dtype=np.int32)
    for f in range(families):
        family_of[family_start[f] : family_start[f + 1]] = f
    ps = np.zeros(lines, dtype=np.int64)
    qs = np.zeros(lines, dtype=np.int64)
    weights = np.ones((families, PAIRS, 2), dtype=np.int64)  # each pair's last crossing
    choices = np.zeros((lines + 1, COLOURS), dtype=np.int32)
    taken = np.zeros(lines + 1, dtype=np.int32)
    available = np.zeros(lines + 1, dtype=np.int32)

    base = 0
    for line in range(prefix.shape[0]):
        colour = prefix[line]
        if colour >= 0:
            _paint(line, colour, 1, start, length, members, through, dead, count)
            label[line] = colour
            counts[family_of[line], colour] += 1
            base += 1
    for p in range(min(base, symmetric)):
        labels[p] = label[order[p]]

    best = -1
    nodes = 0
    written = 0
    depth = base
    entering = True
    line = 0
    colour = 0
    while True:
        if entering:
            nodes += 1
            if (nodes & CHECK_EVERY) == 0:
                if shared[0] != 0:
                    return STOPPED, best, nodes, written, target
                if shared[1] > target:
                    target = shared[1]
            alive = True
            if depth <= symmetric and depth > base:
                alive = _smallest(depth, labels, source, recolour)
            if alive:
                alive = _reaches(
                    target,
                    count,
                    family_start,
                    product,
                    table,
                    rank_index,
                    file_index,
                    bounded_from,
                    counts,
                    weights,
                    ps,
                    qs,
                )
            if alive and depth == split:
                out[written, :] = label
                written += 1
                if written == out.shape[0]:
                    return FULL, best, nodes, written, target
                alive = False
            if alive and depth == lines:
                value = 1 << 30
                for c in range(COLOURS):
                    army = 0
                    for rank in range(family_start[0], family_start[1]):
                        army += count[c, rank]
                    value = min(value, army)
                best = max(best, value)
                witness[:] = label
                if not maximize:
                    return FOUND, best, nodes, written, target
                target = value + 1
                alive = False
            if alive:
                line = order[depth]
                k = 0
                for c in range(COLOURS):  # most possible squares first
                    if depth < symmetric or count[c, line] > 0:
                        j = k
                        while j > 0 and count[choices[depth, j - 1], line] < count[c, line]:
                            choices[depth, j] = choices[depth, j - 1]
                            j -= 1
                        choices[depth, j] = c
                        k += 1
                if k == 0:  # no colour has a square here: any one will do
                    choices[depth, 0] = 0
                    k = 1
                available[depth] = k
                taken[depth] = 0
                colour = choices[depth, 0]
            else:
                entering = False
                continue
        else:
            if depth == base:
                return EXHAUSTED, best, nodes, written, target
            depth -= 1
            line = order[depth]
            colour = label[line]
            _paint(line, colour, -1, start, length, members, through, dead, count)
            label[line] = -1
            labels[depth] = -1
            counts[family_of[line], colour] -= 1
            taken[depth] += 1
            if taken[depth] == available[depth]:
                continue
            colour = choices[depth, taken[depth]]
        _paint(line, colour, 1, start, length, members, through, dead, count)
        label[line] = colour
        labels[depth] = colour
        counts[family_of[line], colour] += 1
        depth += 1
        entering = True
