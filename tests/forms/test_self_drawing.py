"""Placements and problems draw themselves through the forms, imported when asked: the
same board whatever was imported before (a registry filled as the forms loaded made
``str(placement)`` print "white: 8" in a fresh interpreter and a board after
``import chessplace.forms``)."""

from __future__ import annotations

import json
import subprocess
import sys

from chessplace.core.board import Board
from chessplace.core.placement import Placement
from chessplace.forms.drawing import marked_svg, problem_svg
from chessplace.forms.text import render_text
from chessplace.notation.position import with_position
from chessplace.notation.puzzles import queens

EIGHT = [(0, 0), (4, 1), (7, 2), (5, 3), (2, 4), (6, 5), (1, 6), (3, 7)]

FRESH = f"""
import json, sys
from chessplace.core.board import Board
from chessplace.core.placement import Placement
from chessplace.notation.position import with_position
from chessplace.notation.puzzles import queens

loaded = sorted(name for name in sys.modules if name.startswith("chessplace.forms"))
problem = with_position(queens(Board.square(8)), "b1", "", "")
placement = Placement.from_squares(problem, [{EIGHT!r}])
print(json.dumps([loaded, str(placement), placement._repr_svg_(), problem._repr_svg_()]))
"""


def test_a_placement_draws_the_same_in_a_fresh_interpreter() -> None:
    shown = subprocess.run(
        [sys.executable, "-c", FRESH], capture_output=True, text=True, check=True, timeout=120
    )
    loaded, text, svg, problem_drawing = json.loads(shown.stdout)
    assert loaded == []  # nothing had loaded a form before the placement was drawn
    problem = with_position(queens(Board.square(8)), "b1", "", "")
    placement = Placement.from_squares(problem, [EIGHT])
    assert placement.verify() == ()
    assert text == str(placement) == render_text(placement)
    assert text.count("♛") == 8 and "white" not in text
    assert svg == placement._repr_svg_() == marked_svg(placement, conflicts=True)
    assert problem_drawing == problem._repr_svg_() == problem_svg(problem)
