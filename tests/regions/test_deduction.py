"""Human-style deduction for region puzzles: every step sound, named, and graded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chessplace import api
from chessplace.faces.cli import main
from chessplace.making import new_puzzle
from chessplace.notation.puzzles import region_puzzle
from chessplace.regions.deduction import explain_from as explain

README_GRID = ("AAABBB", "AAACCD", "EAAADD", "EAAFDD", "EFFFFD", "EEEFFD")


def test_the_readme_grid_is_solved_by_the_rules_alone() -> None:
    problem = region_puzzle("queens-game", README_GRID)
    assert problem.regions is not None
    found = explain(problem.regions)
    assert found.solved and found.grade == "hard"
    solution = api.solve(problem).placement
    assert solution is not None and found.pieces == tuple(sorted(solution.armies[0]))
    assert {step.rule for step in found.steps} >= {"confined", "last squares", "touching"}


def test_solve_reports_the_difficulty_by_the_rules(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    problem = region_puzzle("queens-game", README_GRID)
    assert problem.regions is not None
    found = explain(problem.regions)
    assert api.solve(problem).difficulty == ("hard", len(found.steps))
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(README_GRID) + "\n")
    assert main(["solve", "queens-game", "--grid", str(grid)]) == 0
    assert f"difficulty: hard ({len(found.steps)} steps)" in capsys.readouterr().out
    assert main(["solve", "queens-game", "--grid", str(grid), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["difficulty"], data["steps"]) == ("hard", len(found.steps))
    stripes = tmp_path / "stripes.txt"
    stripes.write_text("AAAA\nBBBB\nCCCC\nDDDD\n")
    assert main(["solve", "queens-game", "--grid", str(stripes)]) == 0
    assert "needs guessing after" in capsys.readouterr().out


def test_solve_grades_grids_up_to_30_a_side_only() -> None:
    """Past 30×30 the rules would take seconds on top of a millisecond solve."""
    from string import ascii_letters

    stripes = lambda n: [ascii_letters[i] * n for i in range(n)]  # noqa: E731
    assert api.solve(region_puzzle("queens-game", stripes(30))).difficulty is not None
    big = api.solve(region_puzzle("queens-game", stripes(31)))
    assert big.placement is not None and big.difficulty is None


GENERATED = [("queens-game", n, None, seed) for n in (6, 7, 8) for seed in (1, 2, 3)] + [
    ("star-battle", 8, 2, seed) for seed in (1, 2)
]


@pytest.mark.parametrize(("puzzle", "n", "stars", "seed"), GENERATED)
def test_every_step_agrees_with_the_unique_solution(
    puzzle: str, n: int, stars: int | None, seed: int
) -> None:
    made = new_puzzle.generate(puzzle, n, stars=stars, seed=seed).placement
    assert made is not None and made.problem.regions is not None
    solution = set(made.armies[0])
    found = explain(made.problem.regions)
    for step in found.steps:
        assert set(step.places) <= solution, step
        assert not set(step.empties) & solution, step
    if found.solved:
        assert set(found.pieces) == solution


def test_a_grid_with_two_solutions_needs_a_guess(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    grid = tmp_path / "stripes.txt"
    grid.write_text("AAAA\nBBBB\nCCCC\nDDDD\n")
    assert main(["explain", "queens-game", "--grid", str(grid)]) == 1
    assert "needs guessing" in capsys.readouterr().out
    assert main(["hint", "queens-game", "--grid", str(grid)]) == 1
    assert "needs a guess" in capsys.readouterr().out


def test_hints_follow_the_pieces_placed(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(README_GRID) + "\n")
    placed = tmp_path / "placed.txt"
    placed.write_text(". . . . . .\n" * 5 + "@ . . . . .\n")
    assert main(["hint", "queens-game", "--grid", str(grid), "--placed", str(placed)]) == 0
    assert capsys.readouterr().out.startswith("[easy] touching: a1 has a piece")
    placed.write_text(". . . . . .\n" * 4 + ". @ . . . .\n@ . . . . .\n")
    assert main(["hint", "queens-game", "--grid", str(grid), "--placed", str(placed)]) == 2
    assert "break a rule" in capsys.readouterr().err


def test_explain_json_names_every_step(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(README_GRID) + "\n")
    assert main(["explain", "queens-game", "--grid", str(grid), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solved"] is True and data["grade"] == "hard"
    assert data["pieces"] == ["a1", "b4", "c2", "d5", "e3", "f6"]
    first = data["steps"][0]
    assert first == {
        "rule": "confined",
        "grade": "medium",
        "because": "region B lies within rank 6",
        "places": [],
        "empties": ["a6", "b6", "c6"],
    }


def test_explain_refuses_other_puzzles(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["explain", "queens", "--grid", "-"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_web_generates_by_difficulty() -> None:
    from fastapi.testclient import TestClient

    from chessplace.faces.web.app import create_app

    with TestClient(create_app()) as client:
        answer = client.post(
            "/api/generate",
            json={"puzzle": "queens-game", "n": 6, "seed": 2, "difficulty": "medium"},
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["note"].endswith("difficulty: medium")
        refused = client.post(
            "/api/generate", json={"puzzle": "queens-game", "n": 6, "difficulty": "x"}
        )
        assert refused.status_code == 400
