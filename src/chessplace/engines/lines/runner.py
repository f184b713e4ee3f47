"""Cut the line search into chunks and run them on threads over every core, or on Dask.

The chunks are the nodes at a split depth that depends on the geometry
alone (the shallowest even depth with at least ``min_chunks`` nodes when
no bound cuts: :data:`MIN_CHUNKS` for the cores, more on a cluster, see
:func:`dask_chunks`), so every run names the same chunks; a run resumed
from a checkpoint takes the depth the checkpoint was written at, so a
proof started on the cores can go on on a cluster and back. Those the
bounds for the target keep are searched, each to the end by one compiled
call (``nogil``, so threads run truly in parallel). Threads take chunks
from a shared queue, share the best value found (a rising target cuts
everywhere) and a stop flag the control's stop or time limit raises (Dask:
:mod:`chessplace.engines.lines.cluster`). With a checkpoint each finished
chunk is recorded, and a chunk whose record already proves it below the
target is not searched again.
"""

from __future__ import annotations

import hashlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from chessplace.engines.lines import kernel
from chessplace.engines.lines.checkpoint import (
    KNOWN,
    check_search_journal,
    recorded_depth,
    search_journal,
)
from chessplace.engines.lines.chunk import Finished, call
from chessplace.engines.lines.geometry import Geometry
from chessplace.runtime.control import Control
from chessplace.runtime.journal import Journal, recorded_header

MIN_CHUNKS = 2048
"""On the cores the split depth is the shallowest with at least this many chunks
(before bounds)."""

MAX_CHUNKS = 1 << 21
"""The most chunks a split may make."""


def dask_chunks(side: int) -> int:
    """The least number of chunks (before bounds) on a cluster for a board of ``side``:
    as on the cores up to 14, then doubling per side up to 65,536. For queens that
    is 4,708 chunks (depth 16) up to side 15, 18,752 (depth 18) for 16 and 17 and
    70,024 (depth 20) from 18 on, so that no chunk of a large board keeps a worker
    for long and a stop loses little."""
    return min(MIN_CHUNKS << max(0, side - 14), 1 << 16)


@dataclass
class Outcome:
    """What a search found: the best value and its labels by line (``None`` when
    nothing reached the target), whether every chunk was searched, nodes visited
    and chunks taken from a checkpoint."""

    value: int | None
    labels: np.ndarray | None
    complete: bool
    nodes: int
    resumed: int = 0

    def offer(self, value: int, labels: np.ndarray) -> None:
        if self.value is None or value > self.value:
            self.value, self.labels = value, labels


class LineSearch:
    """Search one geometry for labellings whose smallest army reaches a target, on
    ``workers`` threads (default: every core) or on the Dask cluster of ``client``
    (a ``distributed.Client``)."""

    def __init__(
        self,
        geometry: Geometry,
        workers: int | None = None,
        checkpoint: Path | None = None,
        client: Any = None,
        min_chunks: int = MIN_CHUNKS,
        white_target: int | None = None,
    ) -> None:
        """With ``white_target`` the search is for armies of different sizes: at least
        that many white, and targets and values count black (the geometry must then
        have no colour swap)."""
        self.geometry = geometry
        self.workers = workers
        self.checkpoint = checkpoint
        self.client = client
        self.min_chunks = min_chunks
        self.white_target = white_target

    def shared(self, target: int) -> np.ndarray:
        """The array the compiled search shares: stop flag, target (and white target)."""
        extra = [] if self.white_target is None else [self.white_target]
        return np.array([0, target, *extra], dtype=np.int64)

    def run(
        self, target: int, maximize: bool, control: Control, known: np.ndarray | None = None
    ) -> Outcome:
        """The first labelling reaching ``target`` or, with ``maximize``, the best one.
        ``known`` (labels by line) is a labelling already found, kept in the checkpoint."""
        shared = self.shared(target)
        outcome = Outcome(None, None, True, 0)
        depth = self._depth()
        book = self._book(depth) if self.checkpoint else None
        try:
            if book is not None:
                if known is not None and KNOWN not in book.done:
                    book.record(KNOWN, 0, chunk_key(known))
                for record in book.done.values():
                    if record.witness is not None:
                        labels = np.frombuffer(record.witness.encode(), np.uint8) - ord("0")
                        value = self.value(labels)
                        if value >= target:
                            outcome.offer(value, labels.astype(np.int32))
                        if maximize:
                            shared[1] = max(int(shared[1]), value + 1)
            if outcome.value is not None and not maximize:
                return outcome
            with control.interrupting(lambda: shared.__setitem__(0, 1)):
                prefixes, outcome.nodes = self.split(depth, shared)
                if prefixes is None:
                    outcome.complete = False
                    return outcome
                return self._chunks(prefixes, depth, maximize, shared, outcome, control, book)
        finally:
            if book is not None:
                book.close()

    def check_checkpoint(self) -> None:
        """Refuse a checkpoint of another search before any work, from its header
        (:class:`~chessplace.runtime.journal.CheckpointMismatch`)."""
        if self.checkpoint is not None:
            depth = recorded_depth(self.checkpoint)
            check_search_journal(self.checkpoint, self._header(-1 if depth is None else depth))

    def written_by_this_search(self) -> bool:
        """Whether the checkpoint exists and its header names this geometry."""
        if self.checkpoint is None:
            return False
        header = recorded_header(self.checkpoint)
        return header is not None and header.get("geometry") == geometry_digest(self.geometry)

    def value(self, labels: np.ndarray) -> int:
        """The smallest army of a full labelling (labels by line); with a white target,
        black (-1 when white falls short)."""
        g = self.geometry
        colours = np.asarray(labels)[g.through]
        armies = [int(((colours == c).all(axis=1) & g.free).sum()) for c in range(g.colours)]
        if self.white_target is not None:
            black, white = armies
            return black if white >= self.white_target else -1
        return min(armies)

    def _depth(self) -> int:
        """The split depth of the checkpoint being resumed, else :meth:`split_depth`."""
        if self.checkpoint is not None:
            depth = recorded_depth(self.checkpoint)
            if depth is not None and 0 <= depth < max(self.geometry.lines, 1):
                return depth
        return self.split_depth()

    def _book(self, depth: int) -> Journal:
        assert self.checkpoint is not None
        return search_journal(self.checkpoint, self._header(depth), self.geometry.lines)

    def _header(self, depth: int) -> dict[str, Any]:
        """What the checkpoint of this search, split at ``depth``, pins."""
        g = self.geometry
        header: dict[str, Any] = {
            "rows": g.board.rows,
            "cols": g.board.cols,
            "depth": depth,
            "geometry": geometry_digest(g),
        }
        if self.white_target is not None:
            header["white"] = self.white_target
        if g.colours != 2:
            header["armies"] = g.colours
        return header

    def prefixes(self, depth: int, target: int = 0) -> np.ndarray:
        """Labels (by line, -1 for none) of every node at ``depth`` that the bounds for
        ``target`` and the symmetry check keep."""
        rows, _ = self.split(depth, self.shared(target))
        assert rows is not None
        return rows

    def split(self, depth: int, shared: np.ndarray) -> tuple[np.ndarray | None, int]:
        """:meth:`prefixes` for the target ``shared[1]``, and the nodes visited;
        ``None`` for the rows when ``shared[0]`` asked for a stop."""
        rows = MIN_CHUNKS
        while True:
            out = np.zeros((rows, self.geometry.lines), dtype=np.int8)
            status, _, nodes, written, _, _ = call(
                self.geometry, np.zeros(0, dtype=np.int8), depth, out, False, shared
            )
            if status != kernel.FULL:
                break
            if rows == MAX_CHUNKS:
                raise ValueError(f"more than {MAX_CHUNKS} nodes at depth {depth}")
            rows *= 4
        if status == kernel.STOPPED:
            return None, nodes
        return out[:written].copy(), nodes

    def split_depth(self) -> int:
        """The shallowest even depth (from 4) with at least ``min_chunks`` nodes
        before bounds, or the deepest useful one on small boards."""
        deepest = max(self.geometry.lines - 1, 0)
        depth = min(deepest, 4)
        while depth < deepest:
            try:
                if len(self.prefixes(depth)) >= self.min_chunks:
                    break
            except ValueError:  # more than MAX_CHUNKS
                break
            depth = min(deepest, depth + 2)
        return depth

    def _chunks(
        self,
        prefixes: np.ndarray,
        depth: int,
        maximize: bool,
        shared: np.ndarray,
        outcome: Outcome,
        control: Control,
        book: Journal | None,
    ) -> Outcome:
        order = self.geometry.order[:depth]
        keys = [chunk_key(row[order]) for row in prefixes]
        done = book.done if book is not None else {}
        queue = [i for i, key in enumerate(keys) if key not in done or done[key].below > shared[1]]
        outcome.resumed = len(keys) - len(queue)
        lock = threading.Lock()
        state = {"done": outcome.resumed}
        total = len(keys)
        control.report(objective=outcome.value, done=state["done"], total=total)

        def finish(
            position: int, status: int, best: int, nodes: int, below: int, witness: np.ndarray
        ) -> bool:
            with lock:
                outcome.nodes += nodes
                if best >= 0:
                    outcome.offer(best, witness)
                    shared[1] = max(int(shared[1]), best + 1)
                if status == kernel.STOPPED:
                    outcome.complete = False
                    return True
                found = status == kernel.FOUND
                if book is not None:
                    text = chunk_key(witness) if best >= 0 else None
                    book.record(keys[queue[position]], 0 if found else below, text)
                if found:
                    shared[0] = 1
                    return True
                state["done"] += 1
                control.report(objective=outcome.value, done=state["done"], total=total)
                return False

        jobs = prefixes[queue]
        if self.client is None:
            self._threads(jobs, maximize, shared, control, finish)
        else:
            from chessplace.engines.lines.cluster import run_chunks

            run_chunks(self.client, self.geometry, jobs, maximize, shared, control, finish)
        if state["done"] < total and (maximize or outcome.value is None):
            outcome.complete = False
        resumed = f", {outcome.resumed:,} chunks from the checkpoint" if outcome.resumed else ""
        control.report(
            objective=outcome.value,
            done=state["done"],
            total=total,
            message=(
                f"{outcome.nodes:,} nodes, {state['done']:,} of {total:,} chunks done{resumed}"
                if total
                else f"{outcome.nodes:,} nodes: the bounds cut every chunk"
            ),
        )
        return outcome

    def _threads(
        self,
        jobs: np.ndarray,
        maximize: bool,
        shared: np.ndarray,
        control: Control,
        finish: Finished,
    ) -> None:
        """Search ``jobs`` (prefixes) on threads until done or ``finish`` says stop."""
        lock = threading.Lock()
        taken = [0]
        dummy = np.zeros((1, 1), dtype=np.int8)

        def work() -> None:
            while True:
                with lock:
                    if taken[0] >= len(jobs) or shared[0] != 0 or control.stopped:
                        return
                    position = taken[0]
                    taken[0] += 1
                status, best, nodes, _, below, witness = call(
                    self.geometry, jobs[position], -1, dummy, maximize, shared
                )
                if finish(position, status, best, nodes, below, witness):
                    return

        workers = self.workers or os.cpu_count() or 1
        with ThreadPoolExecutor(workers) as pool:
            for future in [pool.submit(work) for _ in range(workers)]:
                future.result()


def geometry_digest(g: Geometry) -> str:
    """The SHA-256 a checkpoint's header pins its search by: the lines, the order, the
    symmetries and the blocked squares (two-colour checkpoints of an open board keep
    the digest they were written with)."""
    digest = hashlib.sha256()
    arrays = [g.members, g.start, g.family_start, g.order, g.source, g.swap]
    if g.colours != 2:
        arrays.append(g.recolour)
    if not g.free.all():
        arrays.append(g.free)
    for array in arrays:
        digest.update(np.ascontiguousarray(array, dtype=np.int32).tobytes())
    return digest.hexdigest()


def chunk_key(labels: np.ndarray) -> str:
    """Labels (one colour each) as a string of digits: a chunk's key in a checkpoint."""
    return (np.asarray(labels, dtype=np.uint8) + ord("0")).tobytes().decode()
