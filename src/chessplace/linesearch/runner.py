"""Cut the line search into chunks and run them on threads over every core.

A first, shallow search writes the labels of every node that survives the
bounds and the symmetry check at a split depth; each such prefix is one
chunk, searched to the end by one compiled call (``nogil``, so threads run
truly in parallel). Threads share the best value found (so a rising target
cuts everywhere) and a stop flag the control's stop or time limit raises.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from chessplace.control import Control
from chessplace.linesearch import kernel
from chessplace.linesearch.bounds import product_table
from chessplace.linesearch.geometry import Geometry

CHUNKS_PER_WORKER = 256
"""Aim for at least this many chunks per thread, so that the work evens out."""

MAX_CHUNKS = 1 << 16


@dataclass
class Outcome:
    """What a search found: the best value and its labels by line (``None`` when
    nothing reached the target), and whether every chunk was searched."""

    value: int | None
    labels: np.ndarray | None
    complete: bool
    nodes: int


class LineSearch:
    """Search one geometry for labellings with min(white, black) >= a target."""

    def __init__(self, geometry: Geometry, workers: int | None = None) -> None:
        self.geometry = geometry
        self.workers = workers or os.cpu_count() or 1
        board = geometry.board
        self.table = (
            product_table(board.rows, board.cols)
            if geometry.product
            else np.zeros((1, 1, 1, 1), dtype=np.int32)
        )

    def run(self, target: int, maximize: bool, control: Control) -> Outcome:
        """The first labelling reaching ``target`` or, with ``maximize``, the best one."""
        shared = np.array([0, target], dtype=np.int64)
        with control.interrupting(lambda: shared.__setitem__(0, 1)):
            prefixes, outcome = self._split(target, maximize, shared)
            if outcome.value is not None and not maximize:
                return outcome
            if outcome.value is not None:
                shared[1] = outcome.value + 1
            return self._chunks(prefixes, maximize, shared, outcome, control)

    def _call(
        self, prefix: np.ndarray, split: int, out: np.ndarray, maximize: bool, shared: np.ndarray
    ) -> tuple[int, int, int, int, np.ndarray]:
        g = self.geometry
        witness = np.zeros(g.lines, dtype=np.int32)
        status, best, nodes, written = kernel.search(
            g.start,
            g.length,
            g.members,
            g.through,
            g.family_start,
            g.order,
            g.symmetric,
            g.source,
            g.swap,
            g.product,
            self.table,
            prefix,
            split,
            out,
            int(shared[1]),
            maximize,
            shared,
            witness,
        )
        return int(status), int(best), int(nodes), int(written), witness

    def prefixes(self, depth: int, target: int = 0) -> np.ndarray:
        """Labels (by line, -1 for none) of every node at ``depth`` that the bounds for
        ``target`` and the symmetry check keep."""
        out = np.zeros((MAX_CHUNKS, self.geometry.lines), dtype=np.int8)
        shared = np.array([0, target], dtype=np.int64)
        status, _, _, written, _ = self._call(
            np.zeros(0, dtype=np.int32), depth, out, False, shared
        )
        if status == kernel.FULL:
            raise ValueError(f"more than {MAX_CHUNKS} nodes at depth {depth}")
        return out[:written].copy()

    def _split(self, target: int, maximize: bool, shared: np.ndarray) -> tuple[np.ndarray, Outcome]:
        """Prefixes deep enough to give every thread many chunks (or the whole
        search, on small boards)."""
        g = self.geometry
        empty = np.zeros(0, dtype=np.int8)
        deepest = max(g.lines - 1, 0)
        depth = min(deepest, 4)
        previous = np.zeros((0, g.lines), dtype=np.int8)
        while True:
            out = np.zeros((MAX_CHUNKS, g.lines), dtype=np.int8)
            status, best, nodes, written, witness = self._call(empty, depth, out, maximize, shared)
            found = best if best >= target else None
            outcome = Outcome(found, witness if found is not None else None, True, nodes)
            if status == kernel.STOPPED:
                outcome.complete = False
                return previous[:0], outcome
            if status == kernel.FULL:
                return previous, outcome
            current = out[:written].copy()
            enough = written >= CHUNKS_PER_WORKER * self.workers and depth >= g.symmetric // 2
            if enough or depth == deepest:
                return current, outcome
            previous, depth = current, min(deepest, depth + 2)

    def _chunks(
        self,
        prefixes: np.ndarray,
        maximize: bool,
        shared: np.ndarray,
        outcome: Outcome,
        control: Control,
    ) -> Outcome:
        lock = threading.Lock()
        state = {"next": 0, "done": 0}
        total = len(prefixes)
        dummy = np.zeros((1, 1), dtype=np.int8)

        def work() -> None:
            while True:
                with lock:
                    index = state["next"]
                    if index >= total or shared[0] != 0 or control.stopped:
                        return
                    state["next"] = index + 1
                status, best, nodes, _, witness = self._call(
                    prefixes[index], -1, dummy, maximize, shared
                )
                with lock:
                    outcome.nodes += nodes
                    if best >= 0 and (outcome.value is None or best > outcome.value):
                        outcome.value, outcome.labels = best, witness
                        shared[1] = max(int(shared[1]), best + 1)
                    if status == kernel.STOPPED:
                        outcome.complete = False
                        return
                    if status == kernel.FOUND and not maximize:
                        shared[0] = 1
                        return
                    state["done"] += 1
                    control.report(objective=outcome.value, done=state["done"], total=total)

        with ThreadPoolExecutor(self.workers) as pool:
            for future in [pool.submit(work) for _ in range(self.workers)]:
                future.result()
        if state["done"] < total and (maximize or outcome.value is None):
            outcome.complete = False
        return outcome
