"""How placements draw themselves (in Jupyter, and as text for ``print``) while the core
imports no form: the forms register their drawings here
(:func:`chessplace.forms.drawing.register_drawings`), and the package's public names do so as
they load."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chessplace.core.placement import Placement
    from chessplace.core.problem import Problem

Drawing = Callable[["Placement"], str]
ProblemDrawing = Callable[["Problem"], str]

_drawings: dict[str, Drawing] = {}
_problem_drawings: dict[str, ProblemDrawing] = {}


def register(kind: str, drawing: Drawing) -> None:
    """Make ``drawing`` the way every placement shows itself as ``kind`` (svg, text)."""
    _drawings[kind] = drawing


def drawn(placement: Placement, kind: str) -> str | None:
    """The placement drawn as ``kind`` by the registered drawing; ``None`` when no form
    has registered one (Jupyter then shows plain text)."""
    drawing = _drawings.get(kind)
    return drawing(placement) if drawing is not None else None


def register_problem(kind: str, drawing: ProblemDrawing) -> None:
    """Make ``drawing`` the way every problem shows its starting position as ``kind``."""
    _problem_drawings[kind] = drawing


def drawn_problem(problem: Problem, kind: str) -> str | None:
    """The problem's starting position drawn as ``kind``; ``None`` when no form has
    registered a drawing."""
    drawing = _problem_drawings.get(kind)
    return drawing(problem) if drawing is not None else None
