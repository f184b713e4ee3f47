"""Jupyter's drawing of a placement is the faces' drawing: a region puzzle's regions
coloured, broken rules marked (``_repr_svg_`` drew region puzzles as a plain board)."""

from __future__ import annotations

import pytest

from chessplace import Board, Placement, puzzles
from chessplace.core.problem import Problem
from chessplace.forms.drawing import marked_svg
from chessplace.forms.svg import region_colour
from chessplace.notation.puzzles import region_puzzle


@pytest.mark.parametrize(
    "problem",
    [
        region_puzzle("queens-game", ["ABBB", "AABB", "CCCD", "CCDD"]),
        puzzles.queens(Board.square(4)),
    ],
    ids=["regions", "plain"],
)
def test_jupyter_draws_what_the_faces_draw(problem: Problem) -> None:
    touching = Placement.from_squares(problem, [[(0, 0), (1, 1)]])
    assert touching.verify()
    assert touching._repr_svg_() == marked_svg(touching, conflicts=True)


def test_a_region_puzzle_in_jupyter_shows_its_regions() -> None:
    problem = region_puzzle("queens-game", ["ABBB", "AABB", "CCCD", "CCDD"])
    svg = Placement.from_squares(problem, [[(0, 2)]])._repr_svg_()
    assert all(f'fill="{region_colour(r)}"' in svg for r in range(4))


def test_a_problem_draws_itself_before_it_is_solved() -> None:
    """Jupyter shows the position a problem starts from: its blocked squares, pawns and
    given pieces, as a placement of the given pieces draws them."""
    from chessplace.notation.position import with_position

    problem = with_position(puzzles.queens(Board.square(6)), "a1,b3", "Qd1", "e4")
    start = Placement.from_squares(problem, [[(3, 0)]])
    svg = problem._repr_svg_()
    assert svg is not None and svg == start._repr_svg_()
    plain = puzzles.queens(Board.square(6))._repr_svg_()
    assert plain is not None and plain != svg
