"""A placement drawn with the checker's marks: what the faces (CLI, web, Jupyter) show,
and what placements and problems draw in Jupyter (their ``_repr_svg_`` imports this
module when called)."""

from __future__ import annotations

from collections.abc import Iterable

from chessplace.core.board import Square
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.verification import attacked_squares, conflict_pairs
from chessplace.forms.svg import render_svg


def marked_svg(
    placement: Placement,
    *,
    show_attacks: bool = False,
    conflicts: bool = False,
    ringed: Iterable[Square] = (),
) -> str:
    """SVG of ``placement``; attacked squares tinted and illegal attacks marked on request;
    a grid's regions coloured; ``ringed`` squares ringed."""
    grid = placement.problem.regions
    return render_svg(
        placement,
        tint=_attacked_by_others(placement) if show_attacks else (),
        conflicts=conflict_pairs(placement.verify()) if conflicts else (),
        regions=None
        if grid is None
        else {s: grid.region_of(s) for s in placement.problem.board.squares()},
        ringed=ringed,
    )


def _attacked_by_others(placement: Placement) -> set[Square]:
    """What the tint shows: with one army, every square it attacks; with several, the
    squares the first army (white) may not stand on: those the other armies attack."""
    armies = range(len(placement.problem.armies))
    if len(armies) == 1:
        return attacked_squares(placement)
    return set().union(*(attacked_squares(placement, army) for army in armies[1:]))


def problem_svg(problem: Problem) -> str:
    """SVG of the position a problem starts from: its given pieces (blocked squares and
    pawns are the problem's own), drawn as a placement of them is."""
    start = Placement.from_squares(problem, problem.given or [() for _ in problem.armies])
    return marked_svg(start, conflicts=True)
