"""chessplace: solve chess-placement puzzles.

>>> from chessplace import Board, puzzles, solve
>>> result = solve(puzzles.queens(Board.square(8)))
>>> result.status.value, len(result.placement)
('feasible', 8)

Every name below loads its module on first use, so ``import chessplace`` loads
no other module (the command line's ``main`` is running before numpy or an
engine loads, and hears a Ctrl-C as one line) and the solving functions load
the engines only when called.
"""

import importlib
from typing import TYPE_CHECKING, Any

__all__ = [
    "Army",
    "Attack",
    "Board",
    "Control",
    "CountRule",
    "InvalidAnswer",
    "Piece",
    "PlacedPiece",
    "Placement",
    "Problem",
    "Progress",
    "Result",
    "RuleBreak",
    "Sense",
    "Shape",
    "Square",
    "Status",
    "count",
    "from_cpmpy",
    "optimize",
    "parse_square",
    "piece_from_text",
    "puzzles",
    "read_problem",
    "solutions",
    "solve",
    "square_name",
    "to_cpmpy",
    "write_problem",
]
__version__ = "0.1.0"

_MODULES = {"api": "api", "puzzles": "notation.puzzles"}
"""Public names that are modules of the package."""

_HOMES = {
    "Board": "core.board",
    "Shape": "core.board",
    "Square": "core.board",
    "parse_square": "core.board",
    "square_name": "core.board",
    "Control": "runtime.control",
    "Progress": "runtime.control",
    "Piece": "core.pieces",
    "piece_from_text": "core.pieces",
    "Placement": "core.placement",
    "Army": "core.problem",
    "Problem": "core.problem",
    "Sense": "core.problem",
    "CountRule": "core.rules",
    "to_cpmpy": "export.cpmpy",
    "from_cpmpy": "export.cpmpy",
    "Result": "core.result",
    "Status": "core.result",
    "Attack": "core.violations",
    "PlacedPiece": "core.violations",
    "RuleBreak": "core.violations",
    "read_problem": "notation.problemfile",
    "write_problem": "notation.problemfile",
    "InvalidAnswer": "api",
    "count": "api",
    "optimize": "api",
    "solutions": "api",
    "solve": "api",
}
"""The module each public name lives in."""

if TYPE_CHECKING:
    from chessplace import api as api
    from chessplace.api import InvalidAnswer, count, optimize, solutions, solve
    from chessplace.core.board import Board, Shape, Square, parse_square, square_name
    from chessplace.core.pieces import Piece, piece_from_text
    from chessplace.core.placement import Placement
    from chessplace.core.problem import Army, Problem, Sense
    from chessplace.core.result import Result, Status
    from chessplace.core.rules import CountRule
    from chessplace.core.violations import Attack, PlacedPiece, RuleBreak
    from chessplace.export.cpmpy import from_cpmpy, to_cpmpy
    from chessplace.notation import puzzles
    from chessplace.notation.problemfile import read_problem, write_problem
    from chessplace.runtime.control import Control, Progress


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (the engines only with ``chessplace.api``)."""
    if name in _MODULES:
        value = importlib.import_module(f"chessplace.{_MODULES[name]}")
    elif name in _HOMES:
        value = getattr(importlib.import_module(f"chessplace.{_HOMES[name]}"), name)
    else:
        raise AttributeError(f"module 'chessplace' has no attribute {name!r}")
    globals()[name] = value  # found at once from now on
    return value


def __dir__() -> list[str]:
    """The public names (not the helpers this module imports)."""
    return sorted([*__all__, "__version__"])
