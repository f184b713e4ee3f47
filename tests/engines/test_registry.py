"""The registry's rules for passing over a preferred engine unasked: its own (the
portfolio left out where sat alone is faster) and the engines' (the GPU without one)."""

from __future__ import annotations

from chessplace.core.board import Board
from chessplace.engines.base import Task
from chessplace.engines.registry import ENGINES, PASSED_OVER, choose, passed_over
from chessplace.notation.position import with_position
from chessplace.notation.puzzles import queens

BLOCKED = with_position(queens(Board.square(8)), "a1,b3,h8", "", "")


def test_the_portfolio_is_passed_over_where_sat_alone_answers() -> None:
    """Blocked n-queens: the counts follow from the lines, so sat runs alone; the
    portfolio itself no longer holds the rule, and still races when named."""
    portfolio = ENGINES["portfolio"]
    reason = passed_over(portfolio, BLOCKED, Task.SOLVE)
    assert reason == "sat answers problems whose counts follow from their lines"
    assert portfolio.declines(BLOCKED, Task.SOLVE) is None
    assert choose(BLOCKED, Task.SOLVE).engine.name == "sat"
    assert choose(BLOCKED, Task.SOLVE, "portfolio").engine.name == "portfolio"


def test_the_rule_asks_for_a_position_and_solve() -> None:
    plain = queens(Board.square(8))
    portfolio = ENGINES["portfolio"]
    assert passed_over(portfolio, plain, Task.SOLVE) is None
    assert passed_over(portfolio, BLOCKED.without_counts(), Task.OPTIMIZE) is None
    assert set(PASSED_OVER) <= set(ENGINES)


def test_an_engine_s_own_declining_is_still_asked() -> None:
    """The GPU declines a board too small to pay (or a machine without one) itself."""
    gpu = ENGINES["gpu"]
    small = queens(Board.square(5))
    assert passed_over(gpu, small, Task.COUNT) == gpu.declines(small, Task.COUNT) is not None
