"""A real ``chessplace serve`` lets go of work no one waits for: a client that hangs up
takes its job with it, and SIGTERM answers every open request at once."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from tests.processes import alive, children, start_server
from tests.waiting import wait_until

LONG = {"puzzle": "peaceable-queens", "n": 16, "time_limit": 100}
"""A job that runs for its whole limit: a(16) takes minutes to prove."""


def _post_and_hang_up(url: str, body: dict[str, object]) -> None:
    """Send a request over a raw socket and close it without reading the answer."""
    parts = urlsplit(url)
    data = json.dumps(body).encode()
    head = (
        f"POST /api/optimize HTTP/1.1\r\nHost: {parts.hostname}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    with socket.create_connection((parts.hostname, parts.port)) as client:
        client.sendall(head.encode() + data)
        mine = client.getsockname()[1]
        wait_until(
            lambda: _received(parts.port).get(mine) == 0, what="the server reading the request"
        )


def test_a_client_that_hangs_up_takes_its_job_with_it() -> None:
    """Three abandoned 100 s jobs on one worker would hold a fourth request for five
    minutes; cancelled, they let it through well within its one-minute wait (with no
    small lane, which would let it pass them anyway)."""
    url, server = start_server("--workers", "1", "--small-workers", "0")
    ours = _descendants(server.pid)
    try:
        for _ in range(3):
            _post_and_hang_up(url, LONG)
        quick = httpx.post(f"{url}/api/solve", json={"puzzle": "queens", "n": 8}, timeout=60)
        assert quick.status_code == 200 and len(quick.json()["pieces"]) == 8
    finally:
        _stop(server, ours)


def test_sigterm_answers_every_open_request_and_leaves_no_worker() -> None:
    url, server = start_server("--workers", "1")
    answers: list[tuple[int, str] | BaseException] = []

    def ask() -> None:
        try:
            reply = httpx.post(f"{url}/api/optimize", json=LONG, timeout=120)
            answers.append((reply.status_code, reply.json()["detail"]))
        except BaseException as error:  # reported by the assertion below
            answers.append(error)

    askers = [threading.Thread(target=ask, daemon=True) for _ in range(3)]  # 1 runs, 2 wait
    for asker in askers:
        asker.start()
    port = urlsplit(url).port

    def all_read() -> bool:
        unread = _received(port).values()
        return len(unread) >= 3 and not any(unread)

    wait_until(all_read, what="the server reading the three requests")
    ours = _descendants(server.pid)  # before the server ends: its orphans are reparented
    try:
        server.terminate()
        server.wait(timeout=60)  # uvicorn alone: up to 3 × 100 s, starting queued work
    finally:
        _stop(server, ours)
    for asker in askers:
        asker.join(timeout=60)
    assert answers == [(503, "the server is shutting down")] * 3
    # the workers see their server gone within a second
    wait_until(lambda: not any(map(alive, ours)), what="the workers gone")


def _received(port: int | None) -> dict[int, int]:
    """Established connections to this machine's ``port`` (its server side), by the
    client's port: the bytes received that the server has not read yet."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return {
        int(f[2].rsplit(":", 1)[1], 16): int(f[4].split(":")[1], 16)
        for f in (row.split() for row in rows)
        if f[1].endswith(f":{port:04X}") and f[3] == "01"
    }


def _descendants(pid: int) -> list[int]:
    """The server's processes below it: the forkserver, its workers, the resource tracker."""
    found, todo = [], children(pid)
    while todo:
        child = todo.pop()
        found.append(child)
        todo.extend(children(child))
    return found


def _stop(server: subprocess.Popen[bytes], ours: Sequence[int]) -> None:
    """SIGTERM, then SIGKILL to the server and ``ours`` (its processes) if it has not
    ended in a minute, so that a failing test leaves nothing of its own running."""
    server.terminate()
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        for pid in [server.pid, *ours]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        server.wait()
