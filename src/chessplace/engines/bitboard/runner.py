"""Running a count's subproblems on local threads or a Dask cluster, with checkpoints."""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from chessplace.engines.bitboard.checkpoint import Finished, count_journal
from chessplace.engines.bitboard.kernel import stop_flag
from chessplace.engines.bitboard.pawns import (
    PawnTask,
    Position,
    count_task,
    digest,
    pawn_classes,
    pawn_tasks,
)
from chessplace.engines.bitboard.split import CountSpec, Subproblem
from chessplace.engines.bitboard.tasks import count_prefix
from chessplace.engines.support.tally import Tally
from chessplace.runtime.cluster import DASK_CONNECT_SECONDS, connect_seconds, dask_client
from chessplace.runtime.control import Control


@contextmanager
def executor(
    workers: int | None, dask: str | None, connect: float = DASK_CONNECT_SECONDS
) -> Iterator[cf.Executor]:
    """Local threads (the kernel releases the GIL), or a Dask cluster (see
    :func:`chessplace.runtime.cluster.dask_client`)."""
    if dask is None:
        with cf.ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
            yield pool
        return
    with dask_client(workers, dask, connect) as client:
        yield client.get_executor(pure=False)


def run_count(
    spec: CountSpec,
    tasks: list[Subproblem],
    control: Control,
    workers: int | None = None,
    dask: str | None = None,
    checkpoint: Path | None = None,
    interpret: bool = False,
) -> Tally:
    """Count every subproblem not already in the checkpoint (``interpret``: by the
    search in plain Python); stop early on request.

    On local threads a stop reaches the searches under way through a shared
    flag (they return within milliseconds, their work discarded, never
    checkpointed); Dask workers cannot share it, so there a stop only
    cancels the subproblems not yet started.
    """
    header: dict[str, Any] = {
        "n": spec.n,
        "piece": spec.betza,
        "method": "plain" if spec.plain else "classes",
        "tasks": len(tasks),
        "first": tasks[0].key if tasks else "",
    }
    if spec.plain:
        header["forbid"] = list(spec.forbid)
    weights = {task.key: task.weight for task in tasks}
    record = count_journal(checkpoint, header, weights) if checkpoint else None
    done = set(record.done) if record else set()
    solutions = sum(weights[k] * s for k, (s, _) in (record.done.items() if record else ()))
    classes = sum(c for _, c in (record.done.values() if record else ()))
    resumed = len(done)
    pending = [task for task in tasks if task.key not in done]
    stop = stop_flag() if dask is None else None
    said = f"resumed: {resumed:,} of {len(tasks):,} parts done" if resumed else ""
    control.report(count=solutions, done=len(done), total=len(tasks), message=said)

    def submit(pool: cf.Executor, task: Subproblem) -> cf.Future[Any]:
        return pool.submit(count_prefix, spec, task.prefix, stop, interpret)

    try:
        for task, (found, found_classes) in _counted_parts(
            pending, submit, stop, control, workers, dask
        ):
            done.add(task.key)
            solutions += task.weight * found
            classes += found_classes
            if record:
                record.record(task.key, found, found_classes)
            control.report(count=solutions, done=len(done), total=len(tasks))
    finally:
        if record:
            record.close()
    return Tally(solutions, classes, finished=len(done) == len(tasks), resumed=resumed)


Part = TypeVar("Part")


def _counted_parts(
    pending: list[Part],
    submit: Callable[[cf.Executor, Part], cf.Future[Any]],
    stop: np.ndarray | None,
    control: Control,
    workers: int | None,
    dask: str | None,
) -> Iterator[tuple[Part, tuple[int, int]]]:
    """Each part of ``pending`` with its count as it finishes, on local threads or Dask;
    parts not started or stopped before they finished are left out. A stop of
    ``control`` reaches the searches under way through ``stop`` (local threads) and
    cancels the parts not started."""
    with executor(workers, dask, connect_seconds(control.remaining())) as pool:
        futures = {submit(pool, part): part for part in pending}
        with control.interrupting(lambda: _interrupt(stop, futures)):
            for future in cf.as_completed(futures):
                if future.cancelled() or (counted := future.result()) is None:
                    continue
                yield futures[future], counted
                if control.stopped:
                    _interrupt(stop, futures)


def _interrupt(stop: np.ndarray | None, futures: dict[cf.Future[Any], Any]) -> None:
    """Stop the searches under way (sharing ``stop``) and cancel those not started."""
    if stop is not None:
        stop[0] = 1
    for future in futures:
        future.cancel()


def run_pawn_count(
    position: Position,
    control: Control,
    workers: int | None = None,
    dask: str | None = None,
    checkpoint: Path | None = None,
) -> Tally:
    """Count one queen per segment (:mod:`chessplace.engines.bitboard.pawns`) over every
    subproblem not already in the checkpoint; stop early on request, as
    :func:`run_count` does. ``Tally.canonical`` counts the classes under the
    position's symmetries."""
    # Only a count with pawns to place chooses their squares; with none the classes
    # are the one set of given pawns, found at once: no stage worth naming.
    choosing = "choosing the pawns' squares" if position.free_pawns else ""
    control.report(count=0, message=choosing)
    classes = pawn_classes(position, lambda: control.stopped)
    if classes is None:
        return Tally(0, 0, finished=False, resumed=0)
    tasks = pawn_tasks(position, classes)
    header: dict[str, Any] = {
        **position.header(),
        "classes": len(classes),
        "digest": digest(classes),
        "tasks": len(tasks),
    }
    record = count_journal(checkpoint, header, (t.key for t in tasks)) if checkpoint else None
    finished = dict(record.done) if record else {}
    solutions = sum(s for s, _ in finished.values())
    scaled = sum(c for _, c in finished.values())
    resumed = len(finished)
    pending = [task for task in tasks if task.key not in finished]
    stop = stop_flag() if dask is None else None
    said = f"resumed: {resumed:,} of {len(tasks):,} parts done" if resumed else ""
    control.report(count=solutions, done=len(finished), total=len(tasks), message=said)

    def submit(pool: cf.Executor, task: PawnTask) -> cf.Future[Any]:
        return pool.submit(
            count_task, position, [classes[i] for i in task.classes], task.prefix, stop
        )

    try:
        for task, (found, found_scaled) in _counted_parts(
            pending, submit, stop, control, workers, dask
        ):
            finished[task.key] = Finished(found, found_scaled)
            solutions += found
            scaled += found_scaled
            if record:
                record.record(task.key, found, found_scaled)
            control.report(count=solutions, done=len(finished), total=len(tasks))
    finally:
        if record:
            record.close()
    group = len(position.group())
    done = len(finished) == len(tasks)
    if done and scaled % group:
        raise AssertionError(f"the classes' sum {scaled} is not a multiple of {group}")
    return Tally(solutions, scaled // group, finished=done, resumed=resumed)
