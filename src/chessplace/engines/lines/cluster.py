"""The line search's chunks on a Dask cluster.

The driver ships the geometry to every worker once and sends chunks in
batches, a few batches per worker thread in flight, each with the best
target known when it leaves (so a better army found anywhere cuts every
batch sent after it). A worker searches a batch's chunks in turn and
returns after :data:`BATCH_SECONDS` with those it finished; the driver puts
the others back at the head of the queue. Small chunks thus share the cost
of a Dask task (milliseconds) while a large one still returns alone.

A stop (the control's, its time limit, or an army found when solving)
cancels the futures; a worker notices within :data:`POLL_SECONDS` that its
running batch was cancelled and stops it through the kernel's stop flag,
so the cluster is free again within a second and a resumed run does not
queue behind the old one. :func:`search_chunks` is what a worker runs: it
takes plain, picklable values and is importable by name.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import Finished, call
from chessplace.engines.lines.geometry import Geometry
from chessplace.runtime.control import Control

POLL_SECONDS = 0.25
"""How often the driver looks for a stop, and a worker for its batch's cancellation."""

BATCH = 64
"""The most chunks sent in one task."""

BATCH_SECONDS = 1.0
"""A worker returns its batch's finished chunks once it has searched this long."""

IN_FLIGHT = 4
"""Batches sent ahead per worker thread."""

RECOUNT_SECONDS = 5.0
"""How often the driver asks the scheduler how many worker threads there are."""

Searched = tuple[int, int, int, int, np.ndarray | None]
"""One chunk searched: status, best value (-1: none), nodes, bound, witness (with a best)."""

_NOWHERE = np.zeros((1, 1), dtype=np.int8)


def search_chunks(g: Geometry, prefixes: np.ndarray, target: int, maximize: bool) -> list[Searched]:
    """Search below each of ``prefixes`` in turn for ``target`` (raised by the armies
    found when maximizing), until :data:`BATCH_SECONDS` have passed, an army is found
    when solving, or the task is cancelled; what each finished chunk gave."""
    shared = np.array([0, target], dtype=np.int64)
    started = time.monotonic()
    done: list[Searched] = []
    with _stopped_when_cancelled(shared):
        for prefix in prefixes:
            status, best, nodes, _, below, witness = call(g, prefix, -1, _NOWHERE, maximize, shared)
            if status == kernel.STOPPED:
                break
            done.append((status, best, nodes, below, witness if best >= 0 else None))
            if best >= 0:
                shared[1] = max(int(shared[1]), best + 1)
            if status == kernel.FOUND or time.monotonic() - started >= BATCH_SECONDS:
                break
    return done


@contextmanager
def _stopped_when_cancelled(shared: np.ndarray) -> Iterator[None]:
    """Raise the stop flag ``shared[0]`` once this task is cancelled on its worker."""
    from distributed import get_worker

    try:
        worker = get_worker()
    except ValueError:  # not on a Dask worker
        yield
        return
    key = worker.get_current_task()
    finished = threading.Event()

    def watch() -> None:
        while not finished.wait(POLL_SECONDS):
            task = worker.state.tasks.get(key)
            if task is None or task.state in ("cancelled", "released", "forgotten"):
                shared[0] = 1
                return

    threading.Thread(target=watch, daemon=True).start()
    try:
        yield
    finally:
        finished.set()


def run_chunks(
    client: Any,
    g: Geometry,
    jobs: np.ndarray,
    maximize: bool,
    shared: np.ndarray,
    control: Control,
    finish: Finished,
) -> None:
    """Search ``jobs`` (prefixes) on the cluster of ``client`` until all are done,
    ``finish`` says stop, ``shared[0]`` is raised or ``control`` stops."""
    shipped = client.scatter(g, broadcast=True, hash=False)
    queue = deque(range(len(jobs)))
    running: dict[Any, list[int]] = {}
    window, counted = _window(client), time.monotonic()
    try:
        while not (shared[0] or control.stopped):
            if time.monotonic() - counted > RECOUNT_SECONDS:
                window, counted = _window(client), time.monotonic()
            while queue and len(running) < window:
                batch = [queue.popleft() for _ in range(min(BATCH, len(queue)))]
                future = client.submit(
                    search_chunks, shipped, jobs[batch], int(shared[1]), maximize, pure=False
                )
                running[future] = batch
            if not running:
                return
            for future in _finished(list(running)):
                batch = running.pop(future)
                searched = _result(future)
                queue.extendleft(reversed(batch[len(searched) :]))
                for position, (status, best, nodes, below, witness) in zip(
                    batch, searched, strict=False
                ):
                    if witness is None:
                        witness = np.zeros(g.lines, dtype=np.int32)
                    if finish(position, status, best, nodes, below, witness):
                        return
    finally:
        client.cancel(list(running))


def _window(client: Any) -> int:
    """Chunks to keep in flight: :data:`IN_FLIGHT` per worker thread (at least one)."""
    threads: int = sum(client.nthreads().values())
    return IN_FLIGHT * max(1, threads)


def _finished(futures: list[Any]) -> list[Any]:
    """The futures done within :data:`POLL_SECONDS` (none when none is); tasks the
    cluster dropped (a lost scheduler, every worker holding the geometry gone) as one
    line (``ConnectionError``)."""
    from distributed import wait

    try:
        done, _ = wait(futures, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
    except TimeoutError:
        return []
    except Exception as error:
        reasons = [line for line in str(error).splitlines() if "reason" in line]
        why = reasons[-1].strip().rstrip(".") if reasons else type(error).__name__
        raise ConnectionError(f"the Dask cluster dropped the search's tasks ({why})") from None
    return list(done)


def _result(future: Any) -> list[Searched]:
    """A batch's result; a worker's failure as one line (``ConnectionError``)."""
    try:
        result: list[Searched] = future.result()
    except Exception as error:
        first = (str(error).splitlines() or [""])[0]
        raise ConnectionError(
            f"a Dask worker failed on a chunk: {type(error).__name__}: {first}"
        ) from None
    return result
