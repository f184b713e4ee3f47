"""The bitboard counting engine: one piece per row, on every core or a Dask cluster."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chessplace.core.pieces import BISHOP_DIRECTIONS, ROOK_DIRECTIONS
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result, Status
from chessplace.engines.base import Engine, Task
from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.bitboard.split import CountSpec, class_subproblems, mirror_subproblems
from chessplace.runtime.control import Control


class BitboardEngine(Engine):
    """Counts with the compiled kernel, split into subproblems of the first two rows.

    ``workers`` threads (default: every core), or a Dask cluster (``dask``:
    an address, or ``local``); ``checkpoint`` names a file of finished
    subproblems to resume from.
    """

    name = "bitboard"
    count_rate = 2.5e7  # 17-queens: 95,815,104 placements in 3.8 s on 2 cores
    summary = "compiled bitboard search (Numba): counts one-per-row pieces with rook moves"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.COUNT, Task.LIST})

    def __init__(
        self, workers: int | None = None, dask: str | None = None, checkpoint: Path | None = None
    ) -> None:
        self.workers = workers
        self.dask = dask
        self.checkpoint = checkpoint

    def refusal(self, problem: Problem, task: Task) -> str | None:
        from chessplace.engines.bitboard.kernel import MAX_N

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
        if army.minimum != board.rows:
            # With the rook's moves no more than n fit, so at least n is exactly n;
            # fewer than n (at most n, or a range below) would be a different count.
            return f"the bitboard search counts placements of exactly {board.rows} (one per row)"
        return None

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        from chessplace.engines.bitboard.kernel import compiled, shape_of
        from chessplace.engines.bitboard.runner import run_count

        spec = _spec(problem)
        if self.dask in (None, "local"):  # this machine's cache serves the workers
            shape = shape_of(problem.armies[0].piece, spec.n, collect=False)
            if not _compiled_first(shape, control):
                note = f"stopped while compiling the {spec.n}×{spec.n} search (once per machine)"
                return Result(Status.PARTIAL, self.name, count=0, note=note)
            compiled(shape)
        tasks = class_subproblems(spec.n)
        tally = run_count(spec, tasks, control, self.workers, self.dask, self.checkpoint)
        note = f"resumed {tally.resumed} finished subproblems" if tally.resumed else ""
        return Result(
            Status.COMPLETE if tally.finished else Status.PARTIAL,
            self.name,
            count=tally.solutions,
            unique=tally.canonical if unique and tally.finished else None,
            note=note,
        )

    def solutions(self, problem: Problem, control: Control) -> Iterator[Placement]:
        """Every solution, streamed subproblem by subproblem (mirror images included);
        a stop or the time limit ends the stream within milliseconds, even inside
        a subproblem's search."""
        from chessplace.engines.bitboard.kernel import shape_of, stop_flag
        from chessplace.engines.bitboard.tasks import solutions_of

        spec = _spec(problem)
        if not _compiled_first(shape_of(problem.armies[0].piece, spec.n, collect=True), control):
            return
        last = spec.n - 1
        stop = stop_flag()
        with control.interrupting(lambda: stop.fill(1)):
            for task in mirror_subproblems(spec.n, _split_rows(spec.n)):
                for columns in solutions_of(spec, task.prefix, stop):
                    if control.stopped:
                        return
                    squares = [(int(c), rank) for rank, c in enumerate(columns)]
                    yield Placement.from_squares(problem, [squares])
                    if task.weight == 2:
                        mirror = [(last - f, r) for f, r in squares]
                        yield Placement.from_squares(problem, [mirror])
                if control.stopped:
                    return


def _compiled_first(shape: Shape, control: Control) -> bool:
    """Compile the search for ``shape`` where a stop can end it at once (see
    :func:`~chessplace.engines.bitboard.kernel.compile_apart`); False when stopped."""
    from chessplace.engines.bitboard.kernel import compile_apart, compiled_before

    if compiled_before(shape):
        return True
    # No placement is found while it compiles: the count so far is 0.
    n = shape.n
    control.report(count=0, message=f"compiling the {n}×{n} search (once per machine)")
    return compile_apart(shape, lambda: control.stopped)


def _spec(problem: Problem) -> CountSpec:
    return CountSpec(problem.board.rows, problem.armies[0].piece.betza)


def _split_rows(n: int) -> int:
    """Rows fixed per subproblem: enough subproblems to balance the cores."""
    return 2 if n > 8 else 1
