"""A placement drawn with the checker's marks: what the faces (CLI, web, Jupyter) show."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chessplace.checking import attacked_squares, conflict_pairs
from chessplace.svgboard import render_svg

if TYPE_CHECKING:  # Placement._repr_svg_ draws through this module
    from chessplace.placement import Placement


def marked_svg(placement: Placement, *, show_attacks: bool = False, conflicts: bool = False) -> str:
    """SVG of ``placement``; attacked squares tinted and illegal attacks marked on request;
    a grid's regions coloured."""
    grid = placement.problem.regions
    return render_svg(
        placement,
        tint=attacked_squares(placement) if show_attacks else (),
        conflicts=conflict_pairs(placement.verify()) if conflicts else (),
        regions=None
        if grid is None
        else {s: grid.region_of(s) for s in placement.problem.board.squares()},
    )
