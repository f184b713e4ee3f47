"""Running a plan's prefixes on every GPU in slices: progress, stop and checkpoints.

Each device takes the next slice of prefixes not yet counted, sized to
about :data:`SLICE_SECONDS` of its work, and keeps two slices in flight (on
two streams) so the tail of one overlaps the start of the next. A stop or
the time limit sets a flag the kernels read, and they return within
milliseconds; the prefixes they finished still count toward the partial
total, and only whole slices are written to the checkpoint.
"""

from __future__ import annotations

import concurrent.futures as cf
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from chessplace.engines.gpu.checkpoint import finished_ranges, slice_journal, slice_key
from chessplace.engines.gpu.codegen import Launch
from chessplace.engines.gpu.kernel import Counted, Running, processors, stop_flag, to_device
from chessplace.engines.gpu.prefixes import Plan
from chessplace.engines.support.tally import Tally
from chessplace.runtime.control import Control
from chessplace.runtime.journal import Journal

SLICE_SECONDS = 1.0
"""Work per slice: a checkpoint record and a progress report about this often."""

IN_FLIGHT = 2
"""Slices each device runs at once."""

FIRST_SLICE_PER_THREAD = 2
"""Prefixes per resident thread in a device's first slice, before its speed is known."""


@dataclass
class _Gaps:
    """The ranges of prefixes not yet handed out, cut into slices on request."""

    ranges: deque[tuple[int, int]]
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, size: int) -> tuple[int, int] | None:
        with self.lock:
            if not self.ranges:
                return None
            start, end = self.ranges.popleft()
            if end - start > size:
                self.ranges.appendleft((start + size, end))
                end = start + size
            return start, end


def _gaps(size: int, done: list[tuple[int, int]]) -> deque[tuple[int, int]]:
    """The ranges of ``0..size`` outside the ``done`` ranges (sorted, disjoint)."""
    gaps: deque[tuple[int, int]] = deque()
    at = 0
    for start, end in done:
        if at < start:
            gaps.append((at, start))
        at = end
    if at < size:
        gaps.append((at, size))
    return gaps


class _Count:
    """The totals of one count, shared by the devices' threads."""

    def __init__(self, plan: Plan, control: Control, record: Journal | None) -> None:
        self.plan = plan
        self.control = control
        self.record = record
        self.lock = threading.Lock()
        done = finished_ranges(record.done) if record else []
        self.gaps = _Gaps(_gaps(plan.size, done))
        finished = record.done.values() if record else ()
        self.solutions = sum(f.solutions for f in finished)
        self.canonical = sum(f.canonical for f in finished)
        self.prefixes = sum(end - start for start, end in done)
        self.resumed = len(done)
        self.flags: list[np.ndarray] = []

    def add(self, start: int, end: int, counted: Counted) -> None:
        """Add a slice's finished prefixes; record the slice if all are."""
        finished = counted.done.astype(bool)
        solutions = int(counted.found[finished].sum())
        canonical = int(counted.classes[finished].sum())
        with self.lock:
            self.solutions += solutions
            self.canonical += canonical
            self.prefixes += int(finished.sum())
            if self.record and finished.all():
                self.record.record(slice_key(start, end), solutions, canonical)
            self.control.report(count=self.solutions, done=self.prefixes, total=self.plan.size)

    def stop(self) -> None:
        for flag in self.flags:
            flag[0] = 1


def run_count(
    plan: Plan,
    launch: Launch,
    piece: str,
    control: Control,
    devices: int,
    checkpoint: Path | None = None,
) -> Tally:
    """Count every prefix not already in the checkpoint, on ``devices`` GPUs; ``piece``
    (Betza) is the piece's name for the checkpoint."""
    header = {
        "n": plan.shape.n,
        "piece": piece,
        "method": "gpu-mirror" if plan.mirror else "gpu-classes",
        "rows": plan.rows,
        "prefixes": plan.size,
    }
    return _run(plan, launch, control, devices, header, checkpoint)


def _run(
    plan: Plan,
    launch: Launch,
    control: Control,
    devices: int,
    header: dict[str, Any],
    checkpoint: Path | None,
) -> Tally:
    record = slice_journal(checkpoint, header, plan.size) if checkpoint else None
    try:
        count = _Count(plan, control, record)
        control.report(count=count.solutions, done=count.prefixes, total=plan.size)
        with (
            control.interrupting(count.stop),
            cf.ThreadPoolExecutor(max_workers=devices) as pool,
        ):
            runs = [pool.submit(_device, index, count, launch) for index in range(devices)]
            for run in runs:
                run.result()
    finally:
        if record:
            record.close()
    return Tally(
        count.solutions, count.canonical, count.prefixes == plan.size, resumed=count.resumed
    )


def _device(index: int, count: _Count, launch: Launch) -> None:
    """One device's share: slices from the common gaps until none is left or a stop."""
    from numba import cuda

    with cuda.gpus[index]:
        flag = stop_flag()
        with count.lock:
            count.flags.append(flag)
        if count.control.stopped:
            return
        forbid = to_device(count.plan.forbid)
        least = launch.block * processors()
        size = least * FIRST_SLICE_PER_THREAD
        flying: deque[tuple[int, int, Running]] = deque()
        last = time.monotonic()
        while True:
            while len(flying) < IN_FLIGHT and not count.control.stopped:
                taken = count.gaps.take(size)
                if taken is None:
                    break
                start, end = taken
                running = Running(launch, forbid, count.plan.tasks[start:end], flag)
                flying.append((start, end, running))
            if not flying:
                return
            start, end, running = flying.popleft()
            count.add(start, end, running.result())
            now = time.monotonic()  # the device's pace: prefixes since its last slice ended
            size = max(least, int((end - start) / max(now - last, 1e-3) * SLICE_SECONDS))
            last = now
