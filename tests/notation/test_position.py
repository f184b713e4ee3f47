"""A position from Python's words (``notation.position``): the named constructors take
``blocked=``, ``given=`` and ``pawns=`` as ``with_position`` reads them, and count rules
beside them (what engines make of a position: tests/core/test_position.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from chessplace import api, puzzles
from chessplace.core.board import Board
from chessplace.core.pieces import KING, ROOK
from chessplace.core.problem import Problem
from chessplace.notation.position import with_position


@pytest.mark.parametrize(
    "build",
    [
        lambda **kw: puzzles.queens(Board.square(6), **kw),
        lambda **kw: puzzles.amazons(Board.square(6), **kw),
        lambda **kw: puzzles.bishops(Board.square(6), **kw),
        lambda **kw: puzzles.independent(Board.square(6), ROOK, **kw),
        lambda **kw: puzzles.peaceable_queens(Board.square(6), **kw),
        lambda **kw: puzzles.dominating_queens(Board.square(6), **kw),
    ],
)
def test_named_constructors_take_a_position(build: Callable[..., Problem]) -> None:
    """``blocked=``, ``given=`` and ``pawns=`` from Python, as ``with_position`` names them."""
    made = build(blocked="a1,b3", given="white:d1", pawns="f6")
    assert made == with_position(build(), "a1,b3", "white:d1", "f6")
    assert made.blocked == {(0, 0), (1, 2)} and made.pawns == {(5, 5)}
    assert build(blocked=None) == build()


def test_pawns_to_place_stay_beside_a_position() -> None:
    problem = puzzles.queens_and_pawns(Board.square(5), 1, blocked="c3")
    assert problem.free_pawns == 1 and problem.blocked == {(2, 2)}


def test_named_constructors_take_count_rules() -> None:
    """``counts=`` from Python: 8 queens, none on the first rank's left half (which
    counts as the bitboard counter does with those squares blocked)."""
    from chessplace.core.rules import CountRule

    rule = CountRule(frozenset({(0, 0), (1, 0), (2, 0), (3, 0)}), 0, 0)
    problem = puzzles.queens(Board.square(8), counts=[rule], blocked="h8")
    assert problem.counts == (rule,) and problem.blocked == {(7, 7)}
    result = api.count(problem)
    blocked = api.count(puzzles.queens(Board.square(8), blocked="h8,a1,b1,c1,d1"))
    assert result.count == blocked.count == 43  # no piece on them: as if they were blocked
    kings = puzzles.independent(Board.square(4), KING, counts=[CountRule("each rank", 1, 1)])
    assert api.count(kings).count == api.count(kings, solver="cpsat").count > 0
