"""A placement drawn with the checker's marks: what the faces (CLI, web, Jupyter) show."""

from __future__ import annotations

from collections.abc import Iterable

from chessplace.board import Square
from chessplace.checking import attacked_squares, conflict_pairs
from chessplace.placement import Placement
from chessplace.svgboard import render_svg


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
        tint=attacked_squares(placement) if show_attacks else (),
        conflicts=conflict_pairs(placement.verify()) if conflicts else (),
        regions=None
        if grid is None
        else {s: grid.region_of(s) for s in placement.problem.board.squares()},
        ringed=ringed,
    )
