"""chessplace: solve chess-placement puzzles.

>>> from chessplace import Board, puzzles, solve
>>> result = solve(puzzles.queens(Board.square(8)))
>>> result.status.value, len(result.placement)
('feasible', 8)
"""

from chessplace import puzzles
from chessplace.api import InvalidAnswer, count, optimize, solutions, solve
from chessplace.board import Board, Square, parse_square, square_name
from chessplace.control import Control, Progress
from chessplace.pieces import Piece, piece_from_text
from chessplace.placement import Attack, PlacedPiece, Placement, RuleBreak
from chessplace.problem import Army, Problem, Sense
from chessplace.result import Result, Status

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
