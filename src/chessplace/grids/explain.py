"""A region puzzle solved step by step by named human rules, from the pieces placed."""

from __future__ import annotations

from chessplace.core.board import square_name
from chessplace.core.errors import BadRequest
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.puzzles import REGION_PUZZLES
from chessplace.grids.deduction import Explanation, State, explain_from
from chessplace.runtime.control import Control


def explain(
    problem: Problem, placement: Placement | None = None, control: Control | None = None
) -> Explanation:
    """A region puzzle solved step by step by named human rules (see
    :mod:`chessplace.grids.deduction`), from the pieces of ``placement`` when given (solved,
    with no step, when they are all placed and break no rule); a ``control`` that stops
    (time limit, stop request) cuts it short (``stopped``)."""
    if problem.regions is None:
        raise BadRequest(f"explain and hint take {' and '.join(REGION_PUZZLES)} grids")
    placed = tuple(placement.armies[0]) if placement is not None else ()
    off = [square for square in placed if not problem.board.contains(square)]
    if off:
        size = f"{problem.board.rows}×{problem.board.cols}"
        raise BadRequest(f"a piece placed on {square_name(off[0])} is off the {size} board")
    if placement is not None and not placement.verify():  # every piece placed, rightly
        return Explanation((), True, tuple(sorted(placed)))
    start = State(problem.regions, dict.fromkeys(placed, True))
    if start.broken():
        raise BadRequest("the pieces placed already break a rule (run verify to see which)")
    control = control or Control()
    return explain_from(problem.regions, placed, lambda: control.stopped)
