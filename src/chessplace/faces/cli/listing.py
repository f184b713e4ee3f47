"""``count --list``: placements streamed as JSON lines while the engine runs."""

from __future__ import annotations

import argparse
import json
import queue
import select
import sys
import threading
import time
from itertools import islice
from typing import Any, TextIO

from chessplace import api
from chessplace.core.problem import Problem
from chessplace.faces.cli.exits import EXIT_OK, EXIT_STOPPED
from chessplace.faces.cli.supervision import GRACE_SECONDS, abandon, stop_on_interrupt
from chessplace.forms.jsonio import placement_pieces
from chessplace.runtime.control import Control


def list_placements(
    arguments: argparse.Namespace, problem: Problem, options: dict[str, Any]
) -> int:
    """Stream solutions as JSON lines (the first ``--limit`` only, when given); nothing
    is held in memory.

    The engine runs in a thread that feeds a short queue and this thread
    writes, so Ctrl-C, SIGTERM and the time limit are heard while it
    computes. A stopped listing ends with the placements so far (exit 3);
    an engine still running :data:`GRACE_SECONDS` after the stop is left
    behind, as by :func:`chessplace.faces.cli.supervision.supervised`.
    """
    control = Control(arguments.time_limit)
    source = api.solutions(problem, unique=arguments.unique, control=control, **options)
    stream = source if arguments.limit is None else islice(source, arguments.limit)
    lines: queue.Queue[str | None] = queue.Queue(maxsize=1024)
    gone = threading.Event()  # the writer left: the engine must not wait for room
    complete = threading.Event()
    failure: list[BaseException] = []

    def produce() -> None:
        try:
            for placement in stream:
                if not _offer(lines, json.dumps({"pieces": placement_pieces(placement)}), gone):
                    return
            if not control.stopped:
                complete.set()
        except BaseException as error:  # re-raised in the main thread
            failure.append(error)
        finally:
            source.close()  # the engine's own threads end here
            _offer(lines, None, gone)

    producer = threading.Thread(target=produce, daemon=True)
    with stop_on_interrupt(control):
        producer.start()
        failed = True
        try:
            ended = _write_lines(lines, control)
            failed = False
        finally:
            gone.set()
            control.stop()  # the engine ends too when writing failed (a closed pipe),
            if failed:  # before the process does
                producer.join(GRACE_SECONDS)
    if failure:
        raise failure[0]
    if ended != "done":
        why = (
            "the engine did not stop"
            if ended == "engine"
            else "the output was not read (a full pipe)"
        )
        print(
            f"chessplace: {why} within {GRACE_SECONDS:g} s of the stop;"
            " the placements written so far stand",
            file=sys.stderr,
        )
        abandon()
    return EXIT_OK if complete.is_set() else EXIT_STOPPED


def _offer(lines: queue.Queue[str | None], line: str | None, gone: threading.Event) -> bool:
    """Put ``line`` on the queue once there is room; False if the writer left first."""
    while not gone.is_set():
        try:
            lines.put(line, timeout=0.1)
            return True
        except queue.Full:
            pass
    return False


def _write_lines(lines: queue.Queue[str | None], control: Control) -> str:
    """Write the queued lines until the end mark (``"done"``), or until the grace after
    a stop or the time limit has passed with the engine still producing (``"engine"``)
    or with the reader taking no more (``"reader"``: a line is written only when the
    output has room, so a full pipe never blocks the stop)."""
    stopped_at: float | None = None

    def overdue() -> bool:
        nonlocal stopped_at
        if stopped_at is None and control.stopped:
            stopped_at = time.monotonic()
        return stopped_at is not None and time.monotonic() - stopped_at > GRACE_SECONDS

    while True:
        try:
            line = lines.get(timeout=0.1)
        except queue.Empty:
            line = ""
        if line is None:
            return "done"
        if line:
            while not _room(sys.stdout):
                if overdue():
                    return "reader"
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        if overdue():
            return "engine"


def _room(stream: TextIO) -> bool:
    """True once ``stream`` can take a line without blocking (at once for a stream
    that is no file: a test's capture), False after a tenth of a second without."""
    try:
        number = stream.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return True
    return bool(select.select([], [number], [], 0.1)[1])
