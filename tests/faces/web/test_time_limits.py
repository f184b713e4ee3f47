"""A request stopped by its time limit is answered (200, what was found, marked
unknown or stopped), not 503: that code tells a client the server is busy and to
retry, which the same request would not change. A full server still answers 503."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from chessplace.faces.web.app import create_app
from chessplace.faces.web.limits import Limits

STUCK = ["AAA" + "B" * 27, "B" * 30] + [letter * 30 for letter in "CDEFGHIJKLMNOPQRSTUVWXYZ0123"]
"""A 30×30 two-star grid whose rules find four steps, then try squares for minutes."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(grace_seconds=30, workers=1))) as test_client:
        yield test_client


def test_a_hint_stopped_by_its_time_limit_answers_its_steps(client: TestClient) -> None:
    """Once the regions engine is loaded (its first use takes seconds), so that the
    time limit cuts the rules, not the loading."""
    small = {"puzzle": "queens-game", "grid": ["ABBB", "AABB", "CCCD", "CCDD"], "pieces": []}
    assert client.post("/api/hint", json=small).status_code == 200
    body = {"puzzle": "star-battle", "stars": 2, "grid": STUCK, "pieces": [], "time_limit": 3}
    response = client.post("/api/hint", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["stopped"] is True and data["difficulty"] is None
    assert data["step"]["rule"] == "confined" and data["dead_end"] is None
    assert data["message"].startswith("the rules were stopped after")


def test_browsing_stopped_by_its_time_limit_answers_unknown(client: TestClient) -> None:
    """A thousand 16-queens, each checked, take far longer than 10 ms."""
    body = {"puzzle": "queens", "n": 16, "offset": 1000, "time_limit": 0.01}
    response = client.post("/api/solutions", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert (data["status"], data["pieces"], data["offset"]) == ("unknown", [], 1000)
    assert data["note"].startswith("stopped after")


def test_a_page_of_solutions_says_it_was_found(client: TestClient) -> None:
    data = client.post("/api/solutions", json={"puzzle": "queens", "n": 6, "offset": 1}).json()
    assert (data["status"], data["more"], len(data["pieces"])) == ("feasible", True, 6)


def test_hints_take_their_turn_in_the_pool() -> None:
    """One worker and one place in line: of three long hints at once, at least one is
    told the server is busy (503). Hints ran in the server process, outside the pool:
    45 of them made a tiny verify wait 20 s, and none was ever refused."""
    body = {"puzzle": "star-battle", "stars": 2, "grid": STUCK, "pieces": [], "time_limit": 3}
    app = create_app(Limits(grace_seconds=30, workers=1, queue=1))
    with TestClient(app) as client, ThreadPoolExecutor(3) as threads:
        answers = list(threads.map(lambda _: client.post("/api/hint", json=body), range(3)))
    codes = sorted(answer.status_code for answer in answers)
    assert 503 in codes and 200 in codes, codes
    busy = next(answer for answer in answers if answer.status_code == 503)
    assert busy.json()["detail"].startswith("the server is busy")
