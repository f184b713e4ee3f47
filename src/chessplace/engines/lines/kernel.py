"""The depth-first line-labelling search (Numba, ``nogil``).

Labels are 1 (white) and 0 (black), one per line, in the order of
:class:`chessplace.engines.lines.geometry.Geometry`. A node is cut when

- a bound of :mod:`chessplace.engines.lines.bounds` is below the target, or
- its rank/file labels cannot be the lex-smallest of their orbit.

Why the symmetry cut keeps every answer: the symmetries (8 of the board
× the colour swap, 4 × 2 on a rectangle; on a torus each also after every
translation and, for solving, every scaling of :mod:`geometry`) form a group,
act on whole labellings, map ranks and files onto ranks and files, and keep
min(white, black). The group matters: with a set that is not closed, an image
of the lex-smallest labelling could be smaller still. Take
any labelling L and the element g that makes the rank/file part of g(L)
the lex-smallest of that part's orbit; g(L) has L's value. The search
cuts a node only when some image of its labelled rank/file prefix is
already smaller, which never holds on the path to g(L); the labels after
the ranks and files are searched in full (up to the dominance below), so
g(L) or a labelling at least as good is reached.

Dominance, after the ranks and files only: a line with no possible-white
square is labelled black (white would only kill black squares), one with no
possible-black square white; this keeps a best labelling of each subtree.
Such a line changes no count, so once the ranks and files (and the lines a
chunk's prefix or a split fixes) are labelled, the search picks its next line
itself among the others: the first family with one, and there the line with
the most squares of one colour (labelling it the other colour kills the most,
so bounds fail soonest). A node where no such line is left is a leaf: every
open line takes its one useful colour. The order below that point is the
search's own business: a chunk is exhausted whatever the order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from chessplace.engines.lines.bounds import family_pair_reaches, family_reaches
from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

EXHAUSTED, FOUND, STOPPED, FULL = 0, 1, 2, 3
"""How :func:`search` ended: subtree done, witness found (solve mode), stop flag
raised, prefix buffer full (split mode)."""

CHECK_EVERY = 1023
"""Nodes between looks at the shared stop flag and target (a power of two less one)."""


@njit(nogil=True, cache=True)
def _label(line, colour, start, length, members, through, white_dead, black_dead, white, black):  # type: ignore[no-untyped-def]
    """Give ``line`` its colour: kill the other colour on its squares."""
    families = through.shape[1]
    for k in range(start[line], start[line] + length[line]):
        s = members[k]
        if colour == 1:
            black_dead[s] += 1
            if black_dead[s] == 1:
                for f in range(families):
                    black[through[s, f]] -= 1
        else:
            white_dead[s] += 1
            if white_dead[s] == 1:
                for f in range(families):
                    white[through[s, f]] -= 1


@njit(nogil=True, cache=True)
def _unlabel(line, colour, start, length, members, through, white_dead, black_dead, white, black):  # type: ignore[no-untyped-def]
    """Undo :func:`_label`."""
    families = through.shape[1]
    for k in range(start[line], start[line] + length[line]):
        s = members[k]
        if colour == 1:
            black_dead[s] -= 1
            if black_dead[s] == 0:
                for f in range(families):
                    black[through[s, f]] += 1
        else:
            white_dead[s] -= 1
            if white_dead[s] == 0:
                for f in range(families):
                    white[through[s, f]] += 1


@njit(nogil=True, cache=True)
def _still_tied(depth, labels, source, swap, tied, resume, count, next_tied, next_resume, cut):  # type: ignore[no-untyped-def]
    """The symmetries whose image of the labelled prefix (lex order) is still equal
    to it at ``depth``, from those tied one level up (``tied[:count]``, each to be
    compared again from position ``resume``), written to ``next_tied`` and
    ``next_resume``; returns their number, or -1 when ``cut`` and some image is
    smaller (the node is not the lex-smallest of its orbit). A symmetry whose image
    is larger is dropped for the whole subtree. Without ``cut`` a smaller image is
    kept tied at that position, so that the next level cuts."""
    kept = 0
    columns = source.shape[1]
    for i in range(count):
        g = tied[i]
        p = resume[i]
        larger = False
        while p < depth and p < columns:
            q = source[g, p]
            if q >= depth:
                break
            image = labels[q] ^ swap[g]
            if image < labels[p]:
                if cut:
                    return -1
                break
            if image > labels[p]:
                larger = True
                break
            p += 1
        if not larger:
            next_tied[kept] = g
            next_resume[kept] = p
            kept += 1
    return kept


@njit(nogil=True, cache=True)
def _pick(first_family, label, white, black, family_start):  # type: ignore[no-untyped-def]
    """The next line to branch on (-1: none): in the first family from
    ``first_family`` with an open line that can still take either colour, the one
    with the most squares of one colour (then of the other)."""
    for f in range(first_family, family_start.shape[0] - 1):
        pick = -1
        best = -1
        for line in range(family_start[f], family_start[f + 1]):
            p = white[line]
            q = black[line]
            if label[line] < 0 and p > 0 and q > 0:
                score = (max(p, q) << 16) + min(p, q)
                if score > best:
                    best = score
                    pick = line
        if pick >= 0:
            return pick
    return -1


@njit(nogil=True, cache=True)
def _fill(label, white, row):  # type: ignore[no-untyped-def]
    """A leaf's labelling into ``row``: its labels, and each open line's one useful
    colour (black where no square can be white, else white)."""
    for line in range(label.shape[0]):
        row[line] = label[line] if label[line] >= 0 else (0 if white[line] == 0 else 1)


@njit(nogil=True, cache=True)
def _reaches(  # type: ignore[no-untyped-def]
    target,
    white_target,
    white,
    black,
    family_start,
    product,
    table,
    bounded_from,
    counts,
    ps,
    qs,
    weights,
):
    """Which bound at this node falls below ``target`` (-1: none; 0: the product
    table; 1 + f: family ``f``'s bound): on min(white, black), or
    with ``white_target`` >= 0 on black given that many white (``table`` is then the
    pair table of :func:`bounds.pair_table`); the family bounds run over the families
    from ``bounded_from`` (see :class:`~chessplace.engines.lines.geometry.Geometry`).
    ``weights[f]`` keeps family ``f``'s last crossing ratio, which decides most nodes
    without sorting."""
    if product and table[counts[0, 1], counts[0, 0], counts[1, 1], counts[1, 0]] < target:
        return 0
    for f in range(family_start.shape[0] - 2, bounded_from - 1, -1):  # diagonals cut most
        first, stop = family_start[f], family_start[f + 1]
        if white_target >= 0:
            if not family_pair_reaches(
                first, stop, white, black, white_target, target, weights[f], ps, qs
            ):
                return 1 + f
        elif not family_reaches(first, stop, white, black, target, weights[f], ps, qs):
            return 1 + f
    return -1


@njit(nogil=True, cache=True)
def search(  # type: ignore[no-untyped-def]
    start,
    length,
    members,
    through,
    family_start,
    order,
    symmetric,
    static,
    source,
    swap,
    product,
    table,
    bounded_from,
    prefix,
    split,
    out,
    target,
    maximize,
    shared,
    witness,
    tally,
):
    """Search below ``prefix`` (labels by line, -1 for none; the ranks and files
    labelled are the first positions of ``order``) for a labelling with
    min(white, black) >= ``target``. Lines are labelled in ``order`` down to depth
    ``static``, and at least past the ranks and files, the prefix and a ``split``
    short of every line; then the search picks them (see the module's docstring).

    With ``maximize`` every such labelling found raises the target to its value
    + 1 and the search goes on; otherwise the first one ends it. Labellings
    found are copied (by line) into ``witness``. At depth ``split`` nodes are
    not searched but written (labels by line) to the rows of ``out``; with
    ``split`` = the number of lines, every leaf reaching the target is (filled).
    ``shared[0]`` non-zero asks for a stop; ``shared[1]`` is a target other
    threads reached, read now and then; ``shared[2]``, when there, is a number of
    white pieces to reach (unequal armies): the search then looks for at least that
    many white and at least ``target`` black, and its values are black counts.

    With more than one row, ``tally[depth]`` counts the nodes entered at each depth
    (column 0) and those cut there by the symmetry check (1), the product table (2)
    and family ``f``'s bound (3 + f): where a search spends its nodes.

    Returns ``(status, best value found or -1, nodes, prefixes written, target)``:
    once the subtree is exhausted, every labelling in it is below the final
    ``target``.
    """
    lines = length.shape[0]
    families = family_start.shape[0] - 1
    squares = through.shape[0]
    # Filled by loops: np.zeros, np.full and copies would each compile a helper.
    white = np.empty(lines, dtype=np.int32)
    black = np.empty(lines, dtype=np.int32)
    label = np.empty(lines, dtype=np.int32)
    labels = np.empty(lines, dtype=np.int32)  # by position
    family_of = np.empty(lines, dtype=np.int32)
    ps = np.empty(lines, dtype=np.int64)
    qs = np.empty(lines, dtype=np.int64)
    for line in range(lines):
        white[line] = length[line]
        black[line] = length[line]
        label[line] = -1
        labels[line] = -1
        ps[line] = 0
        qs[line] = 0
    for f in range(families):
        for line in range(family_start[f], family_start[f + 1]):
            family_of[line] = f
    white_dead = np.empty(squares, dtype=np.int32)
    black_dead = np.empty(squares, dtype=np.int32)
    for s in range(squares):
        white_dead[s] = 0
        black_dead[s] = 0
    counts = np.empty((families, 2), dtype=np.int32)  # lines labelled per family and colour
    weights = np.empty((families, 2), dtype=np.int64)  # each family's last crossing ratio
    for f in range(families):
        for side in range(2):
            counts[f, side] = 0
            weights[f, side] = 1
    choices = np.empty((lines + 1, 2), dtype=np.int32)
    taken = np.empty(lines + 1, dtype=np.int32)
    available = np.empty(lines + 1, dtype=np.int32)
    chosen = np.empty(lines + 1, dtype=np.int32)  # the line labelled at each depth
    for level in range(lines + 1):
        choices[level, 0] = 0
        choices[level, 1] = 0
        taken[level] = 0
        available[level] = 0
        chosen[level] = 0

    base = np.int64(0)  # not the literal 0: callees would compile for it too
    for line in range(prefix.shape[0]):
        colour = np.int32(prefix[line])  # the type of the other colours passed to _label
        if colour >= 0:
            _label(
                line, colour, start, length, members, through, white_dead, black_dead, white, black
            )
            label[line] = colour
            counts[family_of[line], colour] += 1
            base += 1
    for p in range(min(base, symmetric)):
        labels[p] = label[order[p]]
    # The symmetry check at depth d compares only the symmetries still tied at d - 1.
    symmetries = source.shape[0]
    levels = symmetric + 1 if base < symmetric else 1
    tied = np.empty((levels, symmetries), dtype=np.int32)
    resume = np.empty((levels, symmetries), dtype=np.int32)
    tied_count = np.empty(levels, dtype=np.int32)
    for g in range(symmetries):
        tied[0, g] = g
        resume[0, g] = 0
    if base < symmetric and base > 0:
        tied_count[base] = _still_tied(
            base, labels, source, swap, tied[0], resume[0], symmetries,
            tied[base], resume[base], False,
        )  # fmt: skip
    else:
        tied_count[0] = symmetries

    collect = split == lines  # every leaf is written to ``out``, filled
    free = max(symmetric, static, base, -1 if collect else split)  # then it picks lines
    after = 2 if product else 0  # the families it picks from start here

    white_target = shared[2] if shared.shape[0] > 2 else -1
    profiling = tally.shape[0] > 1
    best = -1
    nodes = 0
    written = 0
    depth = base
    entering = True
    while True:
        if entering:
            nodes += 1
            if (nodes & CHECK_EVERY) == 0:
                if shared[0] != 0:
                    return STOPPED, best, nodes, written, target
                if shared[1] > target:
                    target = shared[1]
            if profiling:
                tally[depth, 0] += 1
            alive = True
            if depth <= symmetric and depth > base:
                tied_count[depth] = _still_tied(
                    depth, labels, source, swap, tied[depth - 1], resume[depth - 1],
                    tied_count[depth - 1], tied[depth], resume[depth], True,
                )  # fmt: skip
                alive = tied_count[depth] >= 0
                if profiling and not alive:
                    tally[depth, 1] += 1
            if alive:
                failed = _reaches(
                    target,
                    white_target,
                    white,
                    black,
                    family_start,
                    product,
                    table,
                    bounded_from,
                    counts,
                    ps,
                    qs,
                    weights,
                )
                alive = failed < 0
                if profiling and not alive:
                    tally[depth, 2 + failed] += 1
            if alive and depth == split and not collect:
                for line in range(lines):
                    out[written, line] = label[line]
                written += 1
                if written == out.shape[0]:
                    return FULL, best, nodes, written, target
                alive = False
            line = -1
            if alive and depth < lines:
                if depth < free:
                    line = order[depth]
                else:  # no family before the parent's pick has a line left to pick
                    floor = family_of[chosen[depth - 1]] if depth > free else after
                    line = _pick(floor, label, white, black, family_start)
            if alive and line < 0 and collect:  # a leaf
                _fill(label, white, out[written])
                written += 1
                if written == out.shape[0]:
                    return FULL, best, nodes, written, target
                alive = False
            if alive and line < 0:  # every line labelled, or every open one has one use
                value = 0
                dark = 0
                for line in range(family_start[0], family_start[1]):
                    value += white[line]
                    dark += black[line]
                value = min(value, dark) if white_target < 0 else dark
                best = max(best, value)
                _fill(label, white, witness)
                if not maximize:
                    return FOUND, best, nodes, written, target
                target = value + 1
                alive = False
            if alive:
                chosen[depth] = line
                if depth >= symmetric and white[line] == 0:
                    choices[depth, 0] = 0
                    available[depth] = 1
                elif depth >= symmetric and black[line] == 0:
                    choices[depth, 0] = 1
                    available[depth] = 1
                else:
                    first = 0 if depth < symmetric or white[line] < black[line] else 1
                    choices[depth, 0] = first
                    choices[depth, 1] = 1 - first
                    available[depth] = 2
                taken[depth] = 0
                colour = choices[depth, 0]
            else:
                entering = False
                continue
        else:
            if depth == base:
                return EXHAUSTED, best, nodes, written, target
            depth -= 1
            line = chosen[depth]
            colour = label[line]
            _unlabel(
                line, colour, start, length, members, through, white_dead, black_dead, white, black
            )
            label[line] = -1
            labels[depth] = -1
            counts[family_of[line], colour] -= 1
            taken[depth] += 1
            if taken[depth] == available[depth]:
                continue
            colour = choices[depth, taken[depth]]
        _label(line, colour, start, length, members, through, white_dead, black_dead, white, black)
        label[line] = colour
        labels[depth] = colour
        counts[family_of[line], colour] += 1
        depth += 1
        entering = True
