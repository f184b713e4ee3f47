"""Time limits, cancellation and progress reports for one run."""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar


@dataclass(frozen=True)
class Progress:
    """What a running solver has to say so far."""

    seconds: float
    objective: int | None = None
    bound: int | None = None
    count: int | None = None
    done: int | None = None
    total: int | None = None
    message: str = ""


class Control:
    """Shared by a caller and a solver: a deadline, a stop request, progress.

    ``stop()`` may be called from any thread (a signal handler, a web
    request); solvers register hooks that interrupt their engines. The best
    placement and bound an engine reports are kept, so a caller can answer
    with them when the engine does not stop in time. The ground floor knows no
    model: a placement is kept as an ``object``, and its readers check its kind.
    """

    def __init__(
        self,
        time_limit: float | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> None:
        if time_limit is not None and not 0 < time_limit < math.inf:  # NaN fails this too
            raise ValueError(f"time limit must be positive and finite, not {time_limit}")
        self.time_limit = time_limit
        self.started = time.monotonic()
        self._on_progress = on_progress
        self._stop = threading.Event()
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self.engine = "unfinished"
        """The name of the engine at work, set by :mod:`chessplace.api` when it starts one."""
        self.best: object = None
        """The engine's best placement so far, as it reported it; ``None`` before."""
        self.bound: int | None = None
        self.count: int | None = None
        self.workers: int | None = None
        """How many cores the engine may keep busy; ``None``: all of them (see :meth:`cores`)."""
        self.answered = False
        """Whether the engine last started has returned (kept by :mod:`chessplace.api`): what
        is left, checking its answer, is bounded work that a stop does not cut short."""

    def cores(self) -> int:
        """The number of threads or processes an engine should run in parallel."""
        return self.workers or os.cpu_count() or 1

    def ensure_limit(self, seconds: float) -> None:
        """Give the run a time limit of ``seconds`` from its start unless it has one."""
        if self.time_limit is None:
            self.time_limit = seconds

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def remaining(self) -> float | None:
        """Seconds left before the time limit, or ``None`` without a limit."""
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - self.elapsed())

    @property
    def stopped(self) -> bool:
        """True once stop was asked for or the time limit has passed."""
        remaining = self.remaining()
        return self._stop.is_set() or (remaining is not None and remaining <= 0)

    def stop(self) -> None:
        """Ask the running solver to stop and return what it has."""
        self._stop.set()
        with self._lock:
            hooks = list(self._hooks)
        for hook in hooks:
            hook()

    @contextmanager
    def interrupting(self, hook: Callable[[], None]) -> Iterator[None]:
        """Call ``hook`` on :meth:`stop` or at the time limit while the block runs."""
        with self._lock:
            self._hooks.append(hook)
        remaining = self.remaining()
        timer = None if remaining is None else threading.Timer(remaining, hook)
        if timer is not None:
            timer.daemon = True
            timer.start()
        if self.stopped:
            hook()
        try:
            yield
        finally:
            if timer is not None:
                timer.cancel()
            with self._lock:
                self._hooks.remove(hook)

    def incumbent(self) -> object:
        """The best placement other engines racing on the same problem have found (see
        :mod:`chessplace.engines.portfolio`), for an engine to climb from; ``None`` alone."""
        return None

    def report(self, placement: object = None, **fields: object) -> None:
        """Pass progress (objective, bound, count, message) to the listener; keep
        ``placement`` (the engine's best so far), the bound and the count."""
        progress = Progress(seconds=self.elapsed(), **fields)  # type: ignore[arg-type]
        if placement is not None:
            self.best = placement
        if progress.bound is not None:
            self.bound = progress.bound
        if progress.count is not None:
            self.count = progress.count
        if self._on_progress is not None:
            self._on_progress(progress)


class Stopped(Exception):
    """The run was stopped (time limit or stop request) while an engine built its model."""


Item = TypeVar("Item")


def checked(items: Iterable[Item], control: Control | None, every: int = 512) -> Iterator[Item]:
    """``items`` one by one, raising :class:`Stopped` once ``control`` has stopped
    (looked at every ``every`` items, so model building ends promptly)."""
    for index, item in enumerate(items):
        if control is not None and index % every == 0 and control.stopped:
            raise Stopped
        yield item
