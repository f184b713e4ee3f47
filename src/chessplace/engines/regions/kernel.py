"""The compiled search of region puzzles (Numba, ``nogil``): k pieces per rank, file
and region, none touching.

State per depth: which squares may still take a piece (``free``, 0/1 per rank
and file) and how many pieces each rank, file and region holds. A node picks
the unit (rank, file or region) with the least slack (free squares beyond the
pieces it still needs) and branches on its first free square: a piece there,
or none there. The two branches are disjoint and cover every placement, so
each solution is met exactly once, which makes counting sound. A node dies
when a unit cannot get the pieces it needs: too few free squares, too few of
them apart (a rank's or file's free squares side by side, greedily), for
two neighbouring ranks or files too few 2×2-free columns for both, or, with
two or more pieces per unit, a region whose free squares take fewer 2×2 boxes
(laid greedily) than the pieces it still needs: a box holds one, its squares
all touch.

The search is resumable: the stack lives in arrays the caller owns, and
:func:`search` returns after ``budget`` nodes so the caller can heed a stop.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

EXHAUSTED, PAUSED, LIMIT = 0, 1, 2
"""How :func:`search` returned: every placement met, node budget spent, ``limit`` met."""

DEAD, SOLVED, BRANCH = -1, 1, 0


UNIT_ROWS = 5
"""Rows of the scratch per unit that :func:`search` hands :func:`_choose`: free squares
per rank, per file and per region, whether a region is tight, its 2×2 boxes."""


@njit(nogil=True, cache=True)
def _pair_room(free, u, v, by_file):  # type: ignore[no-untyped-def]
    """The most non-touching pieces two neighbouring ranks ``u`` and ``v`` (files, with
    ``by_file``) can hold on their free squares (one line: pass it as both)."""
    count = 0
    index = 0
    while index < free.shape[0]:
        if by_file:
            open_here = free[index, u] or free[index, v]
        else:
            open_here = free[u, index] or free[v, index]
        if open_here:
            count += 1
            index += 2
        else:
            index += 1
    return count


@njit(nogil=True, cache=True)
def _area_room_short(n, k, region, free, areas, units, covered):  # type: ignore[no-untyped-def]
    """Whether some region cannot hold the pieces it still needs apart: its free
    squares are covered by 2×2 boxes (greedily, in reading order), and a box holds
    at most one piece, since its squares all touch. Only a region needing d ≥ 2
    pieces with at most 4(d − 1) free squares can fall short (a box covers at most
    four), so the others are not covered at all. ``units[2]`` holds each region's free
    squares; ``units[3]``, ``units[4]`` and ``covered`` are scratch."""
    area_free, tight, boxes = units[2], units[3], units[4]
    any_tight = False
    for g in range(n):
        need = k - areas[g]
        tight[g] = need >= 2 and area_free[g] <= 4 * (need - 1)
        any_tight = any_tight or tight[g] != 0
        boxes[g] = 0
    if not any_tight:
        return False
    for r in range(n):
        for f in range(n):
            covered[r, f] = 0
    for r in range(n):
        for f in range(n):
            if not free[r, f] or covered[r, f] or not tight[region[r, f]]:
                continue
            g = region[r, f]
            # the box to the right or to the left of (r, f), whichever covers more
            right = 0
            left = 0
            for rr in range(r, min(n, r + 2)):
                for ff in range(max(0, f - 1), min(n, f + 2)):
                    if free[rr, ff] and not covered[rr, ff] and region[rr, ff] == g:
                        if ff >= f:
                            right += 1
                        if ff <= f:
                            left += 1
            start = f if right >= left or f == 0 else f - 1
            for rr in range(r, min(n, r + 2)):
                for ff in range(start, min(n, start + 2)):
                    if region[rr, ff] == g:
                        covered[rr, ff] = 1
            boxes[g] += 1
    for g in range(n):  # noqa: SIM110 - Numba compiles no generator
        if tight[g] and boxes[g] < k - areas[g]:
            return True
    return False


@njit(nogil=True, cache=True)
def _choose(n, k, region, free, ranks, files, areas, choice, units, covered):  # type: ignore[no-untyped-def]
    """DEAD, SOLVED, or BRANCH with ``choice`` = (rank, file) of the square to branch on;
    ``units`` (:data:`UNIT_ROWS` × n) and ``covered`` (n × n) are scratch."""
    placed = 0
    for r in range(n):
        placed += ranks[r]
    if placed == n * k:
        return SOLVED
    rank_free, file_free, area_free = units[0], units[1], units[2]
    for u in range(n):
        rank_free[u] = 0
        file_free[u] = 0
        area_free[u] = 0
    for r in range(n):
        for f in range(n):
            if free[r, f]:
                rank_free[r] += 1
                file_free[f] += 1
                area_free[region[r, f]] += 1
    best = n * n + 1
    kind = -1
    unit = -1
    for u in range(n):
        for which in range(3):
            if which == 0:
                need, room = k - ranks[u], rank_free[u]
            elif which == 1:
                need, room = k - files[u], file_free[u]
            else:
                need, room = k - areas[u], area_free[u]
            if need <= 0:
                continue
            if room < need:
                return DEAD
            if room - need < best:
                best, kind, unit = room - need, which, u
    if kind < 0:
        return DEAD
    if k > 1:
        for u in range(n):
            if k - ranks[u] > 0 and _pair_room(free, u, u, False) < k - ranks[u]:
                return DEAD
            if k - files[u] > 0 and _pair_room(free, u, u, True) < k - files[u]:
                return DEAD
        for u in range(n - 1):
            if _pair_room(free, u, u + 1, False) < 2 * k - ranks[u] - ranks[u + 1]:
                return DEAD
            if _pair_room(free, u, u + 1, True) < 2 * k - files[u] - files[u + 1]:
                return DEAD
        if _area_room_short(n, k, region, free, areas, units, covered):
            return DEAD
    for r in range(n):
        for f in range(n):
            if free[r, f] and (
                (kind == 0 and r == unit)
                or (kind == 1 and f == unit)
                or (kind == 2 and region[r, f] == unit)
            ):
                choice[0] = r
                choice[1] = f
                return BRANCH
    return DEAD


@njit(nogil=True, cache=True)
def place(n, k, region, free, ranks, files, areas, r, f):  # type: ignore[no-untyped-def]
    """Put a piece on (r, f): its neighbours and every full unit lose their free squares."""
    ranks[r] += 1
    files[f] += 1
    g = region[r, f]
    areas[g] += 1
    for rr in range(max(0, r - 1), min(n, r + 2)):
        for ff in range(max(0, f - 1), min(n, f + 2)):
            free[rr, ff] = 0
    for u in range(n):
        if ranks[r] == k:
            free[r, u] = 0
        if files[f] == k:
            free[u, f] = 0
    if areas[g] == k:
        for rr in range(n):
            for ff in range(n):
                if region[rr, ff] == g:
                    free[rr, ff] = 0


@njit(nogil=True, cache=True)
def search(  # type: ignore[no-untyped-def]
    n, k, region, free, ranks, files, areas, phase, chosen, placed, path, state, out, limit, budget
):
    """Run the search from where ``state`` says for at most ``budget`` nodes.

    Stack arrays, indexed by depth: ``free`` (depth, n, n), ``ranks``/``files``/
    ``areas`` (depth, n), ``phase`` (0 new node, 1 piece branch next, 2 empty
    branch next, 3 done), ``chosen`` (depth, 2), ``placed`` (pieces on the path at each depth);
    ``path`` (n·k) the squares (r·n + f) of the pieces on the path. ``state`` =
    [depth, solutions found, index of the first solution to keep]: solution
    number ``j`` goes to ``out[j - state[2]]`` while that row exists. Stops at
    ``limit`` solutions (``limit`` < 0: never). Returns EXHAUSTED, PAUSED or LIMIT.

    Arrays are copied and cleared by loops, not by slices or NumPy's functions: each of
    those compiles a helper of its own, and they cost a first run most of its time.
    """
    units = np.empty((UNIT_ROWS, n), np.int64)
    covered = np.empty((n, n), np.uint8)
    d = state[0]
    nodes = 0
    while d >= 0:
        if phase[d] == 0:
            if nodes >= budget:
                state[0] = d
                return PAUSED
            nodes += 1
            verdict = _choose(
                n, k, region, free[d], ranks[d], files[d], areas[d], chosen[d], units, covered
            )
            if verdict == DEAD:
                d -= 1
                continue
            if verdict == SOLVED:
                slot = state[1] - state[2]
                if 0 <= slot < out.shape[0]:
                    for i in range(path.shape[0]):
                        out[slot, i] = path[i]
                state[1] += 1
                d -= 1
                if limit >= 0 and state[1] >= limit:
                    state[0] = d
                    return LIMIT
                continue
            phase[d] = 1
        if phase[d] == 3:
            d -= 1
            continue
        r, f = chosen[d, 0], chosen[d, 1]
        for u in range(n):
            for v in range(n):
                free[d + 1, u, v] = free[d, u, v]
            ranks[d + 1, u] = ranks[d, u]
            files[d + 1, u] = files[d, u]
            areas[d + 1, u] = areas[d, u]
        phase[d + 1] = 0
        placed[d + 1] = placed[d]
        if phase[d] == 1:
            phase[d] = 2
            path[placed[d]] = r * n + f
            placed[d + 1] += 1
            place(n, k, region, free[d + 1], ranks[d + 1], files[d + 1], areas[d + 1], r, f)
        else:
            free[d + 1, r, f] = 0
            phase[d] = 3
        d += 1
    state[0] = d
    return EXHAUSTED
