"""The line of jobs and the worker processes that take them: one job per worker, the
rest wait in line.

Each worker is a process of its own (:mod:`chessplace.faces.web.jobs.worker`, forked from a
forkserver that has the package imported, so a replacement starts in a moment),
in its own process group, with its data size capped (RLIMIT_DATA: heap and
anonymous mappings, not the address space that threads reserve). A job that overruns its time limit
by the grace period, or is cancelled and does not stop within it, has its
worker's whole group killed and a fresh worker started: memory and time stay
bounded whatever an engine does. A worker whose server goes away kills itself.
"""

from __future__ import annotations

import threading
import time
from collections import deque

from chessplace.faces.web.jobs.tickets import Busy, Outcome, Ticket, Work
from chessplace.faces.web.jobs.worker import Worker, death
from chessplace.faces.web.limits import Limits

SHUTTING_DOWN = "the server is shutting down"
"""Why a job ends unanswered when the server stops (its line is refused, its workers end)."""


class Pool:
    """``limits.workers`` worker processes fed from one first-in first-out line."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._line: deque[Ticket] = deque()
        self._ready = threading.Condition()
        self._workers: dict[int, Worker] = {}
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
                raise Busy(SHUTTING_DOWN)
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
        """Kill every worker; waiting tickets end as refused (once: later calls do nothing)."""
        with self._ready:
            if self._closed:
                return
            self._closed = True
            waiting = list(self._line)
            self._line.clear()
            workers = list(self._workers.values())
            self._ready.notify_all()
        for ticket in waiting:
            ticket.finish(Outcome(None, 503, SHUTTING_DOWN))
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
        worker: Worker | None = None
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

    def _replace(self, number: int) -> Worker | None:
        """A fresh worker for slot ``number``; None when closed or it cannot start."""
        with self._ready:
            if self._closed:
                return None
        try:
            worker = Worker.start(self.limits)
        except Exception:  # reported on the ticket the slot takes next
            return None
        with self._ready:
            self._workers[number] = worker
            if not self._closed:
                return worker
        worker.kill()
        return None

    def _execute(self, worker: Worker, ticket: Ticket) -> Worker | None:
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
                why = SHUTTING_DOWN if self._closed else death(code, self.limits.memory_mb)
                ticket.finish(Outcome(None, 503, why))
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
