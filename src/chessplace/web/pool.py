"""Worker processes for the CPU-heavy work: one job per worker, the rest wait in line.

Each worker is a process of its own (forked from a forkserver that has the
package imported, so a replacement starts in a moment), in its own process
group, with its data size capped (RLIMIT_DATA: heap and anonymous mappings,
not the address space that threads reserve). A job that overruns its time limit
by the grace period, or is cancelled and does not stop within it, has its
worker's whole group killed and a fresh worker started: memory and time stay
bounded whatever an engine does. A worker whose server goes away kills itself.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import queue
import resource
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chessplace.control import Control, Progress
from chessplace.web.limits import Limits
from chessplace.web.work import Answer, Refused, answered

Work = Callable[[Control], Answer]
PROGRESS_EVERY = 0.2  # seconds between progress messages from a worker
HISTORY = 2000  # progress reports a ticket keeps (what a live chart of the run draws)


@dataclass(frozen=True)
class Outcome:
    """How a job ended: an answer, or an HTTP status and one line."""

    answer: Answer | None
    status: int = 200
    message: str = ""


class Busy(Exception):
    """The queue is full."""


@dataclass(eq=False)
class Ticket:
    """One piece of work: waiting, running, then finished with an outcome."""

    work: Work
    time_limit: float
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


class Pool:
    """``limits.workers`` worker processes fed from one first-in first-out line."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._line: deque[Ticket] = deque()
        self._ready = threading.Condition()
        self._workers: dict[int, _Worker] = {}
        self._slots: list[threading.Thread] = []
        self._closed = False

    def start(self) -> None:
        """Start the workers (idempotent)."""
        with self._ready:
            if self._slots or self._closed:
                return
            for number in range(self.limits.workers):
                slot = threading.Thread(
                    target=self._slot, args=(number,), daemon=True, name=f"pool-{number}"
                )
                self._slots.append(slot)
                slot.start()

    def submit(self, work: Work, time_limit: float) -> Ticket:
        """Put ``work`` in line; :class:`Busy` when the line is full."""
        self.start()
        ticket = Ticket(work, time_limit)
        with self._ready:
            if self._closed:
                raise Busy("the server is shutting down")
            if len(self._line) >= self.limits.queue:
                raise Busy(f"the server is busy: {len(self._line)} jobs wait; try again later")
            self._line.append(ticket)
            self._ready.notify()
        return ticket

    def where(self, ticket: Ticket) -> tuple[str, int | None]:
        """The ticket's state and, while it waits, its place in line (1 runs next)."""
        with self._ready:
            if ticket in self._line:
                return ticket.state, self._line.index(ticket) + 1
            return ticket.state, None

    def cancel(self, ticket: Ticket) -> None:
        """Drop a waiting ticket; ask a running one to stop (its worker dies after the grace)."""
        with self._ready:
            ticket.cancelled = True
            if ticket in self._line:
                self._line.remove(ticket)
                ticket.finish(Outcome(None, 499, "cancelled before it started"))
            elif ticket.state == "running":
                ticket.state = "cancelling"

    def pids(self) -> list[int]:
        """The worker processes' ids."""
        with self._ready:
            return [worker.process.pid for worker in self._workers.values()]

    def close(self) -> None:
        """Kill every worker; waiting tickets end as refused."""
        with self._ready:
            self._closed = True
            waiting = list(self._line)
            self._line.clear()
            workers = list(self._workers.values())
            self._ready.notify_all()
        for ticket in waiting:
            ticket.finish(Outcome(None, 503, "the server is shutting down"))
        for worker in workers:
            # Only the processes: each slot thread closes its own worker's pipe when it
            # sees the death (closing it here, under a thread that polls it, races).
            worker.end_processes()

    def _take(self) -> Ticket | None:
        with self._ready:
            while not self._line and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            ticket = self._line.popleft()
            ticket.state, ticket.started = "running", time.monotonic()
            return ticket

    def _slot(self, number: int) -> None:
        worker: _Worker | None = None
        while True:
            if worker is None:
                worker = self._replace(number)
            ticket = self._take()
            if ticket is None:
                if worker is not None:
                    worker.kill()
                return
            if worker is None:  # no worker could start: say so rather than hang
                ticket.finish(Outcome(None, 503, "the server could not start a worker"))
                time.sleep(1.0)
                continue
            worker = self._execute(worker, ticket)

    def _replace(self, number: int) -> _Worker | None:
        """A fresh worker for slot ``number``; None when closed or it cannot start."""
        with self._ready:
            if self._closed:
                return None
        try:
            worker = _Worker.start(self.limits)
        except Exception:  # reported on the ticket the slot takes next
            return None
        with self._ready:
            self._workers[number] = worker
            if not self._closed:
                return worker
        worker.kill()
        return None

    def _execute(self, worker: _Worker, ticket: Ticket) -> _Worker | None:
        """Run one ticket; returns the worker, or None when it had to be killed."""
        grace = self.limits.grace_seconds
        worker.jobs += 1
        worker.send((worker.jobs, ticket.work, ticket.time_limit))
        kill_at = time.monotonic() + ticket.time_limit + grace
        stopping = False
        while True:
            if ticket.cancelled and not stopping:
                stopping = True
                worker.send("stop")
                kill_at = min(kill_at, time.monotonic() + grace)
            message = worker.receive(0.1)
            if message is None:
                if time.monotonic() < kill_at:
                    continue
                worker.kill()
                asked = "when cancelled" if stopping else f"at its {ticket.time_limit:g} s limit"
                message = (
                    f"the engine did not stop {asked} (+{grace:g} s grace): its worker was killed"
                )
                ticket.finish(Outcome(None, 503, message))
                return None
            if message == "died":
                code = worker.kill()
                ticket.finish(Outcome(None, 503, _death(code, self.limits.memory_mb)))
                return None
            kind, job, payload = message
            if job != worker.jobs:
                continue  # a late message of an earlier job
            if kind == "progress":
                ticket.report(payload)
                continue
            ticket.finish(payload)
            if self.limits.memory_mb and worker.data_mb() > self.limits.memory_mb / 2:
                worker.kill()  # a worker grown by its caches is replaced while idle
                return None
            return worker


def _death(code: int | None, memory_mb: int) -> str:
    cap = f"; each job may use {memory_mb} MiB" if memory_mb else ""
    return f"the worker running this job died (exit code {code}){cap}"


class _Worker:
    """The server's handle on one worker process."""

    def __init__(self, process: Any, connection: Any) -> None:
        self.process = process
        self.connection = connection
        self.jobs = 0
        self._released = threading.Lock()

    @classmethod
    def start(cls, limits: Limits) -> _Worker:
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
    context.set_forkserver_preload(["chessplace.web.pool"])
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
            control = running[0]
            if message != "stop":
                inbox.put(message)
            elif control is not None:
                control.stop()

    threading.Thread(target=listen, daemon=True).start()
    while True:
        job, work, time_limit = inbox.get()
        control = Control(time_limit, _reporter(job, send))
        running[0] = control
        outcome = _outcome(work, control, memory_mb, answer_bytes)
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
