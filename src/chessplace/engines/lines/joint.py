"""A bound over two line families at once: a minimum cut at each weight (Numba).

The family bounds of :mod:`bounds` see one family at a time. Here the last two
families (a queen's diagonals and anti-diagonals) are taken together. A square
lies on one line of each, and below any node it ends up white only if it is
possible-white and both its lines are white, black alike. For integer weights
a, b >= 0 the most ``a·W + b·B`` over every labelling of those two families
(the other lines relaxed: a square only needs to be possible) is a maximum
closure, so a minimum cut: in a network with a source, a sink and one node per
line, a square adds ``b`` on source → its first line, ``a`` on its second line
→ sink and ``a + b`` on first → second. Lines on the source side are black:
both black loses the square's ``a``, both white its ``b``, a mixed square both.

Every weight gives a sound bound: min(W, B) <= (aW + bB) / (a + b), and beside
a white target T, B <= (aW + bB - aT) / b. The search for the least one bisects
the weight on the sign of the slope of the maximiser (its W - B, or W - T), and
stops as soon as a bound falls below the target (cut) or the maximiser itself
reaches it (no weight can cut). Below the ranks and files of a torus, where the
family bounds are weak (every diagonal meets the white squares alike), this cuts
most of the diagonal labelling before it starts (``benchmarks/line_profile.py``).

Max-flow by Dinic's algorithm (Dinic 1970), stopped once the flow shows the
bound at least the target.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart

SCALE = 64
"""The weight of a white square runs over p / SCALE (p = 0 .. SCALE, or up to
:data:`PRICE_LIMIT` beside a white target)."""

PRICE_LIMIT = 8 * SCALE
"""Beside a white target the price of a white square in black ones is at most 8."""


class Network(NamedTuple):
    """The network of the last two families, as arrays for :func:`joint_reaches`.

    Edge ``e < edges`` runs ``tail -> head[e]`` and ``e + edges`` is its reverse;
    ``by_tail[first[u] : first[u + 1]]`` are the edges leaving node ``u``. Edges
    ``0 .. squares - 1`` are the squares' (first line -> second line), then the
    source's and then the sink's. ``cap``, ``level``, ``arc``, ``queue``,
    ``path`` and ``keep`` are scratch for one search.
    """

    head: np.ndarray
    by_tail: np.ndarray
    first: np.ndarray
    edges: int
    offset_first: int
    offset_second: int
    cap: np.ndarray
    level: np.ndarray
    arc: np.ndarray
    queue: np.ndarray
    path: np.ndarray
    keep: np.ndarray


def network(through: np.ndarray, family_start: np.ndarray) -> Network:
    """The network of the last two families for the lines ``through`` each square."""
    families = len(family_start) - 1
    first_start, second_start = int(family_start[families - 2]), int(family_start[families - 1])
    left = second_start - first_start
    right = int(family_start[families]) - second_start
    source, sink = left + right, left + right + 1
    tails = list(through[:, families - 2] - first_start)
    heads = list(left + through[:, families - 1] - second_start)
    tails += [source] * left + list(range(left, left + right))
    heads += list(range(left)) + [sink] * right
    edges = len(tails)
    starts = np.array(tails + heads, dtype=np.int32)
    by_tail = np.argsort(starts, kind="stable").astype(np.int32)
    nodes = sink + 1
    scratch = [np.zeros(nodes + 1, dtype=np.int32) for _ in range(4)]
    return Network(
        head=np.array(heads + tails, dtype=np.int32),
        by_tail=by_tail,
        first=np.searchsorted(starts[by_tail], np.arange(nodes + 1)).astype(np.int32),
        edges=edges,
        offset_first=first_start,
        offset_second=second_start,
        cap=np.zeros(2 * edges, dtype=np.int64),
        level=scratch[0],
        arc=scratch[1],
        queue=scratch[2],
        path=scratch[3],
        keep=np.full(nodes + 1, -1, dtype=np.int32),
    )


@njit(nogil=True, cache=True)
def _max_flow(head, by_tail, first, edges, cap, source, sink, level, arc, queue, path, enough):  # type: ignore[no-untyped-def]
    """Dinic's algorithm on the residual capacities ``cap`` (changed in place); stops
    once the flow exceeds ``enough``. After it, ``level[u] >= 0`` marks the nodes the
    source still reaches (the source side of a minimum cut) when the flow did not
    exceed ``enough``."""
    nodes = first.shape[0] - 1
    flow = 0
    while True:
        for u in range(nodes):
            level[u] = -1
        level[source] = 0
        queue[0] = source
        done, todo = 0, 1
        while done < todo:
            u = queue[done]
            done += 1
            for j in range(first[u], first[u + 1]):
                e = by_tail[j]
                if level[head[e]] < 0 and cap[e] > 0:
                    level[head[e]] = level[u] + 1
                    queue[todo] = head[e]
                    todo += 1
        if level[sink] < 0:
            return flow
        for u in range(nodes):
            arc[u] = first[u]
        while True:  # a blocking flow, one augmenting path at a time
            depth = 0
            u = source
            while u != sink:
                moved = False
                while arc[u] < first[u + 1]:
                    e = by_tail[arc[u]]
                    if cap[e] > 0 and level[head[e]] == level[u] + 1:
                        path[depth] = e
                        depth += 1
                        u = head[e]
                        moved = True
                        break
                    arc[u] += 1
                if not moved:
                    if depth == 0:
                        break
                    level[u] = -1
                    depth -= 1
                    e = path[depth]
                    u = head[e + edges] if e < edges else head[e - edges]
                    arc[u] += 1
            if u != sink:
                break
            push = cap[path[0]]
            for i in range(1, depth):
                push = min(push, cap[path[i]])
            for i in range(depth):
                e = path[i]
                cap[e] -= push
                cap[e + edges if e < edges else e - edges] += push
            flow += push
            if flow > enough:
                return flow


@njit(nogil=True, cache=True)
def _weighted(
    a,
    b,
    free,
    white_dead,
    black_dead,
    head,
    by_tail,
    first,
    edges,
    cap,
    level,
    arc,
    queue,
    path,
    floor,
):  # type: ignore[no-untyped-def]  # noqa: E501
    """``(F, W, B)``: F the most a·W + b·B over the labellings of the two families
    (or some value below ``floor`` once F is known to be below it), W and B those of
    a maximiser (only when F >= ``floor``)."""
    squares = free.shape[0]
    for e in range(2 * edges):
        cap[e] = 0
    total = 0
    for k in range(squares):
        w = a if free[k] and white_dead[k] == 0 else 0
        k_b = b if free[k] and black_dead[k] == 0 else 0
        if w + k_b == 0:
            continue
        cap[k] = w + k_b
        cap[squares + head[k + edges]] += k_b  # source -> first line
        cap[squares + head[k]] += w  # second line -> sink (indexed by the second line)
        total += w + k_b
    sink = first.shape[0] - 2
    flow = _max_flow(
        head, by_tail, first, edges, cap, sink - 1, sink, level, arc, queue, path, total - floor
    )
    white = 0
    black = 0
    if total - flow >= floor:
        for k in range(squares):
            first_black = level[head[k + edges]] >= 0
            second_black = level[head[k]] >= 0
            if not first_black and not second_black:
                if free[k] and white_dead[k] == 0:
                    white += 1
            elif first_black and second_black and free[k] and black_dead[k] == 0:
                black += 1
    return total - flow, white, black


@njit(nogil=True, cache=True)
def _kept_reaches(target, white_target, free, white_dead, black_dead, head, edges, keep):  # type: ignore[no-untyped-def]
    """Whether the labelling kept in ``keep`` (1: a line black) still reaches the
    targets here: then no weight can cut, and no flow is needed."""
    white = 0
    black = 0
    for k in range(free.shape[0]):
        first_black = keep[head[k + edges]]
        second_black = keep[head[k]]
        if first_black == 0 and second_black == 0:
            if free[k] and white_dead[k] == 0:
                white += 1
        elif first_black == 1 and second_black == 1 and free[k] and black_dead[k] == 0:
            black += 1
    if white_target < 0:
        return min(white, black) >= target
    return white >= white_target and black >= target


@njit(nogil=True, cache=True)
def joint_reaches(
    target,
    white_target,
    free,
    white_dead,
    black_dead,
    head,
    by_tail,
    first,
    edges,
    cap,
    level,
    arc,
    queue,
    path,
    keep,
):  # type: ignore[no-untyped-def]  # noqa: E501
    """Whether the joint bound of the two families reaches ``target``: on min(W, B),
    or with ``white_target`` >= 0 on B beside at least that many white. A square
    ``k`` is possible-white when ``free[k]`` and ``white_dead[k]`` is 0 (black alike).

    ``keep`` (one more than the network's nodes, -1 at first) holds the last
    labelling found to reach the targets, tried first, and the last weight that
    cut, where the bisection starts."""
    nodes = first.shape[0] - 1
    if keep[0] >= 0 and _kept_reaches(
        target, white_target, free, white_dead, black_dead, head, edges, keep
    ):
        return True
    low = 0
    high = SCALE if white_target < 0 else PRICE_LIMIT
    p = keep[nodes] if keep[nodes] >= 0 else SCALE // 2
    while True:
        b = SCALE - p if white_target < 0 else SCALE
        floor = target * (p + b) if white_target < 0 else target * b + p * white_target
        value, white, black = _weighted(
            p, b, free, white_dead, black_dead, head, by_tail, first, edges,
            cap, level, arc, queue, path, floor,
        )  # fmt: skip
        if value < floor:
            keep[nodes] = p
            return False
        reached = (
            min(white, black) >= target
            if white_target < 0
            else (white >= white_target and black >= target)
        )
        if reached:  # a labelling reaches the targets: no weight cuts
            for u in range(nodes):
                keep[u] = 1 if level[u] >= 0 else 0
            return True
        slope = white - black if white_target < 0 else white - white_target
        if slope > 0:
            high = p - 1
        elif slope < 0:
            low = p + 1
        else:
            return True
        if low > high:
            return True
        p = (low + high) // 2
