"""Closed-form constructions: queens, rooks, kings and bishops on boards of any size.

They place a million queens in about a second. Each construction meets a
simple proven upper bound, so the same placement answers ``optimize`` with
status optimal:

- queens and rooks: every rank holds at most one piece and so does every
  file, so an r×c board holds at most min(r, c); the construction places that
  many (queens for every short side but 2 and 3, where no n-queens solution
  exists; with those, when the long side has at least 2n − 1 squares, a
  staircase of knight's moves: queen i on rank i, file 2i);
- kings: the board splits into ⌈r/2⌉ × ⌈c/2⌉ blocks of at most 2×2 squares,
  any two squares of a block touch, so each block holds at most one king;
  kings on every square of even file and even rank reach that;
- bishops on n×n, n ≥ 2: each of the 2n − 1 diagonals of one slope holds at
  most one bishop; two of them are single corner squares (a8 and h1 for the
  slope of a1–h8), and those corners share the long diagonal of the other
  slope, so at most one of them is used: at most 2n − 2 bishops, which the
  first rank plus the inner squares of the last rank reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from chessplace.core.board import Square
from chessplace.core.pieces import BISHOP, KING, QUEEN, ROOK
from chessplace.core.placement import Placement
from chessplace.core.problem import MAX_PIECES, Problem, Sense
from chessplace.core.result import Result, Status
from chessplace.engines.base import Engine, Task
from chessplace.runtime.control import Control


def queens_columns(n: int) -> Iterator[int]:
    """0-based file of the queen on each rank for n non-attacking queens, n ∉ {2, 3}.

    The classic explicit solution: even files then odd files, with the swaps
    for n ≡ 2 and n ≡ 3 (mod 6). Lazy, so a prefix costs only its length.
    """
    if n in (2, 3) or n < 1:
        raise ValueError(f"no {n}-queens solution exists")
    evens: Iterator[int] = iter(range(2, n + 1, 2))
    odds: Iterator[int] = iter(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = chain([3, 1], range(7, n + 1, 2), [5]) if n >= 8 else iter([3, 1])
    elif n % 6 == 3:
        evens = chain(range(4, n + 1, 2), [2])
        odds = chain(range(5, n + 1, 2), [1, 3])
    return (value - 1 for value in chain(evens, odds))


def bishop_squares(n: int) -> Iterator[Square]:
    """2n−2 non-attacking bishops on n×n (one for n = 1): the first rank and the inner
    squares of the last."""
    if n == 1:
        return iter([(0, 0)])
    return chain(((f, 0) for f in range(n)), ((f, n - 1) for f in range(1, n - 1)))


class ConstructionEngine(Engine):
    name = "construction"
    summary = "closed-form queens, rooks, kings, 2n−2 bishops: any size, optimal"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE})

    def refusal(self, problem: Problem, task: Task) -> str | None:
        reason = super().refusal(problem, task)
        if reason:
            return reason
        if len(problem.armies) != 1 or not problem.independent or problem.dominating:
            return "constructions cover single independent armies only"
        if problem.sense is not Sense.MAXIMIZE:
            return "constructions place the most pieces"
        army = problem.armies[0]
        capacity = _capacity(problem)
        if capacity is None:
            return "no construction for this piece and board"
        if army.minimum > capacity:
            return f"the construction places {capacity}, the problem asks {army.describe_count()}"
        if task is Task.OPTIMIZE and capacity > MAX_PIECES:
            return f"the optimum has {capacity:,} pieces; answers hold at most {MAX_PIECES:,}"
        return None

    def solve(self, problem: Problem, control: Control) -> Result:
        army = problem.armies[0]
        capacity = _capacity(problem)
        assert capacity is not None  # refusal() said so
        most = capacity if army.maximum is None else min(capacity, army.maximum)
        wanted = army.minimum or min(most, MAX_PIECES)
        return Result(Status.FEASIBLE, self.name, _placement(problem, wanted))

    def optimize(self, problem: Problem, control: Control) -> Result:
        """The construction at full size: it meets the bound in the module's docstring."""
        free = problem.without_counts()
        capacity = _capacity(free)
        assert capacity is not None  # refusal() said so
        placement = _placement(free, capacity)
        return Result(Status.OPTIMAL, self.name, placement, objective=capacity, bound=capacity)


def _capacity(problem: Problem) -> int | None:
    """How many pieces the construction places, which is the proven optimum."""
    piece = problem.armies[0].piece
    board = problem.board
    n = min(board.rows, board.cols)
    if piece == ROOK or (piece == QUEEN and (n not in (2, 3) or _staircase_fits(problem))):
        return n
    if piece == KING:
        return -(-board.rows // 2) * -(-board.cols // 2)
    if piece == BISHOP and board.is_square:
        return max(1, 2 * n - 2)
    return None


def _staircase_fits(problem: Problem) -> bool:
    """Queen i at step (2i, i) along the long side: two of them differ by (2d, d), never a
    rank, file or diagonal; it needs 2n − 1 squares of the long side."""
    board = problem.board
    n = min(board.rows, board.cols)
    return max(board.rows, board.cols) >= 2 * n - 1


def _queen_squares(problem: Problem) -> Iterator[Square]:
    board = problem.board
    n = min(board.rows, board.cols)
    if n not in (2, 3):
        return ((file, rank) for rank, file in enumerate(queens_columns(n)))
    if board.rows <= board.cols:
        return ((2 * i, i) for i in range(n))
    return ((i, 2 * i) for i in range(n))


def _placement(problem: Problem, count: int) -> Placement:
    """The first ``count`` pieces of the construction, in the problem's board corner."""
    piece = problem.armies[0].piece
    n = min(problem.board.rows, problem.board.cols)
    squares: Iterator[Square]
    if piece == QUEEN:
        squares = _queen_squares(problem)
    elif piece == ROOK:
        squares = ((k, k) for k in range(n))
    elif piece == KING:
        board = problem.board
        squares = ((f, r) for r in range(0, board.rows, 2) for f in range(0, board.cols, 2))
    else:
        squares = bishop_squares(n)
    return Placement.from_squares(problem, [islice(squares, count)])
