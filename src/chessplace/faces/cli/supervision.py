"""Running a command's work: in a thread, stoppable by Ctrl-C or SIGTERM, with
progress on stderr, and never outliving a stop by more than a short grace."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from chessplace.core.placement import Placement
from chessplace.core.result import Result, Status
from chessplace.faces.cli.exits import reader_left
from chessplace.runtime.control import Control, Progress

GRACE_SECONDS = 3.0
"""How long an engine may take to return after a stop or its time limit."""

_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_abandoned = threading.Event()


def supervised(time_limit: float | None, work: Callable[[Control], Result]) -> Result:
    """Run ``work`` in a thread so signals and progress reach it while engines compute.

    An engine that has not returned :data:`GRACE_SECONDS` after a stop or its
    time limit is left behind (the thread is a daemon; its SAT children die
    with the process) and the best placement it reported answers instead. One that
    has returned is waited for while its answer is checked (a million queens take
    seconds; a second Ctrl-C still aborts).
    """
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
            stopped_at: float | None = None
            while worker.is_alive():
                worker.join(0.1)
                if stopped_at is None and control.stopped:
                    stopped_at = time.monotonic()
                late = stopped_at is not None and time.monotonic() - stopped_at > GRACE_SECONDS
                if late and not control.answered:
                    print(
                        f"chessplace: the engine did not stop within {GRACE_SECONDS:g} s;"
                        " reporting the best answer it offered",
                        file=sys.stderr,
                    )
                    _abandoned.set()
                    return _offered(control)
        if outcome and on_progress is not None:
            settled = _settled(outcome[0], control)
            if settled is not None:
                on_progress(settled)
    if failure:
        raise failure[0]
    return outcome[0]


PROVEN = "proven"
"""The last progress line's word when the answer is a proven optimum."""


def _settled(result: Result, control: Control) -> Progress | None:
    """The last progress of a proven optimum: best and bound both the optimum, so the
    progress ends where the answer does (it ended "best 14, bound 25" before "optimal,
    proven": the engine's last report came before its proof)."""
    proven = result.status is Status.OPTIMAL or (
        result.status is Status.COMPLETE and result.count is not None
    )
    if not proven or result.objective is None:
        return None
    optimum = result.objective
    return Progress(control.elapsed(), objective=optimum, bound=optimum, message=PROVEN)


def _offered(control: Control) -> Result:
    """What an engine that did not stop had reported: its best valid placement,
    or the count it had reached, or nothing."""
    seconds = control.elapsed()
    note = "the engine did not stop in time; its last report"
    best = control.best
    if isinstance(best, Placement) and not best.verify():
        return Result(
            Status.FEASIBLE,
            control.engine,
            best,
            objective=best.objective,
            bound=control.bound,
            seconds=seconds,
            note=note,
        )
    if control.count is not None:
        return Result(
            Status.PARTIAL, control.engine, count=control.count, seconds=seconds, note=note
        )
    return Result(Status.UNKNOWN, control.engine, seconds=seconds, note=note)


def abandon() -> None:
    """Note that work was left running after a stop, for :func:`leave_if_abandoned`."""
    _abandoned.set()


def leave_if_abandoned(code: int) -> int:
    """Exit the process now with ``code`` if an engine was left running: waiting for
    its threads at exit could take as long as the work it ignored the stop in."""
    if _abandoned.is_set():
        _exit_now(code)
    return code


def _exit_now(code: int) -> None:
    """Flush, kill the child processes, and exit without waiting for any thread."""
    if sys.stderr.isatty():
        sys.stderr.write("\x1b[?25h")  # the progress bar hid the cursor
    sys.stdout.flush()
    sys.stderr.flush()
    for child in multiprocessing.active_children():
        child.kill()
    os._exit(code)


@contextmanager
def stop_on_interrupt(
    control: Control, doing: str = "stopping: reporting the best answer so far"
) -> Iterator[None]:
    """The first Ctrl-C or SIGTERM asks the solver to stop and report (saying ``doing``);
    a second one aborts at once (exit 128 + the signal's number, child processes killed)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in _STOP_SIGNALS}

    def abort(signum: int, frame: object) -> None:
        print("chessplace: interrupted", file=sys.stderr)
        _exit_now(128 + signum)

    def stop(signum: int, frame: object) -> None:
        for number in _STOP_SIGNALS:
            signal.signal(number, abort)
        print(f"{doing} (Ctrl-C again to abort)", file=sys.stderr)
        control.stop()

    for number in _STOP_SIGNALS:
        signal.signal(number, stop)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def unbroken_output() -> Iterator[None]:
    """While an answer is written (a million queens' JSON takes seconds): a first Ctrl-C
    or SIGTERM lets it finish, since cut off it is no answer at all; a second aborts."""
    with stop_on_interrupt(Control(), "finishing the answer being written"):
        yield


def _improvement_lines() -> Callable[[Progress], None]:
    """Without a terminal: one stderr line each time the best value, the bound or the
    solver's message changes (counts alone stay quiet)."""
    quiet = (None, None, "")
    last: list[tuple[int | None, int | None, str]] = [quiet]

    def show(progress: Progress) -> None:
        state = (progress.objective, progress.bound, progress.message)
        if state == last[0] or (progress.objective is None and not progress.message):
            return
        if progress.message == PROVEN and last[0] == quiet:  # no progress said: no ending
            return
        last[0] = state
        parts = [] if progress.objective is None else [f"best {progress.objective}"]
        if progress.bound is not None:
            parts.append(f"bound {progress.bound}")
        if progress.message:
            parts.append(progress.message)
        try:
            print(f"chessplace: {progress.seconds:.1f} s: {', '.join(parts)}", file=sys.stderr)
        except BrokenPipeError:  # its reader left (2>&1 | head): the work goes on
            reader_left()

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
