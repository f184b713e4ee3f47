"""Making region puzzles (``making.new_puzzle.generate``): each grid made has one
solution by an independent count (CP-SAT), regions of like sizes, the difficulty asked
(the rules alone solve it at that grade, every step agreeing with the one solution),
and the same grid again from the same seed."""

from __future__ import annotations

from collections import Counter

import pytest

from chessplace import api
from chessplace.faces.cli import main
from chessplace.making import new_puzzle
from chessplace.regions.deduction import explain_from as explain
from tests.regions.test_star_deduction import _check_steps


@pytest.mark.parametrize(
    ("puzzle", "n", "stars", "seed"),
    [("queens-game", 6, None, 0), ("queens-game", 8, None, 7), ("star-battle", 8, 2, 3)],
)
def test_generated_grids_are_unique_by_an_independent_count(
    puzzle: str, n: int, stars: int | None, seed: int
) -> None:
    made = new_puzzle.generate(puzzle, n, stars=stars, seed=seed)
    assert made.placement is not None and made.placement.verify() == ()
    problem = made.placement.problem
    assert problem.regions is not None and problem.regions.size == n
    checked = api.count(problem, solver="cpsat")
    assert checked.count == 1
    assert checked.placement == made.placement
    again = new_puzzle.generate(puzzle, n, stars=stars, seed=seed).placement
    assert again is not None and again.problem.regions == problem.regions


@pytest.mark.parametrize("seed", range(4))
def test_generated_regions_are_of_like_sizes(seed: int) -> None:
    """No region of a generated 9×9 grid takes more than twice its share of the board
    (before the sizes were evened out, one region could hold a third of it)."""
    made = new_puzzle.generate("queens-game", 9, seed=seed)
    assert made.placement is not None
    rows = made.placement.problem.regions.rows  # type: ignore[union-attr]
    sizes = Counter("".join(rows))
    assert len(sizes) == 9 and max(sizes.values()) <= 2 * 9


@pytest.mark.parametrize(
    "n", [15, pytest.param(17, marks=pytest.mark.slow)], ids=["15x15", "17x17"]
)
def test_a_large_queens_grid_is_generated(n: int) -> None:
    made = new_puzzle.generate("queens-game", n, seed=0, time_limit=300)
    assert made.placement is not None and made.placement.verify() == ()
    assert api.count(made.placement.problem, limit=2).count == 1


@pytest.mark.parametrize(
    ("difficulty", "seed"),
    # seed 1 draws an easy grid in a few tries (seed 5 took about 6 times as long)
    [("easy", 1), ("medium", 5), ("hard", 5)],
)
def test_generated_grids_have_the_difficulty_asked(difficulty: str, seed: int) -> None:
    """Solvable by the rules alone at that grade, and the rules' pieces are the one
    solution the search finds."""
    made = new_puzzle.generate("queens-game", 7, seed=seed, difficulty=difficulty)
    assert made.placement is not None and made.placement.problem.regions is not None
    found = explain(made.placement.problem.regions)
    assert found.solved and found.grade == difficulty
    assert set(found.pieces) == set(made.placement.armies[0])
    assert made.note.endswith(f"difficulty: {difficulty}")
    again = new_puzzle.generate("queens-game", 7, seed=seed, difficulty=difficulty).placement
    assert again is not None and again.problem == made.placement.problem


def test_an_unknown_difficulty_is_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="difficulty is one of"):
        new_puzzle.generate("queens-game", 7, difficulty="brutal")
    assert main(["generate", "queens-game", "-n", "7", "--difficulty", "brutal"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("seed", "grade"),
    # seed 5 draws a medium grid several times sooner than seed 1 did (13.4 s against 1.8)
    [(1, "hard"), (2, "hard"), (3, "hard"), (5, "medium")],
)
def test_generated_two_star_grids_are_solved_by_the_rules(seed: int, grade: str) -> None:
    made = new_puzzle.generate("star-battle", 10, stars=2, seed=seed, difficulty=grade)
    assert made.placement is not None and made.placement.problem.regions is not None
    rows = made.placement.problem.regions.rows
    assert made.note.endswith(f"difficulty: {grade}")
    found = explain(made.placement.problem.regions)
    assert found.solved and found.grade == grade
    assert set(found.pieces) == set(made.placement.armies[0])
    _check_steps(rows, 2)


def test_a_grid_generated_without_a_difficulty_no_longer_needs_guessing() -> None:
    made = new_puzzle.generate("star-battle", 10, stars=2, seed=10)
    assert made.note.endswith("difficulty: hard"), made.note
