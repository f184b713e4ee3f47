"""The lines of jobs and the worker processes that take them: one job per worker, the
rest wait in line.

There are two lanes. ``limits.workers`` workers take the ordinary line; the
``limits.small_workers`` more (reserved, on top of them) take only the small
lane's line, so that a small job (:data:`~chessplace.faces.web.limits.SMALL_SQUARES`)
never waits behind expensive ones while a small worker is free. An expensive
job never runs in the small lane; an ordinary worker with nothing of its own to
do takes a small job. A small worker gives each job at most
``limits.small_seconds``: one that its lane stopped there, having asked for
more, goes to the back of the ordinary line and runs again under its own limit.
Each line has its bound (``queue``, ``small_queue``), past which a job is refused.

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
    """``limits.workers`` worker processes fed from one first-in first-out line, and
    ``limits.small_workers`` more fed from the small lane's line."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._line: deque[Ticket] = deque()
        self._small: deque[Ticket] = deque()
        self._ready = threading.Condition()
        self._workers: dict[int, Worker] = {}
        self._slots: list[threading.Thread] = []
        self._closed = False

    def start(self) -> None:
        """Start the workers (idempotent)."""
        with self._ready:
            if self._slots or self._closed:
                return
            ordinary = self.limits.workers
            for number in range(ordinary + self.limits.small_workers):
                small = number >= ordinary
                name = f"pool-small-{number - ordinary}" if small else f"pool-{number}"
                slot = threading.Thread(
                    target=self._slot, args=(number, small), daemon=True, name=name
                )
                self._slots.append(slot)
                slot.start()

    def submit(self, work: Work, time_limit: float, small: bool = False) -> Ticket:
        """Put ``work`` in its line (the small lane's when ``small`` and there is one);
        :class:`Busy` when that line is full."""
        self.start()
        ticket = Ticket(work, time_limit, small=small and self.limits.small_workers > 0)
        with self._ready:
            if self._closed:
                raise Busy(SHUTTING_DOWN)
            line, bound = self._lane(ticket.small)
            if len(line) >= bound:
                raise Busy(_busy(line, ticket.small))
            line.append(ticket)
            self._ready.notify_all()  # both kinds of worker may take a small job
        return ticket

    def where(self, ticket: Ticket) -> tuple[str, int | None]:
        """The ticket's state and, while it waits, its place in its line (1 runs next)."""
        with self._ready:
            for line in (self._line, self._small):
                if ticket in line:
                    return ticket.state, line.index(ticket) + 1
            return ticket.state, None

    def cancel(self, ticket: Ticket) -> None:
        """Drop a waiting ticket; ask a running one to stop (its worker dies after the grace)."""
        with self._ready:
            ticket.cancelled = True
            line = next((line for line in (self._line, self._small) if ticket in line), None)
            if line is not None:
                line.remove(ticket)
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
            waiting = [*self._line, *self._small]
            self._line.clear()
            self._small.clear()
            workers = list(self._workers.values())
            self._ready.notify_all()
        for ticket in waiting:
            ticket.finish(Outcome(None, 503, SHUTTING_DOWN))
        for worker in workers:
            # Only the processes: each slot thread closes its own worker's pipe when it
            # sees the death (closing it here, under a thread that polls it, races).
            worker.end_processes()

    def _lane(self, small: bool) -> tuple[deque[Ticket], int]:
        """The line of small or of ordinary jobs, and its bound."""
        if small:
            return self._small, self.limits.small_queue
        return self._line, self.limits.queue

    def _take(self, small: bool) -> Ticket | None:
        """The next ticket for a small worker (small jobs only) or an ordinary one (its
        own line first, then small jobs); None once the pool is closed."""
        lines = (self._small,) if small else (self._line, self._small)
        with self._ready:
            while not self._closed and not any(lines):
                self._ready.wait()
            if self._closed:
                return None
            ticket = next(line for line in lines if line).popleft()
            ticket.state, ticket.started = "running", time.monotonic()
            return ticket

    def _promote(self, ticket: Ticket) -> None:
        """A small job its lane stopped at ``small_seconds``: to the back of the ordinary
        line, to run again under its own limit (ended instead when cancelled, closing
        or that line is full)."""
        with self._ready:
            if ticket.cancelled:
                outcome = Outcome(None, 499, "cancelled")
            elif self._closed:
                outcome = Outcome(None, 503, SHUTTING_DOWN)
            elif len(self._line) >= self.limits.queue:
                outcome = Outcome(None, 503, _busy(self._line, False))
            else:
                ticket.small, ticket.state, ticket.started = False, "queued", None
                self._line.append(ticket)
                self._ready.notify_all()
                return
        ticket.finish(outcome)

    def _slot(self, number: int, small: bool) -> None:
        worker: Worker | None = None
        while True:
            if worker is None:
                worker = self._replace(number)
            ticket = self._take(small)
            if ticket is None:
                if worker is not None:
                    worker.kill()
                return
            if worker is None:  # no worker could start: say so rather than hang
                ticket.finish(Outcome(None, 503, "the server could not start a worker"))
                time.sleep(1.0)
                continue
            worker = self._execute(worker, ticket, small)

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

    def _execute(self, worker: Worker, ticket: Ticket, small: bool) -> Worker | None:
        """Run one ticket (in a small worker for at most ``small_seconds``); returns the
        worker, or None when it had to be killed."""
        grace = self.limits.grace_seconds
        limit = ticket.time_limit
        moves_on = small and limit > self.limits.small_seconds  # stopped early, it runs again
        if moves_on:
            limit = self.limits.small_seconds
        worker.jobs += 1
        worker.send((worker.jobs, ticket.work, limit))
        kill_at = time.monotonic() + limit + grace
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
                if moves_on and not stopping:
                    self._promote(ticket)
                    return None
                asked = "when cancelled" if stopping else f"at its {limit:g} s limit"
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
            if moves_on and payload.stopped and not ticket.cancelled:
                self._promote(ticket)
            else:
                ticket.finish(payload)
            if self.limits.memory_mb and worker.data_mb() > self.limits.memory_mb / 2:
                worker.kill()  # a worker grown by its caches is replaced while idle
                return None
            return worker


def _busy(line: deque[Ticket], small: bool) -> str:
    jobs = "small jobs" if small else "jobs"
    return f"the server is busy: {len(line)} {jobs} wait; try again later"
