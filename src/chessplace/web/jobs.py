"""Background jobs for the web app: run, watch, cancel."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chessplace.control import Control, Progress


@dataclass
class Job:
    """One solve, optimize or count running in a thread."""

    state: str = "running"
    progress: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    error: str | None = None
    control: Control = field(init=False)

    def listen(self, progress: Progress) -> None:
        self.progress = {
            key: value for key, value in vars(progress).items() if value not in (None, "")
        }

    def view(self, job_id: str) -> dict[str, Any]:
        return {
            "id": job_id,
            "state": self.state,
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
        }


class Jobs:
    """Jobs by id; finished ones stay until the registry is full, oldest dropped first."""

    def __init__(self, keep: int = 64) -> None:
        self._jobs: dict[str, Job] = {}
        self._keep = keep
        self._lock = threading.Lock()

    def start(self, time_limit: float, work: Callable[[Control], dict[str, Any]]) -> str:
        job_id = uuid.uuid4().hex[:12]
        job = Job()
        job.control = Control(time_limit, job.listen)

        def run() -> None:
            try:
                job.result = work(job.control)
                job.state = "cancelled" if job.state == "cancelling" else "done"
            except Exception as error:  # reported to the client, the server stays up
                job.error = str(error)
                job.state = "failed"

        with self._lock:
            self._jobs[job_id] = job
            while len(self._jobs) > self._keep:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].state == "running":
                    break
                del self._jobs[oldest]
        threading.Thread(target=run, daemon=True).start()
        return job_id

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self._jobs.get(job_id)
        if job is not None and job.state == "running":
            job.state = "cancelling"
            job.control.stop()
        return job
