"""The bitboard counting engine: one piece per row, on every core."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import ClassVar

import numpy as np

from chessplace.control import Control
from chessplace.problem import Problem
from chessplace.result import Result, Status
from chessplace.solvers.base import Engine, Task

BISHOP_DIRECTIONS = frozenset({(1, 1), (-1, -1), (1, -1), (-1, 1)})
ROOK_DIRECTIONS = frozenset({(1, 0), (-1, 0), (0, 1), (0, -1)})


class BitboardEngine(Engine):
    name = "bitboard"
    summary = "compiled bitboard search (Numba): counts one-per-row pieces with rook moves"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.COUNT})
    workers: ClassVar[int | None] = None

    def refusal(self, problem: Problem, task: Task) -> str | None:
        from chessplace.rowsearch.kernel import MAX_N

        reason = super().refusal(problem, task)
        if reason:
            return reason
        if len(problem.armies) != 1 or not problem.independent or problem.dominating:
            return "the bitboard search counts single independent armies"
        board = problem.board
        if not board.is_square or board.rows > MAX_N:
            return f"the bitboard search needs a square board of at most {MAX_N}×{MAX_N}"
        army = problem.armies[0]
        if not army.piece.has_rook_moves:
            return f"the bitboard search needs a piece with the rook's moves, not {army.piece}"
        if not army.piece.ride_directions <= ROOK_DIRECTIONS | BISHOP_DIRECTIONS:
            return "the bitboard search handles rook and bishop rides plus leaps"
        if army.minimum != board.rows and army.maximum != board.rows:
            return "the bitboard search counts placements of one piece per row"
        return None

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        from chessplace.rowsearch.kernel import counter
        from chessplace.rowsearch.split import leap_table, subproblems

        n = problem.board.rows
        piece = problem.armies[0].piece
        leaps = leap_table(piece, n)
        kernel = counter(piece.ride_directions >= BISHOP_DIRECTIONS, leaps.shape[0], unique)
        tasks = subproblems(n, rows=2 if n > 8 else 1)
        total = canonical = done = 0

        def work(prefix: tuple[int, ...]) -> tuple[int, int]:
            if control.stopped:
                return -1, 0
            return kernel(n, leaps, np.array(prefix, dtype=np.int64))

        workers = self.workers or os.cpu_count() or 1
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for task, (solutions, classes) in zip(
                tasks, pool.map(work, [t.prefix for t in tasks]), strict=True
            ):
                if solutions < 0:
                    continue
                total += task.weight * solutions
                canonical += classes
                done += 1
                control.report(count=total, message=f"{done}/{len(tasks)} subproblems")
        finished = done == len(tasks)
        return Result(
            Status.COMPLETE if finished else Status.PARTIAL,
            self.name,
            count=total,
            unique=canonical if unique and finished else None,
        )
