"""A job's progress as server-sent events: what the page's live chart and counter read.

Events: ``state`` (queued, its place in line; running), ``progress`` (one report
from the engine: seconds, best objective, bound, count, parts done; its ``id`` is
its number, so a reconnecting browser resumes after the last one it saw) and, once,
``end`` (the job's final view, as ``GET /api/jobs/{id}`` answers).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from chessplace.faces.web.jobs.registry import Jobs

FINISHED = ("done", "failed", "cancelled")
POLL_SECONDS = 0.1


async def job_events(
    jobs: Jobs, job_id: str, first: int, gone: Callable[[], Awaitable[bool]]
) -> AsyncIterator[str]:
    """The job's events from progress report ``first`` on, until it ends or the client goes."""
    sent, said = first, None
    while True:
        view = jobs.view(job_id)
        points = jobs.history(job_id, sent)
        if view is None or points is None:
            yield _event("end", {"id": job_id, "state": "failed", "error": "the job is gone"})
            return
        for sent, point in points:
            yield _event("progress", point, sent)
        if view["state"] in FINISHED:
            yield _event("end", view)
            return
        state: dict[str, Any] = {key: view[key] for key in ("state", "position") if key in view}
        if state != said:
            said = state
            yield _event("state", state)
        if await gone():
            return
        await asyncio.sleep(POLL_SECONDS)


def _event(kind: str, data: dict[str, Any], number: int | None = None) -> str:
    head = f"id: {number}\n" if number is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, allow_nan=False)}\n\n"
