"""The HTTP API through an in-process ASGI client (the page in Chromium: test_page.py)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chessplace.faces.web import work
from chessplace.faces.web.app import create_app
from chessplace.faces.web.jobs.pool import Pool
from chessplace.faces.web.limits import Limits
from chessplace.faces.web.requests import Options
from chessplace.runtime.control import Control
from tests.paths import ROOT
from tests.waiting import wait_until


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # A long grace: a cancelled count may still be compiling its kernel on a loaded machine.
    with TestClient(create_app(Limits(grace_seconds=30))) as test_client:
        yield test_client


def _wait(client: TestClient, job_id: str, state: str, *, reported: bool = False) -> dict[str, Any]:
    """Poll the job until it reaches ``state`` (and has ``reported`` progress, if asked)."""
    seen: dict[str, Any] = {}

    def reached() -> dict[str, Any]:
        seen.update(client.get(f"/api/jobs/{job_id}").json())
        return dict(seen) if seen["state"] == state and (seen["progress"] or not reported) else {}

    return wait_until(reached, what=lambda: f"job reaching {state} (last seen: {seen})")


def test_api_mirrors_the_cli_json(client: TestClient) -> None:
    data = client.post("/api/solve", json={"puzzle": "queens", "n": 8}).json()
    assert data["status"] == "feasible" and len(data["pieces"]) == 8
    data = client.post("/api/optimize", json={"puzzle": "peaceable-queens", "n": 5}).json()
    assert (data["status"], data["objective"], data["bound"]) == ("optimal", 4, 4)
    data = client.post("/api/count", json={"puzzle": "queens", "n": 8, "unique": True}).json()
    assert (data["count"], data["unique"]) == (92, 12)


def test_api_takes_the_peaceable_variants(client: TestClient) -> None:
    body = {"puzzle": "peaceable-queens", "n": 6, "optimal": True, "unique": True}
    data = client.post("/api/count", json=body).json()
    assert (data["objective"], data["unique"]) == (5, 35)
    body = {"puzzle": "peaceable-queens", "n": 6, "white": 5}
    data = client.post("/api/optimize", json=body).json()
    assert (data["status"], data["objective"]) == ("optimal", 6)
    body = {"puzzle": "peaceable-queens", "n": 4, "armies": 3}
    data = client.post("/api/optimize", json=body).json()
    assert len(data["armies"]) == 3 and data["objective"] == 1
    body = {"puzzle": "queens", "n": 4, "armies": 3}
    assert client.post("/api/optimize", json=body).status_code == 400


def test_api_verify_names_attacks(client: TestClient) -> None:
    pieces = [{"army": "white", "square": "c2"}, {"army": "black", "square": "c1"}]
    data = client.post(
        "/api/verify", json={"puzzle": "peaceable-queens", "n": 5, "pieces": pieces}
    ).json()
    assert data["status"] == "invalid"
    assert "black queen c1 and white queen c2 attack each other" in data["violations"]
    assert ["c1", "c2"] in data["conflicts"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/solve", {"puzzle": "rooks", "n": 8}),
        ("/api/solve", {"puzzle": "queens", "n": 0}),
        ("/api/solve", {"puzzle": "queens"}),
        ("/api/solve", {"puzzle": "peaceable-queens", "n": 5}),
        ("/api/solve", {"puzzle": "queens", "n": 8, "colour": "red"}),
        ("/api/optimize", {"puzzle": "independent", "n": 4, "piece": "fX"}),
        ("/api/count", {"puzzle": "queens", "n": 6, "solver": "gurobi"}),
        ("/api/verify", {"puzzle": "queens", "n": 4, "pieces": [{"square": "99"}]}),
        ("/api/solutions", {"puzzle": "queens", "n": 6, "offset": 4}),
    ],
)
def test_bad_requests_get_a_clear_4xx(
    client: TestClient, path: str, body: dict[str, object]
) -> None:
    response = client.post(path, json=body)
    assert 400 <= response.status_code < 500
    assert response.json()["detail"]
    assert client.get("/api/health").json() == {"status": "ok"}


def test_a_long_job_can_be_cancelled(client: TestClient) -> None:
    job = client.post("/api/jobs", json={"task": "count", "puzzle": "queens", "n": 18}).json()
    _wait(client, job["id"], "running", reported=True)  # counting, not still starting
    client.delete(f"/api/jobs/{job['id']}")
    state = _wait(client, job["id"], "cancelled")
    assert state["result"]["status"] == "partial"


def test_oversized_boards_are_refused_before_any_work(client: TestClient) -> None:
    body = {"task": "count", "puzzle": "queens", "n": 100000, "time_limit": 5}
    response = client.post("/api/jobs", json=body)
    assert response.status_code == 400
    assert response.json() == {
        "detail": "n = 100000 is over this server's limit for count: sides up to 32"
    }
    sides = client.get("/api/limits").json()["sides"]
    for task, side in sides.items():
        path = "/api/jobs" if task in ("solve", "optimize", "count") else f"/api/{task}"
        body = {"task": task, "puzzle": "queens", "rows": 1, "cols": side + 1, "pieces": []}
        body = {key: value for key, value in body.items() if key != "task" or path == "/api/jobs"}
        if task not in ("verify", "render"):
            del body["pieces"]
        if task == "generate":
            body = {"puzzle": "queens-game", "n": side + 1}
        response = client.post(path, json=body)
        assert response.status_code == 400, (task, response.text)
        assert f"limit for {task}: sides up to {side}" in response.json()["detail"]


def test_limits_are_configurable() -> None:
    with TestClient(create_app(Limits().with_sides(count=6))) as small:
        assert small.get("/api/limits").json()["sides"]["count"] == 6
        assert small.post("/api/count", json={"puzzle": "queens", "n": 7}).status_code == 400
        assert small.post("/api/count", json={"puzzle": "queens", "n": 6}).json()["count"] == 4


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (
            '{"puzzle": "queens", "n": 8, "time_limit": NaN}',
            "time_limit: expected a finite number of seconds, not NaN",
        ),
        (
            '{"puzzle": "queens", "n": 8, "time_limit": Infinity}',
            "time_limit: expected a finite number of seconds, not Infinity",
        ),
        ('{"puzzle": "queens", "n": true}', "n: expected a positive integer, not true"),
        ('{"puzzle": "queens", "n": 8.0}', "n: expected a positive integer, not 8.0"),
        ('{"puzzle": "queens", "n": "8"}', 'n: expected a positive integer, not "8"'),
        ('{"puzzle": "queens", "n": 0}', "n: expected a positive integer, not 0"),
        (
            '{"puzzle": "queens", "n": 8, "at_least": -1}',
            "at_least: a count cannot be negative: -1",
        ),
        (
            '{"puzzle": "queens", "n": 8, "time_limit": 0}',
            "time_limit: a time limit must be positive, not 0",
        ),
        (
            '{"puzzle": "queens", "n": 8, "time_limit": 121}',
            "time_limit: at most 120 seconds on this server, not 121",
        ),
        ('{"puzzle": "queens", "n": 8, "unique": 1}', "unique: expected true or false, not 1"),
        ('{"puzzle": "queens", "n": 8, "colour": "red"}', 'unknown option "colour"'),
        ('{"n": 8}', "missing option 'puzzle'"),
        ("[1, 2]", "the body must be a JSON object"),
        ('{"puzzle": ', "the body is not valid JSON"),
    ],
)
def test_bad_values_get_the_clis_one_line(client: TestClient, body: str, detail: str) -> None:
    headers = {"content-type": "application/json"}
    response = client.post("/api/count", content=body, headers=headers)
    assert (response.status_code, response.json()) == (400, {"detail": detail})


@pytest.mark.parametrize(
    ("pieces", "detail"),
    [
        ("a1", 'pieces: expected a list of pieces, not "a1"'),
        (["a1"], 'pieces.0: expected an object, not "a1"'),
    ],
)
def test_bad_pieces_say_what_a_piece_is(client: TestClient, pieces: object, detail: str) -> None:
    response = client.post("/api/verify", json={"puzzle": "queens", "n": 4, "pieces": pieces})
    assert (response.status_code, response.json()) == (400, {"detail": detail})


def test_bodies_are_bounded(client: TestClient) -> None:
    response = client.post("/api/count", json={"puzzle": "x" * 5_000_000, "n": 8})
    assert response.status_code == 413 and len(response.text) < 200
    response = client.post("/api/count", json={"puzzle": "x" * 500_000, "n": 8})
    assert response.json() == {"detail": "puzzle: at most 64 characters"}
    pieces = [{"file": 1 + i % 100, "rank": 1 + i // 100} for i in range(5000)]
    response = client.post("/api/verify", json={"puzzle": "queens", "n": 100, "pieces": pieces})
    assert response.json() == {"detail": "5000 pieces is over this server's limit of 4096"}


def test_verify_reports_squares_off_the_board(client: TestClient) -> None:
    body = {"puzzle": "queens", "n": 4, "pieces": [{"square": "z9"}, {"square": "a1"}]}
    data = client.post("/api/verify", json=body).json()
    assert data["status"] == "invalid"
    assert data["violations"] == ["white piece on z9 is off the 4×4 board"]
    assert "a4" in data["attacked"] and [p["square"] for p in data["pieces"]] == ["a1", "z9"]
    response = client.post("/api/render", json=body)
    assert response.json() == {"detail": "z9 is off the 4×4 board"}


def test_solutions_past_the_end_say_how_many_there_are(client: TestClient) -> None:
    response = client.post("/api/solutions", json={"puzzle": "queens", "n": 6, "offset": 100})
    assert response.status_code == 404
    assert response.json() == {"detail": "there are only 4 solutions; offset 100 is past the end"}
    body = {"puzzle": "queens", "n": 6, "offset": 1, "unique": True}
    assert client.post("/api/solutions", json=body).json() == {
        "detail": "there is only 1 solution up to symmetry; offset 1 is past the end"
    }


@pytest.mark.parametrize(
    ("extra", "detail"),
    [
        ({"solver": "bogus"}, "unknown solver 'bogus'"),
        ({"optimal": True}, "optimal: solutions are listed for the counts given"),
        ({"limit": 2}, "only a count stops at a limit"),
    ],
)
def test_solutions_refuse_options_they_would_ignore(
    client: TestClient, extra: dict[str, object], detail: str
) -> None:
    body = {"puzzle": "queens", "n": 6, "offset": 1, **extra}
    response = client.post("/api/solutions", json=body)
    assert response.status_code == 400 and detail in response.json()["detail"]


@pytest.mark.parametrize("route", ["/api/solve", "/api/optimize"])
@pytest.mark.parametrize(
    ("extra", "detail"),
    [
        ({"unique": True}, "unique: only a count or the solutions list groups by symmetry"),
        ({"optimal": True}, "optimal: only a count counts the optimal placements"),
        ({"limit": 2}, "limit: only a count stops at a limit"),
    ],
)
def test_solve_and_optimize_refuse_count_options_they_would_ignore(
    client: TestClient, route: str, extra: dict[str, object], detail: str
) -> None:
    plain = {"puzzle": "peaceable-queens", "n": 4, "at_least": 2}
    body = {**plain, **extra}
    response = client.post(route, json=body)
    assert response.status_code == 400 and response.json() == {"detail": detail}
    job = client.post("/api/jobs", json={**body, "task": route.removeprefix("/api/")})
    assert job.status_code == 400 and job.json() == {"detail": detail}
    defaults = {"unique": False, "optimal": False, "limit": None}
    assert client.post(route, json={**plain, **defaults}).status_code == 200


def test_jobs_default_to_the_documented_time_limit(client: TestClient) -> None:
    job = client.post("/api/jobs", json={"task": "solve", "puzzle": "queens", "n": 8}).json()
    assert job["time_limit"] == 20.0
    assert _wait(client, job["id"], "done")["result"]["status"] == "feasible"
    limits = ROOT / "docs" / "reference" / "limits.md"
    assert "20 s by default" in limits.read_text(encoding="utf-8")


def test_waiting_jobs_show_their_place_in_line() -> None:
    """With no small lane (test_lanes.py has it), every job waits in one line."""
    with TestClient(create_app(Limits(workers=1, small_workers=0))) as one:
        body = {"task": "count", "puzzle": "queens", "n": 16, "time_limit": 1.5}
        ids = [one.post("/api/jobs", json=body).json()["id"] for _ in range(3)]
        _wait(one, ids[0], "running")
        waiting = [one.get(f"/api/jobs/{job_id}").json() for job_id in ids[1:]]
        assert [(view["state"], view["position"]) for view in waiting] == [
            ("queued", 1),
            ("queued", 2),
        ]
        cancelled = one.delete(f"/api/jobs/{ids[2]}").json()
        assert (cancelled["state"], cancelled["error"]) == (
            "cancelled",
            "cancelled before it started",
        )
        # A synchronous request waits in the same line: it answers after the job before it.
        assert one.post("/api/count", json={"puzzle": "queens", "n": 6}).json()["count"] == 4
        assert one.get(f"/api/jobs/{ids[1]}").json()["state"] == "done"


def _stubborn(control: Control) -> work.Answer:
    """Work that ignores its time limit and every stop (as a hung engine would)."""
    time.sleep(600)  # simulated hung work: its worker must be killed
    raise AssertionError("not killed")


def _hog(control: Control) -> work.Answer:
    """Work that asks for far more memory than a worker may have."""
    return work.Answer("text/plain", bytes(bytearray(4 << 30))[:1])


def test_workers_are_killed_past_their_limit_and_replaced() -> None:
    pool = Pool(Limits(workers=1, grace_seconds=0.5, memory_mb=512))
    try:
        started = time.monotonic()
        outcome = pool.submit(_stubborn, 0.5).future.result(timeout=60)
        assert outcome.status == 503 and "did not stop at its 0.5 s limit" in outcome.message
        assert time.monotonic() - started < 30
        stopped = pool.submit(_stubborn, 60)
        wait_until(lambda: pool.where(stopped)[0] == "running", what="the stubborn job running")
        pool.cancel(stopped)
        outcome = stopped.future.result(timeout=30)
        assert (stopped.state, outcome.answer) == ("cancelled", None)
        outcome = pool.submit(_hog, 5).future.result(timeout=60)
        assert (outcome.status, outcome.message) == (503, "out of memory: each job may use 512 MiB")
        solve = partial(work.task, "solve", Options(puzzle="queens", n=8))
        answer = pool.submit(solve, 5).future.result(timeout=60).answer
        assert answer is not None and json.loads(answer.body)["status"] == "feasible"
    finally:
        pool.close()


def test_serve_refuses_bad_ports_in_one_line() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for arguments in (["--port", "80000"], ["--port", str(port)]):
            done = subprocess.run(
                [sys.executable, "-m", "chessplace", "serve", *arguments],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 2, done.stderr
            assert done.stderr.count("\n") == 1 and done.stderr.startswith("chessplace: error:")


def test_render_endpoint_draws(client: TestClient) -> None:
    pieces = [{"square": "a1"}, {"square": "b3"}]
    svg = client.post("/api/render?format=svg", json={"puzzle": "queens", "n": 4, "pieces": pieces})
    assert svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content
    png = client.post("/api/render?format=png", json={"puzzle": "queens", "n": 4, "pieces": pieces})
    assert png.content.startswith(b"\x89PNG")
