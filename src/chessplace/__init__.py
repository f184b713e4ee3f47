"""chessplace: solve chess-placement puzzles.

>>> from chessplace import Board, puzzles, solve
>>> result = solve(puzzles.queens(Board.square(8)))
>>> result.status.value, len(result.placement)
('feasible', 8)
"""

import importlib
from typing import TYPE_CHECKING, Any

from chessplace import puzzles
from chessplace.board import Board, Square, parse_square, square_name
from chessplace.control import Control, Progress
from chessplace.pieces import Piece, piece_from_text
from chessplace.placement import Placement
from chessplace.problem import Army, Problem, Sense
from chessplace.result import Result, Status
from chessplace.violations import Attack, PlacedPiece, RuleBreak

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
    "solutions",
    "solve",
    "square_name",
]
__version__ = "0.1.0"

_API = ("InvalidAnswer", "count", "optimize", "solutions", "solve")

if TYPE_CHECKING:
    from chessplace.api import InvalidAnswer, count, optimize, solutions, solve


def __getattr__(name: str) -> Any:
    """The solving functions (and ``chessplace.api``) load the engines on first use:
    ``import chessplace`` (and the certificate checker beside it) loads the model only."""
    if name in (*_API, "api"):
        api = importlib.import_module("chessplace.api")
        return api if name == "api" else getattr(api, name)
    raise AttributeError(f"module 'chessplace' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API, "api"})
