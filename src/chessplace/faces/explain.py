"""A region puzzle solved step by step by named human rules, from the pieces placed; the
faces' explain and hint. The rules (:mod:`chessplace.regions.deduction`) assume the
pieces placed are right, so the region search is asked first, through
:mod:`chessplace.api`, whether any solution holds them."""

from __future__ import annotations

from chessplace import api
from chessplace.core.board import Square, square_name
from chessplace.core.errors import BadRequest
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.notation.puzzles import REGION_PUZZLES
from chessplace.regions.deduction import DeadEnd, Explanation, State, explain_from
from chessplace.runtime.control import Control


def explain(
    problem: Problem, placement: Placement | None = None, control: Control | None = None
) -> Explanation:
    """A region puzzle solved step by step by named human rules (see
    :mod:`chessplace.regions.deduction`), from the pieces of ``placement`` when given (solved,
    with no step, when they are all placed and break no rule); a ``control`` that stops
    (time limit, stop request) cuts it short (``stopped``). When no solution holds the
    pieces placed (or the grid has none) there are no steps: ``dead_end`` says so and
    ``misplaced`` names the pieces that are in no solution (the rules assume the pieces
    placed are right, and from wrong ones would point past the solution)."""
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
    unsolvable = _unsolvable(problem, placed, control)
    if unsolvable is not None:
        return unsolvable
    return explain_from(problem.regions, placed, lambda: control.stopped)


def _unsolvable(
    problem: Problem, placed: tuple[Square, ...], control: Control
) -> Explanation | None:
    """The explanation of a grid where no solution holds the pieces ``placed``, saying
    why; ``None`` when some solution holds them (or the region search is not installed
    to tell, or ``control`` stopped it: the rules then run, and stop too)."""
    if api.region_holding(problem, placed, control) is not False:
        return None
    pieces = tuple(sorted(placed))
    if not placed or api.region_holding(problem, (), control) is False:
        return Explanation((), False, pieces, dead_end=DeadEnd.GRID)
    misplaced = tuple(s for s in pieces if api.region_holding(problem, (s,), control) is False)
    dead_end = DeadEnd.MISPLACED if misplaced else DeadEnd.TOGETHER
    return Explanation((), False, pieces, control.stopped, dead_end, misplaced)
