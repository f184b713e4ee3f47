"""What one web server allows: board sizes per task, seconds, bodies, workers and queues."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any

from chessplace.forms.svg import MAX_DRAWN

TASKS = ("solve", "optimize", "count", "solutions", "verify", "render", "generate")

DEFAULT_SIDES = {
    "solve": 256,  # constructions answer large queens boards at once
    "optimize": 64,
    "count": 32,
    "solutions": 32,
    "verify": 128,
    "render": MAX_DRAWN,  # the largest board the SVG drawing takes
    "generate": 12,  # a unique 12×12 Queens game takes seconds; larger ones may take minutes
}


SMALL_SQUARES = {
    "solve": 64,
    "solutions": 64,
    "verify": 64,  # a hint is checked as a verify: a region grid of up to 8×8
    "render": 64,
    "count": 36,
    "optimize": 36,
}
"""The largest board, in squares, of a small job per task (none for generate).

A job is *small* when its board is at most this size: an 8×8 board for solve,
the solutions list, verify, hint and render, 6×6 for count and optimize (whose
searches grow fastest with the board). The rule reads only the request, before
any work: the engines answer such boards in milliseconds (a fresh worker's
first count loads its compiled kernel in under a second). Since a few small
boards are still hard (proving 11 peaceable queens impossible on 8×8 takes
CP-SAT some 20 s), size alone bounds nothing; the small lane does: it gives each
job at most ``Limits.small_seconds``, and a job its lane stopped there (asking
for more) moves to the back of the ordinary line and runs again under its own
limit. So a small worker is never held longer than ``small_seconds`` (plus the
grace, for an engine that ignores the stop), and a small job waits at most for
the small jobs before it.
"""

DEFAULT_SECONDS = 20.0
"""The seconds a job gets when it names none."""

LEAST_MEMORY_MB = 256
"""The smallest memory cap a worker can work under (its imports alone take about 200 MiB)."""


class LimitError(ValueError):
    """A request over the server's limits: a 400 with this one-line message."""


@dataclass(frozen=True)
class Limits:
    """The bounds a server enforces; every field can be set by ``create_app(limits=…)``."""

    sides: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_SIDES))
    default_seconds: float = DEFAULT_SECONDS
    max_seconds: float = 120.0
    grace_seconds: float = 5.0  # past its limit (or a cancel) a job's worker is killed
    body_bytes: int = 1 << 20
    answer_bytes: int = 8 << 20
    pieces: int = 4096
    offset: int = 1000
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    queue: int = 64
    small_workers: int = 1  # reserved for small jobs, on top of ``workers``; 0: one line
    small_queue: int = 64  # small jobs that may wait for a small worker
    small_seconds: float = 3.0  # the most a small worker gives a job before it moves on
    memory_mb: int = 2048  # per worker process (RLIMIT_DATA); 0 for no cap
    inline_cells: int = 1024  # verify and render this small run in the server itself
    inline_pieces: int = 64

    def __post_init__(self) -> None:
        unknown = set(self.sides) - set(TASKS)
        if unknown:
            raise ValueError(f"no task {sorted(unknown)[0]!r}; tasks: {', '.join(TASKS)}")
        for name in ("body_bytes", "answer_bytes", "pieces", "workers", "queue", "small_queue"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.small_workers < 0:
            raise ValueError("small_workers must be 0 (no small lane) or more")
        if not self.small_seconds > 0:
            raise ValueError("small_seconds must be positive")
        if 0 < self.memory_mb < LEAST_MEMORY_MB:
            raise ValueError(f"memory_mb must be 0 (no cap) or at least {LEAST_MEMORY_MB}")
        if not 0 < self.default_seconds <= self.max_seconds:
            raise ValueError("default_seconds must be positive and at most max_seconds")

    def with_sides(self, **sides: int) -> Limits:
        """These limits with some tasks' largest board side changed."""
        return replace(self, sides={**self.sides, **sides})

    def side(self, task: str) -> int:
        return self.sides.get(task, DEFAULT_SIDES[task])

    def check_board(self, task: str, rows: int, cols: int) -> None:
        """Refuse a board wider or taller than ``task`` allows."""
        side = self.side(task)
        if max(rows, cols) > side:
            size = f"n = {rows}" if rows == cols else f"{rows}×{cols}"
            raise LimitError(f"{size} is over this server's limit for {task}: sides up to {side}")

    def small(self, task: str, board: tuple[int, int] | None) -> bool:
        """Whether a ``task`` on ``board`` (rows, cols) goes to the small lane: there is
        one and the board is at most the task's :data:`SMALL_SQUARES`."""
        if not self.small_workers or board is None or task not in SMALL_SQUARES:
            return False
        rows, cols = board
        return rows * cols <= SMALL_SQUARES[task]

    def seconds(self, time_limit: float | None) -> float:
        """The run's time limit: the default when none is given; over the maximum is refused."""
        if time_limit is None:
            return self.default_seconds
        if time_limit > self.max_seconds:
            raise LimitError(
                f"time_limit: at most {self.max_seconds:g} seconds on this server, "
                f"not {time_limit:g}"
            )
        return time_limit

    def public(self) -> dict[str, Any]:
        """What ``GET /api/limits`` tells clients (the page clamps its inputs to it)."""
        data = {item.name: getattr(self, item.name) for item in fields(self)}
        data["sides"] = {task: self.side(task) for task in TASKS}
        return data
