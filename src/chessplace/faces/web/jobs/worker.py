"""One worker process: how the server starts, talks to and kills it, and the worker's
own loop (one job at a time, listening for "stop", progress sent at a steady pace).

A worker runs in its own process group with its data size capped (RLIMIT_DATA);
one whose server goes away kills its group.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import resource
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from chessplace.faces.web.jobs.tickets import Outcome, Work
from chessplace.faces.web.limits import Limits
from chessplace.faces.web.work import Refused, answered
from chessplace.runtime.control import Control, Progress

PROGRESS_EVERY = 0.2  # seconds between progress messages from a worker


def death(code: int | None, memory_mb: int) -> str:
    cap = f"; each job may use {memory_mb} MiB" if memory_mb else ""
    return f"the worker running this job died (exit code {code}){cap}"


class Worker:
    """The server's handle on one worker process."""

    def __init__(self, process: Any, connection: Any) -> None:
        self.process = process
        self.connection = connection
        self.jobs = 0
        self._released = threading.Lock()

    @classmethod
    def start(cls, limits: Limits) -> Worker:
        context: Any = _context()
        here, there = context.Pipe()
        process = context.Process(
            target=_serve,
            args=(there, limits.memory_mb, limits.answer_bytes),
            name="chessplace-worker",
        )
        process.start()
        there.close()
        return cls(process, here)

    def send(self, message: object) -> None:
        with contextlib.suppress(OSError):  # it died: receive() says so
            self.connection.send(message)

    def receive(self, timeout: float) -> Any:
        """The next message, None when none came in ``timeout``, "died" when it is gone."""
        try:
            if not self.connection.poll(timeout):
                return None
            return self.connection.recv()
        except (EOFError, OSError):
            return "died"

    def data_mb(self) -> float:
        """The worker's data size (what RLIMIT_DATA caps), in MiB."""
        try:
            with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmData:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def end_processes(self) -> None:
        """SIGKILL the worker's process group and the worker itself."""
        for kill in (lambda: os.killpg(self.process.pid, signal.SIGKILL), self.process.kill):
            with contextlib.suppress(ProcessLookupError, PermissionError, ValueError):
                kill()

    def kill(self) -> int | None:
        """Kill the worker and anything it started, and close its pipe (once, whoever
        calls); returns its exit code. Only the slot thread that uses the pipe calls it."""
        self.end_processes()
        self.process.join(5)
        if self._released.acquire(blocking=False):
            self.connection.close()
        code: int | None = self.process.exitcode
        return code


def _context() -> Any:
    """forkserver where there is one (this process has threads: plain fork is unsafe)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["chessplace.faces.web.jobs.worker"])
    return context


def _serve(connection: Any, memory_mb: int, answer_bytes: int) -> None:
    """A worker's life: take jobs one at a time, listening for "stop" meanwhile."""
    os.setpgrp()  # its group, killed as one; a terminal's Ctrl-C goes to the server only
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_mb:
        cap = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))
    sending = threading.Lock()
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    running: list[Control | None] = [None]
    stop_first = [False]  # a "stop" came before the last job received began
    handing = threading.Lock()  # between a job's start and a stop for it

    def send(message: object) -> None:
        with sending:
            try:
                connection.send(message)
            except OSError:
                os.killpg(0, signal.SIGKILL)

    def listen() -> None:
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                os.killpg(0, signal.SIGKILL)  # the server is gone: so is this group
                return
            with handing:  # the server sends a job, maybe "stop" for it, then the next
                if message != "stop":
                    stop_first[0] = False
                    inbox.put(message)
                elif running[0] is not None:
                    running[0].stop()
                else:
                    stop_first[0] = True

    threading.Thread(target=listen, daemon=True).start()
    while True:
        job, work, time_limit = inbox.get()
        control = Control(time_limit, _reporter(job, send))
        with handing:
            running[0] = control
            if stop_first[0]:
                control.stop()
        outcome = replace(_outcome(work, control, memory_mb, answer_bytes), stopped=control.stopped)
        with handing:
            running[0] = None
        send(("done", job, outcome))


def _reporter(job: int, send: Callable[[object], None]) -> Callable[[Progress], None]:
    """Progress to the server at most every ``PROGRESS_EVERY`` seconds; what reports in
    between said (a better objective, say) is carried into the next one sent."""
    last = [0.0]
    fields: dict[str, Any] = {}

    def report(progress: Progress) -> None:
        fields.update(
            (key, value) for key, value in vars(progress).items() if value not in (None, "")
        )
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            send(("progress", job, dict(fields)))

    return report


def _outcome(work: Work, control: Control, memory_mb: int, answer_bytes: int) -> Outcome:
    try:
        answer = answered(work, control)
    except Refused as refusal:
        return Outcome(None, refusal.status, str(refusal))
    except MemoryError:
        return Outcome(None, 503, f"out of memory: each job may use {memory_mb} MiB")
    except Exception as error:  # a bug in an engine: one line to the client, the worker lives
        return Outcome(None, 500, f"{type(error).__name__}: {error}")
    if len(answer.body) > answer_bytes:
        return Outcome(None, 503, f"the answer is over this server's {answer_bytes} bytes")
    return Outcome(answer)
