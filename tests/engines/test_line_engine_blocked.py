"""The line engine with blocked squares: no piece stands on one and rides pass over it,
so the lines stay as they are and only the squares each colour may use shrink.

Optima and counts are checked against a brute force written here (its own lines, on
plain and torus boards), unique counts against CP-SAT, larger optima against SAT, and
every answer verifies.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from math import comb

import pytest

from chessplace import Board, Problem, Status, api, puzzles
from chessplace.core.board import Shape, Square
from chessplace.core.pieces import QUEEN
from chessplace.engines.base import Task
from chessplace.engines.lines.engine import LineSearchEngine, upper_bound
from chessplace.engines.lines.geometry import geometry
from chessplace.engines.registry import choose
from chessplace.faces.cli import main
from tests.conftest import assert_valid

ENGINE = LineSearchEngine()


def _same_line(a: Square, b: Square, board: Board) -> bool:
    """Whether a queen on ``a`` rides to ``b`` on an empty board (``a == b`` too)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if board.shape is Shape.TORUS:  # square tori only: the diagonals wrap onto themselves
        n = board.rows
        return dx == 0 or dy == 0 or (dx - dy) % n == 0 or (dx + dy) % n == 0
    return dx == 0 or dy == 0 or abs(dx) == abs(dy)


def brute_count(problem: Problem, m: int) -> int:
    """Placements of exactly ``m`` white and ``m`` black queens off the blocked squares,
    no white on a line with a black: each white set, times the ways to put the black
    ones on the open squares no white queen's line reaches."""
    board = problem.board
    free = [s for s in board.squares() if s not in problem.blocked]
    reach = {s: {t for t in free if _same_line(s, t, board)} for s in free}
    total = 0
    for white in combinations(free, m):
        hit = set().union(*(reach[s] for s in white))
        total += comb(len(free) - len(hit), m)
    return total


def brute_optimum(problem: Problem) -> int:
    """The most queens of each army (removing queens keeps a placement peaceable)."""
    m = 0
    while brute_count(problem, m + 1) > 0:
        m += 1
    return m


def blocked_problem(n: int, seed: int, shape: Shape = Shape.PLANE) -> Problem:
    """Peaceable queens on n×n with a random share (up to a third) of squares blocked."""
    generator = random.Random(seed)
    squares = [(f, r) for f in range(n) for r in range(n)]
    blocked = generator.sample(squares, generator.randint(1, n * n // 3))
    board = Board.square(n, shape)
    return replace(puzzles.peaceable_queens(board), blocked=frozenset(blocked))


SMALL = [blocked_problem(n, seed) for n in (3, 4, 5) for seed in range(4)]
TORI = [blocked_problem(n, seed, Shape.TORUS) for n in (4, 5) for seed in range(3)]


def _id(problem: Problem) -> str:
    return f"{problem.board}-" + ",".join(sorted(map(str, problem.blocked)))


@pytest.mark.parametrize("problem", SMALL + TORI, ids=_id)
def test_optimum_matches_brute_force(problem: Problem) -> None:
    assert choose(problem, Task.OPTIMIZE).engine.name == "lines"
    result = api.optimize(problem, solver="lines")
    assert result.status is Status.OPTIMAL
    assert result.objective == brute_optimum(problem)
    if result.objective:
        placement = assert_valid(result)
        assert not problem.blocked & {s for army in placement.armies for s in army}
    bound = upper_bound(problem)
    assert bound is not None and bound >= result.objective


@pytest.mark.parametrize("problem", SMALL + TORI, ids=_id)
def test_exact_counts_match_brute_force(problem: Problem) -> None:
    """Every m the engine counts (near the optimum) agrees with brute force, and the
    classes with CP-SAT's, under the symmetries that keep the blocked squares."""
    for m in range(1, brute_optimum(problem) + 1):
        exact = problem.with_counts(exactly=m)
        reason = ENGINE.refusal(exact, Task.COUNT)
        if reason is not None:
            assert "half the product bound" in reason
            continue
        result = api.count(exact, unique=True, solver="lines")
        assert result.status is Status.COMPLETE
        assert result.count == brute_count(problem, m)
        if result.count:
            assert_valid(result)
        if problem.board.shape is Shape.PLANE:
            by_cpsat = api.count(exact, unique=True, solver="cpsat")
            assert (result.count, result.unique) == (by_cpsat.count, by_cpsat.unique)


def test_most_small_problems_are_counted_at_their_optimum() -> None:
    """The count refusal (below half the bound) leaves the tests above work to do."""
    counted = [
        problem
        for problem in SMALL + TORI
        if ENGINE.refusal(problem.with_counts(exactly=brute_optimum(problem)), Task.COUNT) is None
    ]
    assert len(counted) >= len(SMALL + TORI) // 2


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n", [6, 7])
def test_larger_boards_agree_with_sat(n: int, seed: int) -> None:
    problem = blocked_problem(n, seed)
    by_lines = api.optimize(problem, solver="lines")
    by_sat = api.optimize(problem, solver="sat")
    assert by_lines.status is by_sat.status is Status.OPTIMAL
    assert by_lines.objective == by_sat.objective
    assert_valid(by_lines)


def test_optimal_count_with_unique_agrees_with_cpsat() -> None:
    problem = replace(
        puzzles.peaceable_queens(Board.square(6)), blocked=frozenset({(0, 0), (2, 2), (3, 3)})
    )
    by_lines = api.count(problem, unique=True, optimal=True, solver="lines")
    by_cpsat = api.count(problem, unique=True, optimal=True, solver="cpsat")
    assert by_lines.status is by_cpsat.status is Status.COMPLETE
    assert (by_lines.objective, by_lines.count, by_lines.unique) == (5, 308, 77)
    assert (by_cpsat.objective, by_cpsat.count, by_cpsat.unique) == (5, 308, 77)
    assert_valid(by_lines)


def test_three_armies_and_a_fixed_white_army_take_blocked_squares() -> None:
    blocked = frozenset({(0, 0), (1, 3), (4, 2)})
    three = replace(puzzles.peaceable_queens(Board.square(5), armies=3), blocked=blocked)
    fixed = replace(puzzles.peaceable_queens(Board.square(5), white=3), blocked=blocked)
    for problem in (three, fixed):
        by_lines = api.optimize(problem, solver="lines")
        by_cpsat = api.optimize(problem, solver="cpsat")
        assert by_lines.status is by_cpsat.status is Status.OPTIMAL
        assert by_lines.objective == by_cpsat.objective
        assert_valid(by_lines)


def test_only_the_symmetries_that_keep_the_blocked_squares_are_broken() -> None:
    """On 5×5 a1 is kept by the identity and the diagonal mirror (each with and
    without the colour swap); a1 and b3 by the identity alone."""
    board = Board.square(5)
    assert len(geometry(board, QUEEN).source) == 15
    assert len(geometry(board, QUEEN, blocked=frozenset({(0, 0)})).source) == 3
    assert len(geometry(board, QUEEN, blocked=frozenset({(0, 0), (1, 2)})).source) == 1


def test_a_board_with_every_square_blocked_holds_no_army() -> None:
    board = Board.square(3)
    problem = replace(puzzles.peaceable_queens(board), blocked=frozenset(board.squares()))
    result = api.optimize(problem, solver="lines")
    assert (result.status, result.objective) == (Status.OPTIMAL, 0)
    solved = api.solve(problem.with_counts(at_least=1), solver="lines")
    assert solved.status is Status.INFEASIBLE


@pytest.mark.parametrize(
    ("position", "reason"),
    [
        ({"pawns": frozenset({(1, 1)})}, "pawns cut the lines a colour holds"),
        ({"free_pawns": 0, "pawns": frozenset({(2, 2)})}, "pawns cut the lines"),
        ({"given": (frozenset({(0, 0)}), frozenset())}, "no given pieces"),
    ],
)
def test_pawns_and_given_pieces_are_refused_with_a_reason(
    position: dict[str, object], reason: str
) -> None:
    problem = replace(puzzles.peaceable_queens(Board.square(5)), **position)  # type: ignore[arg-type]
    for task in (Task.SOLVE, Task.OPTIMIZE, Task.COUNT):
        refusal = ENGINE.refusal(problem, task)
        assert refusal is not None and reason in refusal


def test_cli_optimizes_round_blocked_squares_and_names_the_pawn_refusal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["optimize", "peaceable-queens", "-n", "5", "--blocked", "a1,c3", "--solver", "lines"]
    assert main([*args, "--json"]) == 0
    assert '"objective": 4' in capsys.readouterr().out
    assert main([*args, "--pawns", "b2"]) == 2
    assert "pawns cut the lines a colour holds" in capsys.readouterr().err
