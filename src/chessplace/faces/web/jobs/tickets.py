"""A job's record in the server: its work, its state, its progress, how it ended."""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chessplace.faces.web.work import Answer
from chessplace.runtime.control import Control

Work = Callable[[Control], Answer]
HISTORY = 2000  # progress reports a ticket keeps (what a live chart of the run draws)


@dataclass(frozen=True)
class Outcome:
    """How a job ended: an answer, or an HTTP status and one line; ``stopped`` when
    its time limit (or a stop) had come by then, so the answer may be partial."""

    answer: Answer | None
    status: int = 200
    message: str = ""
    stopped: bool = False


class Busy(Exception):
    """The queue is full."""


@dataclass(eq=False)
class Ticket:
    """One piece of work: waiting, running, then finished with an outcome; a
    ``small`` one waits in the small lane's line (see :data:`~.limits.SMALL_SQUARES`)."""

    work: Work
    time_limit: float
    small: bool = False
    state: str = "queued"
    progress: dict[str, Any] = field(default_factory=dict)
    history: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    reports: int = 0
    cancelled: bool = False
    started: float | None = None
    ended: float | None = None
    future: cf.Future[Outcome] = field(default_factory=cf.Future)

    def seconds(self) -> float:
        """Seconds it has run (so far, or in all)."""
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started

    def report(self, progress: dict[str, Any]) -> None:
        """The latest progress, numbered from 1; ``history`` keeps the first ``HISTORY``
        reports and, past them, the latest in the last place (under its own number)."""
        self.progress = progress
        self.reports += 1
        entry = (self.reports, progress)
        if len(self.history) >= HISTORY:
            self.history[-1] = entry
        else:
            self.history.append(entry)

    def finish(self, outcome: Outcome) -> None:
        if self.cancelled:
            self.state = "cancelled"
        else:
            self.state = "done" if outcome.answer is not None else "failed"
        self.ended = time.monotonic()
        if not self.future.done():
            self.future.set_result(outcome)
