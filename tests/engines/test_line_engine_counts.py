"""Counting peaceable armies with the line engine: every placement of m against m."""

from __future__ import annotations

import numpy as np
import pytest

from chessplace import Board, Problem, Shape, Status, count, piece_from_text, puzzles
from chessplace.core.placement import Placement
from chessplace.data.reference import known, terms
from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.geometry import geometry
from chessplace.engines.lines.optima import Classes, board_images, enumerate_optima, subsets
from chessplace.engines.lines.runner import LineSearch
from chessplace.runtime.control import Control

SQUARE = Board.square


@pytest.mark.parametrize("n", sorted(terms("A260680")))
def test_line_engine_counts_every_known_a260680_term(n: int) -> None:
    result = count(puzzles.peaceable_queens(SQUARE(n)), unique=True, optimal=True)
    assert result.solver == ("lines" if n != 2 else "sat")  # a(2) = 0: below half the bound
    assert result.status is Status.COMPLETE
    assert result.objective == known("A250000", n)
    assert result.unique == known("A260680", n)


SMALL = [
    puzzles.peaceable_queens(SQUARE(4)).with_counts(exactly=2),
    puzzles.peaceable_queens(SQUARE(4)).with_counts(exactly=3),
    puzzles.peaceable_queens(Board(3, 4)).with_counts(exactly=1),
    puzzles.peaceable(Board(3, 4), piece_from_text("R")).with_counts(exactly=2),
    puzzles.peaceable(SQUARE(4), piece_from_text("B")).with_counts(exactly=4),
]


@pytest.mark.parametrize("problem", SMALL, ids=[p.describe() for p in SMALL])
def test_line_counts_match_brute_force_below_the_optimum_too(problem: Problem) -> None:
    """The enumeration never relies on m being the optimum: any m of each it takes (at
    least half the product bound) is counted."""
    by_lines = count(problem, unique=True, solver="lines")
    by_brute_force = count(problem, unique=True, solver="exhaustive")
    assert (by_lines.count, by_lines.unique) == (by_brute_force.count, by_brute_force.unique)


@pytest.mark.parametrize("m", [3, 4])
def test_line_and_sat_counts_agree_on_5x5(m: int) -> None:
    problem = puzzles.peaceable_queens(SQUARE(5)).with_counts(exactly=m)
    by_lines = count(problem, unique=True, solver="lines")
    by_sat = count(problem, unique=True, solver="sat")
    assert (by_lines.count, by_lines.unique) == (by_sat.count, by_sat.unique)


def test_line_and_sat_counts_agree_at_the_optimum() -> None:
    problem = puzzles.peaceable_queens(SQUARE(7)).with_counts(exactly=7)
    by_lines = count(problem, unique=True, solver="lines")
    by_sat = count(problem, unique=True, solver="sat")
    assert (by_lines.count, by_lines.unique) == (by_sat.count, by_sat.unique) == (304, 19)


def test_every_class_representative_verifies() -> None:
    problem = puzzles.peaceable_queens(SQUARE(8)).with_counts(exactly=9)
    g = geometry(problem.board, problem.armies[0].piece)
    found = enumerate_optima(LineSearch(g), 9, board_images(problem.board), Control())
    assert found.complete and found.classes.classes == 71
    for white, black in found.classes.representatives():
        squares = ([problem.board.at(s) for s in white], [problem.board.at(s) for s in black])
        placement = Placement.from_squares(problem, squares)
        assert placement.army_sizes == (9, 9)
        assert placement.verify() == ()


def test_classes_fold_the_colour_swap_and_board_symmetries() -> None:
    board = SQUARE(3)
    classes = Classes(board_images(board))
    classes.add((0,), (8,))  # a1 white, c3 black
    classes.add((8,), (0,))  # colours swapped
    classes.add((2,), (6,))  # the board turned
    assert classes.classes == 1
    assert classes.placements == 4  # a1/c3 and c1/a3, each way round
    classes.add((0,), (5,))  # a1 against c2: a knight's step away, another class
    assert classes.classes == 2


def test_a_stopped_count_is_partial_and_a_lower_bound() -> None:
    problem = puzzles.peaceable_queens(SQUARE(13)).with_counts(exactly=24)
    result = count(problem, solver="lines", time_limit=0.5)
    assert result.status is Status.PARTIAL
    assert result.count is not None and result.count < 32_486


def test_the_line_engine_counts_only_exact_armies() -> None:
    problem = puzzles.peaceable_queens(SQUARE(5)).with_counts(at_least=3)
    with pytest.raises(ValueError, match="exactly m of each"):
        count(problem, solver="lines")


def test_small_armies_are_counted_by_sat_not_enumerated() -> None:
    """Far below the optimum one labelling holds a great many placements: the line
    engine refuses, SAT counts."""
    problem = puzzles.peaceable_queens(SQUARE(8)).with_counts(exactly=1)
    result = count(problem)
    assert result.solver == "sat" and result.count == 2576
    assert any(
        reason.startswith("lines: lines counts near the optimum") for reason in result.passed_over
    )


@pytest.mark.parametrize(
    ("board", "m"),
    [(SQUARE(6), 5), (SQUARE(6), 4), (SQUARE(7), 7), (Board(5, 7), 5), (SQUARE(6, Shape.TORUS), 4)],
)
def test_the_search_s_own_order_keeps_every_class(board: Board, m: int) -> None:
    """Leaves collected in the search's own order and in the geometry's fixed order
    hold the same classes of m against m (the leaves themselves differ)."""
    g = geometry(board, piece_from_text("Q"))
    shared = LineSearch(g, 1).shared(m)
    found = []
    for static in (0, g.lines):
        out = np.zeros((4096, g.lines), dtype=np.int8)
        status, _, _, written, _, _ = call(
            g, np.zeros(0, dtype=np.int8), g.lines, out, False, shared, static
        )
        assert status == kernel.EXHAUSTED
        classes = Classes(board_images(board))
        for labels in out[:written]:
            for white, black in subsets(g, labels, m):
                classes.add(white, black)
        found.append(classes.keys)
    assert found[0] == found[1] and found[0]
