"""Background jobs for the web app: queued in the pool, watched, cancelled."""

from __future__ import annotations

import json
import threading
import uuid
from typing import Any

from chessplace.faces.web.jobs.pool import Pool
from chessplace.faces.web.jobs.tickets import Ticket, Work


class Jobs:
    """Jobs by id; finished ones stay until ``keep`` of them have finished since."""

    def __init__(self, pool: Pool, keep: int = 64) -> None:
        self._pool = pool
        self._jobs: dict[str, Ticket] = {}
        self._keep = keep
        self._lock = threading.Lock()

    def start(self, work: Work, time_limit: float, small: bool = False) -> str:
        """Queue ``work`` (in the small lane when ``small``); raises
        :class:`~.tickets.Busy` when its line is full."""
        ticket = self._pool.submit(work, time_limit, small)
        job_id = uuid.uuid4().hex[:12]
        with self._lock:
            self._jobs[job_id] = ticket
            finished = [key for key, job in self._jobs.items() if job.future.done()]
            for key in finished[: max(0, len(finished) - self._keep)]:
                del self._jobs[key]
        return job_id

    def view(self, job_id: str) -> dict[str, Any] | None:
        """What ``GET /api/jobs/{id}`` answers; None for an unknown id."""
        ticket = self._jobs.get(job_id)
        if ticket is None:
            return None
        outcome = ticket.future.result() if ticket.future.done() else None
        answer = outcome.answer if outcome else None
        state, position = self._pool.where(ticket)
        data: dict[str, Any] = {
            "id": job_id,
            "state": state,
            "time_limit": ticket.time_limit,
            "seconds": round(ticket.seconds(), 3),
            "progress": ticket.progress,
            "result": json.loads(answer.body) if answer else None,
            "error": outcome.message if outcome and not answer else None,
        }
        if position is not None:
            data["position"] = position
        return data

    def history(self, job_id: str, since: int = 0) -> list[tuple[int, dict[str, Any]]] | None:
        """The job's progress reports numbered after ``since``, with their numbers; None
        for an unknown id."""
        ticket = self._jobs.get(job_id)
        if ticket is None:
            return None
        kept = ticket.history[max(0, min(since, len(ticket.history) - 1)) :]
        return [(number, point) for number, point in kept if number > since]

    def cancel(self, job_id: str) -> dict[str, Any] | None:
        """Cancel a job (waiting or running); None for an unknown id."""
        ticket = self._jobs.get(job_id)
        if ticket is None:
            return None
        if not ticket.future.done():
            self._pool.cancel(ticket)
        return self.view(job_id)
