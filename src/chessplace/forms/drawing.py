"""A placement drawn with the checker's marks: what the faces (CLI, web, Jupyter) show."""

from __future__ import annotations

from chessplace.core.display import register
from chessplace.core.placement import Placement
from chessplace.core.verification import attacked_squares, conflict_pairs
from chessplace.forms.svg import render_svg
from chessplace.forms.text import render_text


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


def register_drawings() -> None:
    """Placements draw themselves: in Jupyter with their conflicts marked and regions
    coloured, and as a text board when printed."""
    register("svg", lambda placement: marked_svg(placement, conflicts=True))
    register("text", render_text)


register_drawings()
