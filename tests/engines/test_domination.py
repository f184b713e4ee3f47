"""Domination: optima proven and verified, agreement with exhaustive search,
refutations one below the optimum, and the quick bounds (the formula's symmetry
breaking: tests/encodings/test_domination_formula.py)."""

from __future__ import annotations

import pytest

from chessplace import Board, Status, optimize, piece_from_text, puzzles
from chessplace.data.reference import known
from chessplace.encodings.formulas import DominationFormula
from chessplace.engines.domination import first_guess, greedy, lower_bound
from chessplace.engines.sat import SatEngine
from chessplace.runtime.control import Control
from tests.conftest import assert_valid

SQUARE = Board.square


@pytest.mark.parametrize("n", range(1, 9))
def test_queen_domination_numbers(n: int) -> None:
    result = optimize(puzzles.dominating_queens(SQUARE(n)), solver="sat")
    assert result.status is Status.OPTIMAL
    assert result.objective == known("A075458", n)
    assert len(assert_valid(result)) == result.objective


BOARDS = [SQUARE(3), SQUARE(4), Board(2, 5), Board(3, 4), Board(4, 3)]


@pytest.mark.parametrize("piece", ["K", "N", "R", "B"])
@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_other_pieces_agree_with_exhaustive_search(piece: str, board: Board) -> None:
    problem = puzzles.dominating(board, piece_from_text(piece))
    oracle = optimize(problem, solver="exhaustive")
    result = optimize(problem, solver="sat")
    assert result.status is Status.OPTIMAL
    assert result.objective == oracle.objective
    assert_valid(result)


@pytest.mark.parametrize("n", range(2, 8))
def test_one_queen_fewer_is_refuted(n: int) -> None:
    engine = SatEngine()
    problem = puzzles.dominating_queens(SQUARE(n)).without_counts()
    optimum = known("A075458", n)
    assert optimum is not None
    fewer = DominationFormula(problem, "sortnetwrk")
    fewer.objective_at_most(optimum - 1)
    assert engine._run(fewer, Control()) == (False, None)
    enough = DominationFormula(problem, "sortnetwrk")
    enough.objective_at_most(optimum)
    found, model = engine._run(enough, Control())
    assert found
    placement = enough.decode(model)
    assert len(placement) <= optimum and not placement.verify()


def test_queen_lower_bound_never_exceeds_the_known_values() -> None:
    for n in range(1, 19):
        value = known("A075458", n)
        assert value is not None
        assert lower_bound(puzzles.dominating_queens(SQUARE(n))) <= value


@pytest.mark.parametrize("piece", ["Q", "N", "K"])
def test_starting_sets_cover_the_board(piece: str) -> None:
    problem = puzzles.dominating(Board(6, 7), piece_from_text(piece))
    start = greedy(problem)
    guess = first_guess(problem, Control())
    assert not start.verify() and not guess.verify()
    assert lower_bound(problem) <= len(guess) <= len(start)


def test_a_stopped_cpsat_run_still_reports_the_proven_bound() -> None:
    """Stopped before any answer, CP-SAT reports the domination bound (⌈(n−1)/2⌉ for
    queens), not nothing."""
    result = optimize(puzzles.dominating_queens(SQUARE(40)), solver="cpsat", time_limit=1)
    assert result.bound is not None and result.bound >= 20
