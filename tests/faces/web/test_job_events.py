"""Hostile round 2: the web app's job events (the Dask and export cases live with theirs)."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from chessplace.faces.web import work
from chessplace.faces.web.app import create_app
from chessplace.faces.web.events import job_events
from chessplace.faces.web.jobs.pool import Pool
from chessplace.faces.web.jobs.registry import Jobs
from chessplace.faces.web.jobs.tickets import HISTORY
from chessplace.faces.web.limits import Limits
from chessplace.faces.web.requests import Options
from tests.waiting import wait_until


def _events(text: str) -> list[tuple[str | None, str, dict[str, Any]]]:
    """(id, event, data) of each server-sent event in ``text``."""
    found = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((fields.get("id"), fields["event"], json.loads(fields["data"])))
    return found


async def _raw_get(app: Any, path: str, headers: list[tuple[bytes, bytes]]) -> tuple[int, str]:
    """GET ``path`` from the ASGI ``app`` with header bytes as a server receives them
    (the test client re-encodes them as UTF-8): the status and the body."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(0.01)  # a client that stays: nothing more arrives at once
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    body = b"".join(message.get("body", b"") for message in sent[1:])
    return sent[0]["status"], body.decode()


def test_a_last_event_id_of_other_digits_starts_from_the_first_report() -> None:
    app = create_app(Limits(workers=1))
    with TestClient(app) as client:
        body = {"task": "solve", "puzzle": "queens", "n": 8}
        job_id = client.post("/api/jobs", json=body).json()["id"]
        wait_until(
            lambda: client.get(f"/api/jobs/{job_id}").json()["state"] == "done",
            what="the job done",
        )
        # Latin-1 ², ¹¹ and ³ are digits to str.isdigit but not to int().
        for value in (b"\xb2", b"\xb9\xb9", b"\xb3", b"-1", b"1e3", "٣".encode()):
            path = f"/api/jobs/{job_id}/events"
            status, text = asyncio.run(_raw_get(app, path, [(b"last-event-id", value)]))
            assert status == 200, (value, text)
            assert _events(text)[-1][1] == "end"


def test_reports_past_the_history_kept_still_reach_the_stream() -> None:
    pool = Pool(Limits(workers=1))
    jobs = Jobs(pool)
    try:
        solve = partial(work.task, "solve", Options(puzzle="queens", n=8))
        job_id = jobs.start(solve, 10)
        ticket = jobs._jobs[job_id]  # fed here as the pool's listener feeds it
        ticket.future.result(timeout=60)
        first = len(ticket.history)
        reports = HISTORY + 500
        for number in range(first + 1, reports + 1):
            ticket.report({"seconds": number / 10, "objective": number})

        async def stream(since: int) -> list[tuple[str | None, str, dict[str, Any]]]:
            async def gone() -> bool:
                return False

            text = "".join([event async for event in job_events(jobs, job_id, since, gone)])
            return _events(text)

        late = asyncio.run(stream(HISTORY))  # a browser that saw the kept ones reconnects
        assert [
            (number, data["objective"]) for number, kind, data in late if kind == "progress"
        ] == [(str(reports), reports)]
        every = asyncio.run(stream(0))
        numbers = [int(number) for number, kind, _ in every if kind == "progress" and number]
        assert numbers == sorted(set(numbers)) and numbers[-1] == reports
        assert len(numbers) == HISTORY and len(ticket.history) == HISTORY  # memory stays bounded
    finally:
        pool.close()
