"""Region puzzles (the Queens game, Star Battle) over the HTTP API: grids in, grids out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chessplace import api
from chessplace.core.board import square_name
from chessplace.faces.web.app import create_app
from chessplace.faces.web.limits import Limits
from chessplace.notation.puzzles import region_puzzle

# Hand-made 4×4 grids: one solution, several, none (each checked by api.count below).
ONE = ["ABBB", "AABB", "CCCD", "CCDD"]
STRIPES = ["AAAA", "BBBB", "CCCC", "DDDD"]  # one region per rank: the 4-queens-kings
NONE = ["AAAA", "ABBA", "ACCA", "ADDA"]  # B, C and D lie in files b and c alone


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(grace_seconds=30))) as test_client:
        yield test_client


def _count(grid: list[str], stars: int | None = None) -> int:
    """The number of solutions by the library itself (an independent full count)."""
    result = api.count(region_puzzle("star-battle" if stars else "queens-game", grid, stars))
    assert result.count is not None
    return result.count


@pytest.mark.parametrize(
    ("grid", "words"), [(ONE, (1, "complete")), (STRIPES, (2, "feasible")), (NONE, (0, "complete"))]
)
def test_a_count_with_limit_two_tells_unique_from_several_and_none(
    client: TestClient, grid: list[str], words: tuple[int, str]
) -> None:
    body = {"puzzle": "queens-game", "grid": grid, "limit": 2}
    data = client.post("/api/count", json=body).json()
    assert (data["count"], data["status"]) == words
    assert data["count"] == min(2, _count(grid))
    assert data["grid"] == grid and data["stars"] == 1


def test_a_grid_is_solved_verified_and_drawn_with_its_regions(client: TestClient) -> None:
    solved = client.post("/api/solve", json={"puzzle": "queens-game", "grid": ONE}).json()
    assert solved["status"] == "feasible" and len(solved["pieces"]) == 4
    pieces = [{"square": piece["square"]} for piece in solved["pieces"]]
    body = {"puzzle": "queens-game", "grid": ONE, "pieces": pieces}
    assert client.post("/api/verify", json=body).json()["status"] == "valid"
    body["pieces"] = [{"square": "a1"}, {"square": "b2"}]
    verdict = client.post("/api/verify", json=body).json()
    assert "crowns on a1 and b2 touch" in verdict["violations"]
    assert "region B has 0 crowns, it needs 1" in verdict["violations"]
    assert verdict["conflicts"] == [["a1", "b2"]]
    svg = client.post("/api/render", json=body).text
    assert 'class="walls"' in svg
    none = client.post("/api/solve", json={"puzzle": "queens-game", "grid": NONE}).json()
    assert none["status"] == "infeasible"


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"grid": ["AB", "BA"]}, "region A is not connected: it is in 2 parts"),
        ({"grid": ["AAB", "AB", "CCC"]}, "grid row 2 has 2 cells, row 1 has 3"),
        ({"grid": ["AAA", "BBB", "BBB"]}, "the grid has 2 regions (AB); it needs 3, one per row"),
        ({"grid": ["A-", "AB"]}, "grid row 1: '-' is not a region label (use A-Z, a-z or 0-9)"),
        ({"grid": "AB\nAB"}, 'grid: expected a list of strings, one per row, not "AB\\nAB"'),
        ({"grid": ["AB", 7]}, "grid.1: expected a string, not 7"),
        ({"grid": []}, "the grid is empty"),
        (
            {"grid": ONE, "stars": 2},
            "stars are for star-battle; the Queens game has one queen per row",
        ),
        ({"grid": ONE, "n": 5}, "the grid is 4×4, not 5×5"),
        ({"grid": ONE, "limit": 0}, "limit: expected a positive integer, not 0"),
        ({"grid": ONE, "limit": True}, "limit: expected a positive integer, not true"),
        ({}, "queens-game needs a grid of regions"),
    ],
)
def test_bad_grids_get_one_line_and_a_400(
    client: TestClient, body: dict[str, Any], detail: str
) -> None:
    response = client.post("/api/count", json={"puzzle": "queens-game", **body})
    assert response.status_code == 400
    assert response.json() == {"detail": detail}


def test_a_grid_too_large_for_the_task_is_refused_before_any_work() -> None:
    with TestClient(create_app(Limits(workers=1).with_sides(count=5))) as small:
        rows = ["ABCDEF"[r] * 6 for r in range(6)]
        response = small.post("/api/count", json={"puzzle": "queens-game", "grid": rows})
        assert response.json() == {
            "detail": "n = 6 is over this server's limit for count: sides up to 5"
        }
        response = small.post("/api/solve", json={"puzzle": "queens", "n": 6, "limit": 2})
        assert response.json() == {"detail": "limit: only a count stops at a limit"}


@pytest.mark.parametrize(
    ("puzzle", "n", "stars"), [("queens-game", 7, None), ("star-battle", 8, 2)]
)
def test_a_generated_grid_has_exactly_one_solution(
    client: TestClient, puzzle: str, n: int, stars: int | None
) -> None:
    body = {"puzzle": puzzle, "n": n, "seed": 11, "stars": stars}
    data = client.post("/api/generate", json=body).json()
    assert (data["status"], data["seed"], data["count"]) == ("feasible", 11, 1)
    grid = data["grid"]
    assert len(grid) == n and all(len(row) == n for row in grid)
    assert _count(grid, stars) == 1
    # the solution given with it is that one solution, valid on the grid
    found = region_puzzle(puzzle, grid, stars)
    placement = api.solve(found).placement
    assert placement is not None
    assert {piece["square"] for piece in data["pieces"]} == {
        f"{chr(97 + f)}{r + 1}" for f, r in placement.armies[0]
    }
    again = client.post("/api/generate", json=body).json()
    assert again["grid"] == grid  # a seed makes the same grid


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        ({"puzzle": "queens-game", "n": 13}, 400, "over this server's limit for generate"),
        ({"puzzle": "queens", "n": 6}, 400, "generate makes queens-game and star-battle grids"),
        ({"puzzle": "star-battle", "n": 5, "stars": 2}, 400, "two neighbouring rows of 5"),
        ({"puzzle": "queens-game", "n": 6, "seed": 1.5}, 400, "seed: expected an integer"),
        ({"puzzle": "queens-game", "n": 6, "grid": ONE}, 400, 'unknown option "grid"'),
        ({"puzzle": "queens-game", "n": 6, "time_limit": 500}, 400, "at most 120 seconds"),
    ],
)
def test_bad_generate_requests_get_one_line(
    client: TestClient, body: dict[str, Any], status: int, detail: str
) -> None:
    response = client.post("/api/generate", json=body)
    assert response.status_code == status
    assert detail in response.json()["detail"] and "\n" not in response.json()["detail"]


def test_the_catalog_describes_region_puzzles(client: TestClient) -> None:
    from chessplace.forms.svg import region_colour

    catalog = client.get("/api/catalog").json()
    found = {p["name"]: p for p in catalog["puzzles"] if p.get("takes_grid")}
    assert set(found) == {"queens-game", "star-battle"}
    assert found["star-battle"]["takes_stars"] and not found["queens-game"]["takes_stars"]
    assert catalog["drawing"]["regions"][:3] == [region_colour(r) for r in range(3)]
    assert client.get("/api/limits").json()["sides"]["generate"] == 12


def test_the_hint_says_solved_once_every_piece_is_placed(client: TestClient) -> None:
    """A hint from the whole solution has no step and says solved; one piece short,
    the hint places the missing piece."""
    problem = region_puzzle("queens-game", ONE)
    solution = api.solve(problem).placement
    assert solution is not None
    pieces = [{"square": square_name(s)} for s in sorted(solution.armies[0])]
    whole = client.post("/api/hint", json={"puzzle": "queens-game", "grid": ONE, "pieces": pieces})
    assert whole.status_code == 200, whole.text
    data = whole.json()
    assert data["solved"] is True and data["step"] is None and data["next_piece"] is None
    short = client.post(
        "/api/hint", json={"puzzle": "queens-game", "grid": ONE, "pieces": pieces[1:]}
    ).json()
    assert short["solved"] is False and short["next_piece"]["step"]["places"] == [
        pieces[0]["square"]
    ]
