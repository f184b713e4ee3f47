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
    "InvalidAnswer",
    "Piece",
    "PlacedPiece",
    "Placement",
    "Problem",
    "Progress",
    "Result",
    "RuleBreak",
    "Sense",
    "Square",
    "Status",
    "count",
    "optimize",
    "parse_square",
    "piece_from_text",
    "puzzles",
    "read_problem",
    "solutions",
    "solve",
    "square_name",
    "write_problem",
]
__version__ = "0.1.0"

_HOMES = {
    "api": "",
    "puzzles": "",
    "Board": "board",
    "Square": "board",
    "parse_square": "board",
    "square_name": "board",
    "Control": "control",
    "Progress": "control",
    "Piece": "pieces",
    "piece_from_text": "pieces",
    "Placement": "placement",
    "Army": "problem",
    "Problem": "problem",
    "Sense": "problem",
    "Result": "result",
    "Status": "result",
    "Attack": "violations",
    "PlacedPiece": "violations",
    "RuleBreak": "violations",
    "read_problem": "problemfile",
    "write_problem": "problemfile",
    "InvalidAnswer": "api",
    "count": "api",
    "optimize": "api",
    "solutions": "api",
    "solve": "api",
}
"""Where each public name lives: a module of the package ("" when it is one)."""

if TYPE_CHECKING:
    from chessplace import api as api
    from chessplace import puzzles
    from chessplace.api import InvalidAnswer, count, optimize, solutions, solve
    from chessplace.board import Board, Square, parse_square, square_name
    from chessplace.control import Control, Progress
    from chessplace.pieces import Piece, piece_from_text
    from chessplace.placement import Placement
    from chessplace.problem import Army, Problem, Sense
    from chessplace.problemfile import read_problem, write_problem
    from chessplace.result import Result, Status
    from chessplace.violations import Attack, PlacedPiece, RuleBreak


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (the engines only with ``chessplace.api``)."""
    if name not in _HOMES:
        raise AttributeError(f"module 'chessplace' has no attribute {name!r}")
    home = _HOMES[name]
    module = importlib.import_module(f"chessplace.{home or name}")
    value = module if not home else getattr(module, name)
    globals()[name] = value  # found at once from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
