"""The line engine on armies of different sizes: black beside a fixed white army."""

from __future__ import annotations

import pytest

from chessplace import Board, Status, optimize, piece_from_text, puzzles, solve
from chessplace.data.reference import known, terms
from tests.conftest import assert_valid

SQUARE = Board.square


@pytest.mark.parametrize("n", [n for n in sorted(terms("A308632")) if n >= 3])
def test_line_engine_proves_a308632(n: int) -> None:
    white = known("A250000", n)
    result = optimize(puzzles.peaceable_queens(SQUARE(n), white=white))
    assert result.solver == "lines" and result.status is Status.OPTIMAL
    assert result.objective == known("A308632", n)
    assert assert_valid(result).army_sizes == (white, result.objective)


SMALL = [
    puzzles.peaceable_queens(SQUARE(4), white=1),
    puzzles.peaceable_queens(SQUARE(4), white=3),
    puzzles.peaceable_queens(Board(3, 4), white=2),
    puzzles.peaceable(Board(3, 4), piece_from_text("R"), white=3),
    puzzles.peaceable(SQUARE(4), piece_from_text("B"), white=5),
]


@pytest.mark.parametrize("problem", SMALL, ids=[p.describe() for p in SMALL])
def test_unequal_optima_match_brute_force(problem) -> None:  # type: ignore[no-untyped-def]
    by_lines = optimize(problem, solver="lines")
    oracle = optimize(problem, solver="exhaustive")
    assert (by_lines.status, by_lines.objective) == (oracle.status, oracle.objective)
    if by_lines.placement is not None:
        assert_valid(by_lines)


@pytest.mark.parametrize("white", [1, 4, 6, 7, 9])
def test_unequal_optima_match_sat_on_6x6(white: int) -> None:
    problem = puzzles.peaceable_queens(SQUARE(6), white=white)
    by_lines = optimize(problem, solver="lines")
    by_sat = optimize(problem, solver="sat")
    assert (by_lines.status, by_lines.objective) == (by_sat.status, by_sat.objective)


def test_solve_beside_a_fixed_army() -> None:
    problem = puzzles.peaceable_queens(SQUARE(8), white=9)
    found = solve(problem.with_counts(at_least=10), solver="lines")
    assert found.status is Status.FEASIBLE
    assert assert_valid(found).army_sizes[0] == 9 and found.placement.army_sizes[1] >= 10
    assert solve(problem.with_counts(at_least=11), solver="lines").status is Status.INFEASIBLE


def test_the_line_engine_does_not_count_unequal_armies() -> None:
    from chessplace.engines.base import Task
    from chessplace.engines.lines.engine import LineSearchEngine

    problem = puzzles.peaceable_queens(SQUARE(6), white=4).with_counts(exactly=4)
    assert LineSearchEngine().refusal(problem, Task.COUNT) is not None
    assert LineSearchEngine(dask="local").refusal(problem, Task.OPTIMIZE) is not None
