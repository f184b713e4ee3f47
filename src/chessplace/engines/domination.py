"""Domination: a proven lower bound, and a small dominating set for ``optimize`` to start from.

With a dominating set of size m from local search, ``optimize`` has to refute
only m − 1 (or nothing, when m meets the lower bound), instead of climbing down
from whatever the first SAT model holds, which costs more than the proof.
"""

from __future__ import annotations

import importlib.util

from chessplace.core.attacks import coverers
from chessplace.core.board import Shape, Square
from chessplace.core.pieces import QUEEN
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.runtime.control import Control

RUNS = 3
"""Local searches per size before ``first_guess`` settles for the size above."""


def lower_bound(problem: Problem) -> int:
    """A proven lower bound on the fewest pieces that cover the squares to dominate.

    Each piece covers at most the largest number of those squares one square reaches;
    queens on a whole n×n board need at least ⌈(n − 1)/2⌉ (Spencer's bound, see
    Cockayne, "Chessboard domination problems", 1990). With a position, blocked
    squares and pawns need no cover (and pawns only shorten rides), and the given
    pieces are among the pieces.
    """
    board = problem.board
    targets = {board.index(s) for s in problem.squares_to_dominate}
    widest = max(len(targets.intersection(s)) for s in coverers(board, problem.armies[0].piece))
    bound = -(-len(targets) // widest) if targets else 0
    if problem.has_position or problem.dominated is not None:
        return max(bound, len(problem.given_of(0)))
    if (
        board.is_square
        and board.shape is Shape.PLANE
        and problem.armies[0].piece.moves == QUEEN.on(board).moves
    ):
        bound = max(bound, board.rows // 2)  # ⌈(n − 1)/2⌉ = ⌊n/2⌋
    return bound


def greedy(problem: Problem) -> Placement:
    """Pieces placed one by one where each covers the most squares still uncovered
    (of those to dominate; a problem with no position)."""
    board = problem.board
    reach = coverers(board, problem.armies[0].piece)
    uncovered = {board.index(s) for s in problem.squares_to_dominate}
    chosen: list[Square] = []
    while uncovered:
        square = max(range(board.size), key=lambda s: len(uncovered.intersection(reach[s])))
        uncovered.difference_update(reach[square])
        chosen.append(board.at(square))
    return Placement.from_squares(problem, [chosen])


def first_guess(problem: Problem, control: Control) -> Placement:
    """The smallest dominating set found: greedy, then local search one size down at a
    time (with Numba, for the whole board) until it fails or meets :func:`lower_bound`
    (a problem with no position whose pieces may attack each other)."""
    best = greedy(problem)
    if problem.dominated is not None or importlib.util.find_spec("numba") is None:
        return best
    from chessplace.engines.support.coversearch import dominating_set

    floor = lower_bound(problem)
    while len(best) > floor and not control.stopped:
        smaller = dominating_set(problem, len(best) - 1, control, RUNS)
        if smaller is None:
            break
        best = smaller
    return best
