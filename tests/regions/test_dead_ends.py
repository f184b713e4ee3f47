"""Hints and explanations where no solution lies ahead: a grid with none says so (it
said "needs guessing", and hint answered a step), and crowns placed where no solution
has one are named (hint carried on from them, pointing outside the solution)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from chessplace import api
from chessplace.core.board import square_name
from chessplace.core.placement import Placement
from chessplace.faces.cli import main
from chessplace.faces.explain import explain
from chessplace.faces.web.app import create_app
from chessplace.faces.web.limits import Limits
from chessplace.notation.puzzles import region_puzzle

ONE = ["ABBB", "AABB", "CCCD", "CCDD"]  # one solution: a3 b1 c4 d2
STRIPES = ["AAAA", "BBBB", "CCCC", "DDDD"]  # two solutions, the two 4-queens
NONE = ["AAAA", "ABBA", "ACCA", "ADDA"]  # B, C and D lie in files b and c alone
CORNERED = ["ABCCC", "CCCCC", "DDDDD", "EEEEE", "EEEEE"]
"""The issue's kind of grid: A and B are single squares side by side in one rank. The
rules take 14 steps here and stopped with "needs guessing"."""


def _cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, grid: list[str], *args: str
) -> tuple[int, str]:
    path = tmp_path / "grid.txt"
    path.write_text("\n".join(grid) + "\n")
    code = main([*args[:1], "queens-game", "--grid", str(path), *args[1:]])
    out, err = capsys.readouterr()
    assert not err, err
    return code, out


def _placed(tmp_path: Path, *squares: str) -> str:
    path = tmp_path / "placed.json"
    path.write_text(json.dumps({"pieces": [{"square": s} for s in squares]}))
    return str(path)


@pytest.mark.parametrize("grid", [NONE, CORNERED])
@pytest.mark.parametrize("command", ["explain", "hint"])
def test_a_grid_without_a_solution_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, grid: list[str], command: str
) -> None:
    assert api.count(region_puzzle("queens-game", grid)).count == 0
    assert _cli(capsys, tmp_path, grid, command) == (1, "the grid has no solution\n")
    code, out = _cli(capsys, tmp_path, grid, command, "--json")
    data = json.loads(out)
    assert (code, data["dead_end"], data["message"]) == (1, "grid", "the grid has no solution")
    assert data.get("step") is None and not data.get("steps")


def test_a_crown_in_no_solution_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = _cli(capsys, tmp_path, ONE, "hint", "--placed", _placed(tmp_path, "c4", "a1"))
    assert (code, out) == (1, "no solution has a piece on a1: take it off\n")
    code, out = _cli(capsys, tmp_path, ONE, "hint", "--placed", _placed(tmp_path, "c4", "a3"))
    assert code == 0 and out.startswith("[easy] touching")  # right so far: the next step
    wrong = _placed(tmp_path, "c3", "a1")
    code, out = _cli(capsys, tmp_path, ONE, "hint", "--placed", wrong, "--json")
    data = json.loads(out)
    assert code == 1 and (data["dead_end"], data["misplaced"]) == ("misplaced", ["a1", "c3"])
    assert data["message"] == "no solution has a piece on a1 c3: take them off"


def test_crowns_of_two_solutions_are_not_one_solution() -> None:
    problem = region_puzzle("queens-game", STRIPES)
    first, second = (set(p.armies[0]) for p in api.solutions(problem))
    mixed = [
        (a, b)
        for a in first - second
        for b in second - first
        if a[0] != b[0] and abs(a[1] - b[1]) > 1
    ]
    assert mixed
    placement = Placement.from_squares(problem, [list(mixed[0])])
    found = explain(problem, placement)
    assert (found.dead_end, found.steps, found.misplaced) == ("together", (), ())
    named = " ".join(square_name(s) for s in sorted(mixed[0]))
    assert found.dead_end_text() == f"no solution holds the pieces on {named} together"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(grace_seconds=30))) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("grid", "pieces", "dead_end", "message"),
    [
        (NONE, [], "grid", "the grid has no solution"),
        (ONE, ["c4", "a1"], "misplaced", "no solution has a piece on a1: take it off"),
    ],
)
def test_the_hint_api_says_why_no_step_follows(
    client: TestClient, grid: list[str], pieces: list[str], dead_end: str, message: str
) -> None:
    body = {"puzzle": "queens-game", "grid": grid, "pieces": [{"square": s} for s in pieces]}
    response = client.post("/api/hint", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert (data["dead_end"], data["message"], data["step"], data["next_piece"]) == (
        dead_end,
        message,
        None,
        None,
    )
    assert data["solved"] is False


def test_a_hint_on_the_way_has_no_dead_end(client: TestClient) -> None:
    body = {"puzzle": "queens-game", "grid": ONE, "pieces": [{"square": "c4"}]}
    data = client.post("/api/hint", json=body).json()
    assert (data["dead_end"], data["misplaced"], data["message"]) == (None, [], None)
    assert data["step"] is not None
