"""Closed-form constructions: N-Queens for every n ≥ 4 (and 1), 2n−2 bishops.

They place a million queens in about a second and prove nothing beyond
the placement itself.
"""

from __future__ import annotations

from chessplace.board import Square
from chessplace.control import Control
from chessplace.pieces import BISHOP, QUEEN
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.result import Result, Status
from chessplace.solvers.base import Engine, Task


def queens_columns(n: int) -> list[int]:
    """0-based file of the queen on each rank for n non-attacking queens, n ∉ {2, 3}.

    The classic explicit solution: even files then odd files, with the
    swaps for n ≡ 2 and n ≡ 3 (mod 6).
    """
    if n in (2, 3) or n < 1:
        raise ValueError(f"no {n}-queens solution exists")
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = [3, 1, *range(7, n + 1, 2), 5] if n >= 8 else [3, 1]
    elif n % 6 == 3:
        evens = [*evens[1:], 2]
        odds = [*odds[2:], 1, 3]
    return [value - 1 for value in evens + odds]


def bishop_squares(n: int) -> list[Square]:
    """2n−2 non-attacking bishops on n×n (one for n = 1): the first rank and the inner
    squares of the last."""
    if n == 1:
        return [(0, 0)]
    return [(f, 0) for f in range(n)] + [(f, n - 1) for f in range(1, n - 1)]


class ConstructionEngine(Engine):
    name = "construction"
    summary = "closed-form N-Queens (n ≥ 4 and 1) and 2n−2 bishops, any size"
    tasks = frozenset({Task.SOLVE})

    def refusal(self, problem: Problem, task: Task) -> str | None:
        reason = super().refusal(problem, task)
        if reason:
            return reason
        if len(problem.armies) != 1 or not problem.independent or problem.dominating:
            return "constructions cover single independent armies only"
        army = problem.armies[0]
        capacity = self._capacity(problem)
        if capacity is None:
            return "no construction for this piece and board"
        if army.minimum > capacity:
            return f"the construction places {capacity}, the problem asks {army.describe_count()}"
        return None

    @staticmethod
    def _capacity(problem: Problem) -> int | None:
        piece = problem.armies[0].piece
        n = min(problem.board.rows, problem.board.cols)
        if piece == QUEEN and n not in (2, 3):
            return n
        if piece == BISHOP and problem.board.is_square:
            return max(1, 2 * n - 2)
        return None

    def solve(self, problem: Problem, control: Control) -> Result:
        piece = problem.armies[0].piece
        n = min(problem.board.rows, problem.board.cols)
        squares: list[Square]
        if piece == QUEEN:
            squares = [(file, rank) for rank, file in enumerate(queens_columns(n))]
        else:
            squares = bishop_squares(n)
        most = problem.armies[0].maximum
        wanted = len(squares) if most is None else min(most, len(squares))
        return Result(
            Status.FEASIBLE, self.name, Placement.from_squares(problem, [squares[:wanted]])
        )
