"""How placements draw themselves in Jupyter while the core imports no form: the forms
register their drawing here (:func:`chessplace.forms.drawing.register`), and the
package's public names do so as they load."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chessplace.core.placement import Placement

SvgDrawing = Callable[["Placement"], str]

_drawings: list[SvgDrawing] = []


def register_svg(drawing: SvgDrawing) -> None:
    """Make ``drawing`` the SVG every placement shows itself with."""
    _drawings[:] = [drawing]


def svg_of(placement: Placement) -> str | None:
    """The placement drawn by the registered drawing; ``None`` (plain text in Jupyter)
    when no form has registered one."""
    return _drawings[0](placement) if _drawings else None
