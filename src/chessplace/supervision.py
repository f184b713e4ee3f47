"""Running a command's work: in a thread, stoppable by Ctrl-C, with progress on stderr."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from chessplace.control import Control, Progress
from chessplace.result import Result


def supervised(time_limit: float | None, work: Callable[[Control], Result]) -> Result:
    """Run ``work`` in a thread so Ctrl-C and progress reach it while engines compute."""
    with _progress_display() as on_progress:
        control = Control(time_limit, on_progress)
        outcome: list[Result] = []
        failure: list[BaseException] = []

        def target() -> None:
            try:
                outcome.append(work(control))
            except BaseException as error:  # re-raised in the main thread
                failure.append(error)

        worker = threading.Thread(target=target, daemon=True)
        with stop_on_interrupt(control):
            worker.start()
            while worker.is_alive():
                worker.join(0.1)
    if failure:
        raise failure[0]
    return outcome[0]


@contextmanager
def stop_on_interrupt(control: Control) -> Iterator[None]:
    """First Ctrl-C asks the solver to stop and report; a second one aborts."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, previous)
        print("stopping: reporting the best answer so far (Ctrl-C again to abort)", file=sys.stderr)
        control.stop()

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _improvement_lines() -> Callable[[Progress], None]:
    """Without a terminal: one stderr line each time the best value, the bound or the
    solver's message changes (counts alone stay quiet)."""
    last: list[tuple[int | None, int | None, str]] = [(None, None, "")]

    def show(progress: Progress) -> None:
        state = (progress.objective, progress.bound, progress.message)
        if state == last[0] or (progress.objective is None and not progress.message):
            return
        last[0] = state
        parts = [] if progress.objective is None else [f"best {progress.objective}"]
        if progress.bound is not None:
            parts.append(f"bound {progress.bound}")
        if progress.message:
            parts.append(progress.message)
        print(f"chessplace: {progress.seconds:.1f} s: {', '.join(parts)}", file=sys.stderr)

    return show


@contextmanager
def _progress_display() -> Iterator[Callable[[Progress], None] | None]:
    """A live progress bar on stderr when it is a terminal; nothing otherwise.

    Counts show subproblems done, solutions so far, the rate and the time
    left; optimisations show the best value and bound so far.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar

    console = Console(stderr=True)
    if not console.is_terminal:
        yield _improvement_lines()
        return
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Bar(*columns, console=console, transient=True) as bar:
        task = bar.add_task("working…", total=None)

        def show(progress: Progress) -> None:
            parts = []
            if progress.objective is not None:
                parts.append(f"best {progress.objective}")
            if progress.bound is not None:
                parts.append(f"bound {progress.bound}")
            if progress.count is not None:
                rate = progress.count / max(progress.seconds, 1e-9)
                parts.append(f"{progress.count:,} solutions ({rate:,.0f}/s)")
            if progress.message:
                parts.append(progress.message)
            bar.update(
                task,
                description=" · ".join(parts) or "working…",
                completed=progress.done or 0,
                total=progress.total,
            )

        yield show
