"""Would a joint bound over both diagonal families pay in the line search? A measurement.

The bound: for a weight λ in [0, 1], min(W, B) <= max over labellings of
λW + (1 - λ)B. With the ranks and files fixed (or relaxed: a square on an
open rank or file stays possible in both colours) and one binary variable
per diagonal and per anti-diagonal, a square counts λ when both its lines
are white and it is possible-white, 1 - λ when both are black and it is
possible-black. Each term is supermodular in the two variables, so the
maximum is a minimum cut in a bipartite network (source → diagonal with
the square's black weight, anti-diagonal → sink with its white weight,
diagonal → anti-diagonal with both); every λ gives a valid bound, and the
script bisects λ on the slope W - B of the maximiser.

For each depth of the rank/file labelling it takes the nodes the engine's
own bounds keep for a target, computes the joint bound at each, searches
the subtree below with the engine (the baseline), and prints how many nodes
the joint bound would cut, the engine nodes inside them, the microseconds
per bound and the seconds it would save against the seconds it costs.

    python benchmarks/joint_bound.py [-n 11] [--target 18] [--depths 18,20,22]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from chessplace.core.board import Board
from chessplace.core.pieces import QUEEN
from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.geometry import Geometry, geometry

SCALE = 64
"""λ runs over p / SCALE for p = 0 .. SCALE."""

KEPT = 1 << 20
"""At most this many nodes at one depth."""


class Network:
    """The bipartite network of two line families: arrays for :func:`lagrange_bound`."""

    def __init__(self, g: Geometry, first_family: int, second_family: int) -> None:
        fs = g.family_start
        self.left = int(fs[first_family + 1] - fs[first_family])
        right = int(fs[second_family + 1] - fs[second_family])
        source, sink = self.left + right, self.left + right + 1
        tails = list(g.through[:, first_family] - fs[first_family])
        heads = list(self.left + g.through[:, second_family] - fs[second_family])
        tails += [source] * self.left + list(range(self.left, self.left + right))
        heads += list(range(self.left)) + [sink] * right
        self.edges = len(tails)  # edge e runs tail -> head, e + edges is its reverse
        self.head = np.array(heads + tails, dtype=np.int32)
        starts = np.array(tails + heads, dtype=np.int32)
        self.by_tail = np.argsort(starts, kind="stable").astype(np.int32)
        self.first = np.searchsorted(starts[self.by_tail], np.arange(sink + 2)).astype(np.int32)

    def bound(self, white: np.ndarray, black: np.ndarray, target: int) -> int:
        nodes = len(self.first) - 1
        return int(
            lagrange_bound(
                white,
                black,
                target,
                (self.head, self.by_tail, self.first, self.edges),
                np.zeros(2 * self.edges, np.int64),
                tuple(np.zeros(nodes, np.int32) for _ in range(4)),
            )
        )


@njit(nogil=True, cache=True)
def _max_flow(graph, cap, source, sink, work, enough):  # type: ignore[no-untyped-def]
    """Dinic's algorithm on residual capacities ``cap`` (changed in place); stops once
    the flow exceeds ``enough``."""
    head, by_tail, first, edges = graph
    level, arc, queue, path = work
    nodes = first.shape[0] - 1
    flow = 0
    while True:
        level[:] = -1
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
        while True:  # blocking flow, one augmenting path at a time
            depth, u = 0, source
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
def _weighted(p, white, black, graph, cap, work, target):  # type: ignore[no-untyped-def]
    """``(F, W - B)``: F is SCALE × max over labellings of (p / SCALE) W + (1 - p / SCALE) B
    (or some value below ``SCALE × target`` once F is known to be below), W and B those
    of a maximiser (its slope in p)."""
    head, _, first, edges = graph
    level = work[0]
    squares = white.shape[0]
    cap[:] = 0
    total = 0
    for k in range(squares):
        w = p * white[k]
        b = (SCALE - p) * black[k]
        cap[k] = w + b
        cap[squares + head[k + edges]] += b
        cap[squares + head[k]] += w
        total += w + b
    sink = first.shape[0] - 2
    flow = _max_flow(graph, cap, sink - 1, sink, work, total - target * SCALE)
    slope = 0
    if total - flow >= target * SCALE:  # the last search left level >= 0 on the source side
        for k in range(squares):
            source_side_first = level[head[k + edges]] >= 0  # first-family line black
            source_side_second = level[head[k]] >= 0  # second-family line black
            if not source_side_first and not source_side_second:
                slope += white[k]
            elif source_side_first and source_side_second:
                slope -= black[k]
    return total - flow, slope


@njit(nogil=True, cache=True)
def lagrange_bound(white, black, target, graph, cap, work):  # type: ignore[no-untyped-def]
    """The least bound over the λ a bisection on the slope visits (stops once below
    ``target``), starting where white and black weigh the same in all."""
    low, high = 0, SCALE
    p = SCALE * black.sum() // max(white.sum() + black.sum(), 1)
    best = 1 << 60
    while True:
        value, slope = _weighted(p, white, black, graph, cap, work, target)
        best = min(best, value)
        if best < target * SCALE or slope == 0:
            break
        if slope > 0:
            high = p - 1
        else:
            low = p + 1
        if low > high:
            break
        p = (low + high) // 2
    return best // SCALE


def measure(n: int, target: int, depth: int, per_node: float) -> str:
    g = geometry(Board(n, n), QUEEN)
    network = Network(g, len(g.family_start) - 3, len(g.family_start) - 2)
    out = np.zeros((KEPT, g.lines), dtype=np.int8)
    shared = np.array([0, target], dtype=np.int64)
    status, _, _, written, _, _ = call(g, np.zeros(0, np.int8), depth, out, False, shared)
    if status == kernel.FULL:
        raise SystemExit(f"more than {KEPT:,} nodes at depth {depth}")
    rows = out[:written]
    dummy = np.zeros((1, 1), dtype=np.int8)
    cut = nodes_all = nodes_cut = 0
    bound_seconds = 0.0
    for row in rows:
        labels = row.astype(np.int32)[g.through]
        white = (labels != 0).all(axis=1).astype(np.int64)
        black = (labels != 1).all(axis=1).astype(np.int64)
        started = time.perf_counter()
        joint = network.bound(white, black, target)
        bound_seconds += time.perf_counter() - started
        status, _, nodes, _, _, _ = call(
            g, row, -1, dummy, False, np.array([0, target], dtype=np.int64)
        )
        nodes_all += nodes
        if joint < target:
            if status == kernel.FOUND:
                raise AssertionError("the joint bound cut a node above a witness")
            cut += 1
            nodes_cut += nodes
    saved = nodes_cut * per_node
    return (
        f"| {depth} | {len(rows):,} | {cut / max(len(rows), 1):.0%} | {nodes_all:,} | "
        f"{nodes_cut / max(nodes_all, 1):.0%} | {bound_seconds / max(len(rows), 1) * 1e6:.0f} | "
        f"{saved:.2f} | {bound_seconds:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=11)
    parser.add_argument("--target", type=int, default=18, help="default: a(11) + 1")
    parser.add_argument("--depths", default="14,18,20,22")
    args = parser.parse_args()
    g = geometry(Board(args.n, args.n), QUEEN)
    measure(args.n, args.target, 4, 0.0)  # compile first
    nodes, seconds = whole_search(g, args.target)
    per_node = seconds / nodes
    print(
        f"n = {args.n}, target {args.target}; ranks and files fill depths 0..{g.symmetric}; "
        f"the whole search: {nodes:,} nodes in {seconds:.2f} s ({per_node * 1e9:.0f} ns a node)"
    )
    print("| depth | nodes kept | joint cuts | engine nodes below | of them cut | µs per bound "
          "| s saved | s spent |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for depth in (int(d) for d in args.depths.split(",")):
        print(measure(args.n, args.target, depth, per_node))


def whole_search(g: Geometry, target: int) -> tuple[int, float]:
    """Nodes and seconds of the engine's own search for ``target`` on one core."""
    started = time.perf_counter()
    _, _, nodes, _, _, _ = call(
        g, np.zeros(0, np.int8), -1, np.zeros((1, 1), np.int8), False, np.array([0, target])
    )
    return nodes, time.perf_counter() - started


if __name__ == "__main__":
    main()
