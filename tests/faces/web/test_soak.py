"""A bounded soak of a real server on loopback: long jobs queue, quick requests stay quick.

Only 127.0.0.1 is contacted; every loop is bounded in count and time.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.processes import alive, start_server
from tests.waiting import wait_until

LONG_JOBS = 30
JOB_SECONDS = 0.5  # 30 jobs on 2 workers: a queue for 7.5 s, the quick requests take about 1 s
GRACE = 5.0  # the server's default grace before a worker is killed
QUICK_REQUESTS = 500
IN_FLIGHT = 20
MEMORY_BOUND_MB = 1000  # RSS of the server, forkserver, two workers and their children (~400 seen)
JOB = {"task": "count", "puzzle": "queens", "n": 16, "time_limit": JOB_SECONDS}


def _family(root: int) -> list[int]:
    """``root`` and every process descended from it, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    family, grown = {root}, True
    while grown:
        children = {pid for pid, parent in parents.items() if parent in family}
        grown = not children <= family
        family |= children
    return sorted(family)


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    url, process = start_server("--workers", "2")
    try:
        yield url, process.pid
    finally:
        family = _family(process.pid)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        wait_until(lambda: not any(map(alive, family)), what="the workers gone with the server")


class Watch:
    """Polls health and the memory of the server's process family until stopped."""

    def __init__(self, url: str, pid: int) -> None:
        self.url, self.pid = url, pid
        self.failures: list[str] = []
        self.most_mb = 0.0
        self.checks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        with httpx.Client(timeout=5) as client:
            for _ in range(1000):  # at most 1000 checks, one every 0.1 s
                if self._stop.wait(0.1):
                    return
                self.most_mb = max(self.most_mb, _rss_mb(_family(self.pid)))
                try:
                    if client.get(f"{self.url}/api/health").json() != {"status": "ok"}:
                        self.failures.append("unhealthy")
                except httpx.HTTPError as error:
                    self.failures.append(repr(error))
                self.checks += 1


def _quick(client: httpx.Client, url: str, number: int, job_ids: list[str]) -> None:
    """One of five quick requests that never wait for a worker, with its expected answer."""
    kind = number % 5
    if kind == 0:
        assert client.get(f"{url}/api/health").status_code == 200
    elif kind == 1:
        assert client.get(f"{url}/api/limits").json()["workers"] == 2
    elif kind == 2:
        pieces = [{"square": "a1"}, {"square": "b3"}]
        body = {"puzzle": "queens", "n": 8, "pieces": pieces}
        assert client.post(f"{url}/api/verify", json=body).json()["attacked"]
    elif kind == 3:
        bad = b'{"puzzle": "queens", "n": 8, "time_limit": NaN}'
        response = client.post(
            f"{url}/api/count", content=bad, headers={"content-type": "application/json"}
        )
        assert response.status_code == 400 and "NaN" in response.json()["detail"]
    else:
        job_id = job_ids[number % len(job_ids)]
        assert client.get(f"{url}/api/jobs/{job_id}").json()["id"] == job_id


def test_soak(server: tuple[str, int]) -> None:
    url, pid = server
    with httpx.Client(timeout=30) as client:
        warm = client.post(f"{url}/api/count", json={k: v for k, v in JOB.items() if k != "task"})
        assert warm.json()["status"] in ("partial", "complete")  # the kernel is compiled now

    with Watch(url, pid) as watch, ThreadPoolExecutor(IN_FLIGHT) as threads:
        with httpx.Client(timeout=10) as client:
            started = list(
                threads.map(lambda _: client.post(f"{url}/api/jobs", json=JOB), range(LONG_JOBS))
            )
        job_ids = [response.json()["id"] for response in started]
        views = [response.json() for response in started]
        running = [view for view in views if view["state"] == "running"]
        queued = [view for view in views if view["state"] == "queued"]
        assert len(running) <= 2 and len(queued) >= LONG_JOBS // 2
        assert all(1 <= view["position"] <= LONG_JOBS for view in queued)

        limits = httpx.Limits(max_connections=IN_FLIGHT)
        with httpx.Client(timeout=10, limits=limits) as client:
            list(threads.map(lambda n: _quick(client, url, n, job_ids), range(QUICK_REQUESTS)))

        ended = _wait_for_all(url, job_ids, LONG_JOBS * (JOB_SECONDS + GRACE))

    assert watch.checks > 10 and not watch.failures, watch.failures[:3]
    assert watch.most_mb < MEMORY_BOUND_MB, watch.most_mb
    for view in ended:
        assert view["state"] == "done", view
        assert view["result"]["status"] in ("partial", "complete")
        assert view["seconds"] <= JOB_SECONDS + GRACE + 2, view


def _wait_for_all(url: str, job_ids: list[str], seconds: float) -> list[dict[str, Any]]:
    views: list[dict[str, Any]] = []
    with httpx.Client(timeout=10) as client:

        def ended() -> list[dict[str, Any]]:
            views[:] = [client.get(f"{url}/api/jobs/{job_id}").json() for job_id in job_ids]
            return views if all(v["state"] not in ("queued", "running") for v in views) else []

        return wait_until(
            ended,
            what=lambda: f"every job ended (states: {[view['state'] for view in views]})",
            timeout=seconds,
            every=0.25,
        )


def test_the_server_outlives_a_client_sending_nan(server: tuple[str, int]) -> None:
    url, _ = server
    bad = b'{"puzzle": "queens", "n": 8, "time_limit": Infinity}'
    with httpx.Client(timeout=10) as client:  # one kept-alive connection
        response = client.post(
            f"{url}/api/solve", content=bad, headers={"content-type": "application/json"}
        )
        assert response.status_code == 400
        assert client.get(f"{url}/api/health").json() == {"status": "ok"}
        oversized = client.post(f"{url}/api/count", content=b"x" * (2 << 20))
        assert oversized.status_code == 413
    assert os.path.exists(f"/proc/{server[1]}")
