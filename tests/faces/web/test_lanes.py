"""Small jobs have a lane of their own: a worker reserved for them, with its own line,
so that a trivial request never waits behind expensive ones (issue 42: one waited
12 s, p50). Every assertion here is on states and order, none on wall-clock time."""

from __future__ import annotations

import json
import time
from functools import partial

import pytest
from fastapi.testclient import TestClient

from chessplace.faces.cli.parser import build_parser
from chessplace.faces.web import work
from chessplace.faces.web.app import create_app
from chessplace.faces.web.jobs.pool import SHUTTING_DOWN, Pool
from chessplace.faces.web.jobs.tickets import Busy, Ticket
from chessplace.faces.web.limits import Limits
from chessplace.faces.web.requests import Options
from chessplace.runtime.control import Control
from tests.waiting import wait_until

LONG = {"task": "optimize", "puzzle": "peaceable-queens", "n": 16, "time_limit": 30}
"""A job that runs for its whole limit: a(16) takes minutes to prove."""


def _until_stopped(control: Control) -> work.Answer:
    """Work that runs until its time limit or a stop."""
    while not control.stopped:
        time.sleep(0.01)  # simulated work, polling its stop as an engine does
    return work.Answer("application/json", b'{"stopped": true}')


def _for_a_second(control: Control) -> work.Answer:
    """Work that needs a second of its time limit, and says whether it was stopped first."""
    while control.elapsed() < 1.0 and not control.stopped:
        time.sleep(0.01)  # simulated work: a second of it, polling its stop
    return work.Answer("application/json", json.dumps({"stopped": control.stopped}).encode())


def _quick(control: Control) -> work.Answer:
    return work.Answer("application/json", b'{"quick": true}')


def _running(pool: Pool, ticket: Ticket) -> bool:
    return pool.where(ticket)[0] == "running"


def test_a_small_request_passes_the_long_jobs_before_it() -> None:
    """One ordinary worker runs a long job and another waits for it: a small solve is
    answered at once by the small worker, while the two long ones still run and wait.
    In one line (today's pool) it answered only after both, a minute later."""
    limits = Limits(workers=1, grace_seconds=30, small_seconds=60)  # 60: a loaded machine
    with TestClient(create_app(limits)) as client:
        ids = [client.post("/api/jobs", json=LONG).json()["id"] for _ in range(2)]
        wait_until(
            lambda: client.get(f"/api/jobs/{ids[0]}").json()["state"] == "running",
            what="the first long job running",
        )
        quick = client.post("/api/solve", json={"puzzle": "queens", "n": 8})
        assert quick.status_code == 200 and quick.json()["status"] == "feasible"
        job = {"task": "count", "puzzle": "queens", "n": 6}
        job_id = client.post("/api/jobs", json=job).json()["id"]
        wait_until(
            lambda: client.get(f"/api/jobs/{job_id}").json()["state"] == "done",
            what="the small count done",
        )
        assert client.get(f"/api/jobs/{job_id}").json()["result"]["count"] == 4
        views = [client.get(f"/api/jobs/{job_id}").json() for job_id in ids]
        assert [(view["state"], view.get("position")) for view in views] == [
            ("running", None),
            ("queued", 1),
        ]
        for job_id in ids:
            client.delete(f"/api/jobs/{job_id}")


def test_expensive_jobs_never_take_the_small_lane() -> None:
    pool = Pool(Limits(workers=1, small_workers=1))
    try:
        first, second = (pool.submit(_until_stopped, 60) for _ in range(2))
        wait_until(lambda: _running(pool, first), what="the first job running")
        assert len(pool.pids()) == 2  # the small worker is there, and idle
        small = pool.submit(_quick, 60, small=True)
        assert small.future.result(timeout=60).answer == work.Answer(
            "application/json", b'{"quick": true}'
        )
        assert pool.where(second) == ("queued", 1)  # it waited while the small worker ran
        for ticket in (first, second):
            pool.cancel(ticket)
        assert second.future.result(timeout=60).message == "cancelled before it started"
    finally:
        pool.close()


def test_an_idle_ordinary_worker_takes_small_jobs() -> None:
    """Small jobs use every idle worker: the small one and the ordinary one at once."""
    pool = Pool(Limits(workers=1, small_workers=1))
    try:
        tickets = [pool.submit(_until_stopped, 60, small=True) for _ in range(2)]
        wait_until(
            lambda: all(_running(pool, ticket) for ticket in tickets), what="both jobs running"
        )
        for ticket in tickets:
            pool.cancel(ticket)
            assert ticket.future.result(timeout=60).answer is not None
    finally:
        pool.close()


def test_a_small_job_stopped_by_its_lane_runs_again_in_the_ordinary_line() -> None:
    """The small lane gives a job ``small_seconds``; one that needed more (and asked for
    it) goes to the back of the ordinary line and is answered under its own limit."""
    pool = Pool(Limits(workers=1, small_workers=1, small_seconds=0.2))
    try:
        blocker = pool.submit(_until_stopped, 60)
        wait_until(lambda: _running(pool, blocker), what="the blocker running")
        moved = pool.submit(_for_a_second, 60, small=True)
        # stopped by its lane at 0.2 s, it moved on
        wait_until(lambda: not moved.small, what="the job moved to the ordinary line")
        assert pool.where(moved) == ("queued", 1) and not moved.future.done()
        short = pool.submit(_for_a_second, 0.1, small=True)  # asked for less: answered there
        assert json.loads(_body(short)) == {"stopped": True}
        pool.cancel(blocker)
        assert json.loads(_body(moved)) == {"stopped": False}  # its whole second, elsewhere
    finally:
        pool.close()


def test_the_small_lane_has_its_own_bound_and_ends_with_the_server() -> None:
    pool = Pool(Limits(workers=1, small_workers=1, queue=1, small_queue=1))
    try:
        blocker = pool.submit(_until_stopped, 60)
        wait_until(lambda: _running(pool, blocker), what="the blocker running")
        running = pool.submit(_until_stopped, 60, small=True)
        wait_until(lambda: _running(pool, running), what="the small job running")
        waiting = pool.submit(_until_stopped, 60, small=True)
        with pytest.raises(Busy, match="the server is busy: 1 small jobs wait"):
            pool.submit(_quick, 60, small=True)
        ordinary = pool.submit(_quick, 60)  # the other line still has room
        with pytest.raises(Busy, match="the server is busy: 1 jobs wait"):
            pool.submit(_quick, 60)
    finally:
        pool.close()
    for ticket in (blocker, running, waiting, ordinary):
        outcome = ticket.future.result(timeout=60)
        assert (outcome.status, outcome.message) == (503, SHUTTING_DOWN)


def test_no_small_lane_is_one_line() -> None:
    pool = Pool(Limits(workers=1, small_workers=0))
    try:
        blocker = pool.submit(_until_stopped, 60)
        wait_until(lambda: _running(pool, blocker), what="the blocker running")
        small = pool.submit(_quick, 60, small=True)
        assert pool.where(small) == ("queued", 1) and len(pool.pids()) == 1
        pool.cancel(blocker)
        assert small.future.result(timeout=60).answer is not None
    finally:
        pool.close()


def test_small_is_decided_by_the_task_and_its_board() -> None:
    limits = Limits()
    assert limits.small("solve", (8, 8)) and limits.small("solutions", (4, 16))
    assert not limits.small("solve", (8, 9)) and not limits.small("solve", None)
    assert limits.small("count", (6, 6)) and not limits.small("count", (7, 7))
    assert limits.small("optimize", (6, 6)) and not limits.small("generate", (4, 4))
    assert not Limits(small_workers=0).small("solve", (8, 8))
    with pytest.raises(ValueError, match="small_workers"):
        Limits(small_workers=-1)
    assert {"small_workers", "small_queue", "small_seconds"} <= set(limits.public())


def test_serve_takes_the_small_lane_options() -> None:
    arguments = build_parser().parse_args(["serve", "--small-workers", "0", "--small-queue", "3"])
    assert (arguments.small_workers, arguments.small_queue) == (0, 3)
    assert build_parser().parse_args(["serve"]).small_workers == 1


def test_a_real_solve_through_the_small_lane() -> None:
    pool = Pool(Limits(workers=1, small_workers=1, small_seconds=60))
    try:
        blocker = pool.submit(_until_stopped, 60)
        wait_until(lambda: _running(pool, blocker), what="the blocker running")
        solve = partial(work.task, "solve", Options(puzzle="queens", n=8))
        assert json.loads(_body(pool.submit(solve, 20, small=True)))["status"] == "feasible"
        assert pool.where(blocker)[0] == "running"
    finally:
        pool.close()


def _body(ticket: Ticket) -> bytes:
    answer = ticket.future.result(timeout=60).answer
    assert answer is not None
    return answer.body
