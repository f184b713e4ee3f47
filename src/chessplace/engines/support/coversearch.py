"""Local search for dominating sets (Numba, ``nogil``): k pieces, fewest uncovered squares.

A step takes an uncovered square at random and moves one piece onto a square
that covers it, the move that leaves the fewest squares uncovered (ties and,
with a small probability, the whole move at random; squares just left are tabu
for a few steps). It proves nothing; it
gives ``optimize`` a small dominating set to start from, so that only the
next size down must be refuted.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from chessplace.core.attacks import coverers
from chessplace.core.board import Square
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.engines.support.jitcache import watch_compiles
from chessplace.runtime.control import Control

watch_compiles()  # a first call that compiles is timed apart

STEPS_PER_SQUARE = 100
"""Moves per run, per square of the board; a run that covers the board stops at once."""
NOISE = 0.05
"""Chance that a step makes a random move instead of the best one."""
TENURE = 25
"""A square a piece leaves stays closed for 1 to ``TENURE`` steps (tabu), unless moving
there leaves fewer squares uncovered than ever before in the run."""


@njit(nogil=True, cache=True)
def _search(cover, degree, pieces, steps, seed, tenure, out):  # type: ignore[no-untyped-def]
    """Move ``pieces`` pieces for at most ``steps`` steps; a covering set is written
    to ``out`` and the number of squares left uncovered is returned (0: found)."""
    np.random.seed(seed)
    squares = degree.shape[0]
    # Cleared and copied by loops: np.zeros and slices would each compile a helper.
    count = np.empty(squares, dtype=np.int32)
    taken = np.empty(squares, dtype=np.bool_)
    mark = np.empty(squares, dtype=np.bool_)
    open_squares = np.empty(squares, dtype=np.int32)
    tabu = np.empty(squares, dtype=np.int64)
    for s in range(squares):
        count[s] = 0
        taken[s] = False
        mark[s] = False
        tabu[s] = 0
    fewest = squares + 1
    position = np.empty(pieces, dtype=np.int32)
    for i in range(pieces):
        s = np.random.randint(squares)
        while taken[s]:
            s = np.random.randint(squares)
        position[i] = s
        taken[s] = True
        for j in range(degree[s]):
            count[cover[s, j]] += 1
    for step in range(steps):
        uncovered = 0
        for s in range(squares):
            if count[s] == 0:
                open_squares[uncovered] = s
                uncovered += 1
        if uncovered == 0:
            for i in range(pieces):
                out[i] = position[i]
            return 0
        fewest = min(fewest, uncovered)
        target = open_squares[np.random.randint(uncovered)]
        best_piece, best_square, best_left, ties = -1, -1, squares + 1, 0
        if np.random.random() < NOISE:
            best_piece = np.random.randint(pieces)
            best_square = cover[target, np.random.randint(degree[target])]
            if taken[best_square]:
                continue
        else:
            for i in range(pieces):
                old = position[i]
                lost = 0
                for j in range(degree[old]):
                    s = cover[old, j]
                    mark[s] = True
                    if count[s] == 1:
                        lost += 1
                for c in range(degree[target]):
                    new = cover[target, c]
                    if taken[new]:
                        continue
                    gained = 0
                    for j in range(degree[new]):
                        s = cover[new, j]
                        if count[s] == 0 or (count[s] == 1 and mark[s]):
                            gained += 1
                    left = uncovered + lost - gained
                    if tabu[new] > step and left >= fewest:
                        continue
                    if left < best_left:
                        best_piece, best_square, best_left, ties = i, new, left, 1
                    elif left == best_left:
                        ties += 1
                        if np.random.randint(ties) == 0:
                            best_piece, best_square = i, new
                for j in range(degree[old]):
                    mark[cover[old, j]] = False
        if best_piece < 0:
            continue
        old = position[best_piece]
        tabu[old] = step + 1 + np.random.randint(tenure)
        for j in range(degree[old]):
            count[cover[old, j]] -= 1
        taken[old] = False
        position[best_piece] = best_square
        taken[best_square] = True
        for j in range(degree[best_square]):
            count[cover[best_square, j]] += 1
    uncovered = 0
    for s in range(squares):
        if count[s] == 0:
            uncovered += 1
    return uncovered


def _cover_table(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """Per square, the squares a piece there occupies or attacks (padded rows)."""
    reach = coverers(problem.board, problem.armies[0].piece)
    degree = np.array([len(squares) for squares in reach], dtype=np.int32)
    table = np.zeros((len(reach), int(degree.max())), dtype=np.int32)
    for s, squares in enumerate(reach):
        table[s, : len(squares)] = squares
    return table, degree


def dominating_set(problem: Problem, pieces: int, control: Control, runs: int) -> Placement | None:
    """A placement of ``pieces`` pieces that covers the board, if one of ``runs``
    local searches finds it (``problem`` must be a domination problem)."""
    board = problem.board
    if pieces >= board.size:
        return Placement.from_squares(problem, [list(board.squares())])
    table, degree = _cover_table(problem)
    out = np.empty(pieces, dtype=np.int32)
    steps = STEPS_PER_SQUARE * board.size
    for seed in range(runs):
        if control.stopped:
            return None
        if _search(table, degree, pieces, steps, seed, TENURE, out) == 0:
            squares: list[Square] = [board.at(int(s)) for s in out]
            return Placement.from_squares(problem, [squares])
    return None
