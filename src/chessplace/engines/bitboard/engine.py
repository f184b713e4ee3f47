"""The bitboard counting engine: one piece per row, on every core or a Dask cluster."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chessplace.core.errors import BadRequest
from chessplace.core.features import Feature
from chessplace.core.pieces import BISHOP_DIRECTIONS, QUEEN, ROOK, ROOK_DIRECTIONS, Piece
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result, Status
from chessplace.engines.base import Engine, Task
from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.bitboard.pawns import Position
from chessplace.engines.bitboard.split import (
    CountSpec,
    class_subproblems,
    mirror_subproblems,
    plain_subproblems,
)
from chessplace.engines.support.jitcache import search_of
from chessplace.runtime import compiling
from chessplace.runtime.control import Control

INTERPRET_UP_TO = 5_000
"""Placements met (estimated) up to which a search not compiled yet runs in plain
Python, where it meets some 3,000 to 12,000 a second (amazons to queens), while
compiling it takes two to four seconds. A count by classes meets one placement of
each class, about an eighth of them; a plain count or a listing meets every one."""


class BitboardEngine(Engine):
    """Counts with the compiled kernel, split into subproblems of the first two rows.

    ``workers`` threads (default: every core), or a Dask cluster (``dask``:
    an address, or ``local``); ``checkpoint`` names a file of finished
    subproblems to resume from.

    A count or listing estimated to meet no more than :data:`INTERPRET_UP_TO`
    placements runs the search in plain Python while this machine has not compiled it
    yet (:mod:`~chessplace.engines.bitboard.interpreted`): a second or two at most,
    where compiling takes several.

    A position is counted too: blocked squares and given pieces as masks per row,
    and for queens and rooks pawns, given or placed (the n+k queens problem), by the
    search of one queen per segment (:mod:`chessplace.engines.bitboard.pawns`),
    classes taken under the symmetries that keep the position. Listing takes no
    position.
    """

    name = "bitboard"
    count_rate = 2.5e7  # 17-queens: 95,815,104 placements in 3.8 s on 2 cores
    summary = "compiled bitboard search (Numba): counts one-per-row pieces with rook moves"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.COUNT, Task.LIST})
    supports = frozenset({Feature.POSITION})

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
        if problem.has_position:
            return _position_refusal(problem, task)
        if army.minimum != board.rows:
            # With the rook's moves no more than n fit, so at least n is exactly n;
            # fewer than n (at most n, or a range below) would be a different count.
            return f"the bitboard search counts placements of exactly {board.rows} (one per row)"
        return None

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        from chessplace.engines.bitboard.kernel import compiled, shape_of
        from chessplace.engines.bitboard.runner import run_count

        if problem.has_position and by_segments(problem.armies[0].piece):
            return self._count_segments(problem, control, unique)
        spec = _spec(problem)
        if spec.plain and unique and len(problem.symmetries()) > 1:
            raise BadRequest(
                "the bitboard search counts the classes of a symmetric position for "
                "queens and rooks only: count without unique, or with solver cpsat"
            )
        shape = shape_of(problem.armies[0].piece, spec.n, collect=False, plain=spec.plain)
        interpret = self._interprets(problem, shape)
        if self.dask in (None, "local") and not interpret:
            # Compiled here first: this machine's cache serves the workers.
            if not _compiled_first(shape, control):
                note = f"stopped while compiling the {spec.n}×{spec.n} search (once per machine)"
                return Result(Status.PARTIAL, self.name, count=0, note=note)
            compiled(shape)
        tasks = plain_subproblems(spec) if spec.plain else class_subproblems(spec.n)
        tally = run_count(spec, tasks, control, self.workers, self.dask, self.checkpoint, interpret)
        return tally.result(self.name, unique, "subproblems")

    def _count_segments(self, problem: Problem, control: Control, unique: bool) -> Result:
        """Queens or rooks with a position: one per row segment (pawns cut the lines)."""
        from chessplace.engines.bitboard.runner import run_pawn_count

        army = problem.armies[0]
        position = Position(
            n=problem.board.rows,
            queens=army.minimum,
            free_pawns=problem.free_pawns,
            blocked=problem.blocked,
            pawns=problem.pawns,
            given=problem.given_of(0),
            diagonals=army.piece.ride_directions >= BISHOP_DIRECTIONS,
        )
        tally = run_pawn_count(position, control, self.workers, self.dask, self.checkpoint)
        return tally.result(self.name, unique, "subproblems")

    def solutions(self, problem: Problem, control: Control) -> Iterator[Placement]:
        """Every solution, streamed subproblem by subproblem (mirror images included);
        a stop or the time limit ends the stream within milliseconds, even inside
        a subproblem's search."""
        from chessplace.engines.bitboard.kernel import shape_of, stop_flag
        from chessplace.engines.bitboard.tasks import solutions_of

        spec = _spec(problem)
        shape = shape_of(problem.armies[0].piece, spec.n, collect=True)
        interpret = self._interprets(problem, shape)
        if not interpret and not _compiled_first(shape, control):
            return
        last = spec.n - 1
        stop = stop_flag()
        with control.interrupting(lambda: stop.fill(1)):
            for task in mirror_subproblems(spec.n, _split_rows(spec.n)):
                for columns in solutions_of(spec, task.prefix, stop, interpret):
                    if control.stopped:
                        return
                    squares = [(int(c), rank) for rank, c in enumerate(columns)]
                    yield Placement.from_squares(problem, [squares])
                    if task.weight == 2:
                        mirror = [(last - f, r) for f, r in squares]
                        yield Placement.from_squares(problem, [mirror])
                if control.stopped:
                    return

    def _interprets(self, problem: Problem, shape: Shape) -> bool:
        """True when the search for ``shape`` is to run in plain Python: on this
        machine's threads, not compiled here yet, and estimated small."""
        from chessplace.engines.bitboard.kernel import compiled_before
        from chessplace.engines.support.estimate import placements_estimate

        if self.dask is not None or compiled_before(shape):
            return False
        estimate = placements_estimate(problem)
        if estimate is None:
            return False
        met = estimate if shape.plain or shape.collect else estimate / 8
        return met <= INTERPRET_UP_TO


def _compiled_first(shape: Shape, control: Control) -> bool:
    """Compile the search for ``shape`` where a stop can end it at once (see
    :func:`~chessplace.engines.bitboard.kernel.compile_apart`); False when stopped."""
    from chessplace.engines.bitboard.kernel import compile_apart, compiled_before

    if compiled_before(shape):
        return True
    # No placement is found while it compiles: the count so far is 0.
    n = shape.n
    control.report(count=0, message=f"compiling the {n}×{n} search (once per machine)")
    with compiling.compiling(search_of(__name__)):  # kept out of the answer's seconds
        return compile_apart(shape, lambda: control.stopped)


def by_segments(piece: Piece) -> bool:
    """True for the queen and the rook: pieces whose rides are all their moves, counted
    one per segment by the search that knows pawns."""
    return piece in (QUEEN, ROOK)


def _position_refusal(problem: Problem, task: Task) -> str | None:
    """Why a position is out of reach: listing, pawns with a piece that leaps, or a
    count other than one piece per row (with pawns: per row segment)."""
    if task is not Task.COUNT:
        return "the bitboard search lists solutions without blocked squares, pawns or givens"
    army, n = problem.armies[0], problem.board.rows
    pawns = len(problem.pawns) + problem.free_pawns
    if pawns and not by_segments(army.piece):
        return "the bitboard search counts queens and rooks with pawns, no other piece"
    if army.minimum != army.maximum or army.minimum != n + pawns:
        if not pawns:
            return f"the bitboard search counts placements of exactly {n} (one per row)"
        return (
            f"the bitboard search counts exactly {n + pawns} {army.piece.name}s with "
            f"{pawns} pawn{'s' if pawns != 1 else ''} (one in every row segment)"
        )
    return None


def _spec(problem: Problem) -> CountSpec:
    """What the generated search counts: with a position, the rows' blocked squares and
    given pieces as masks (a given piece leaves its row only its square)."""
    n = problem.board.rows
    betza = problem.armies[0].piece.betza
    if not problem.has_position:
        return CountSpec(n, betza)
    full = (1 << n) - 1
    forbid = [0] * n
    for x, y in problem.blocked:
        forbid[y] |= 1 << x
    for x, y in problem.given_of(0):
        forbid[y] |= full & ~(1 << x)
    return CountSpec(n, betza, tuple(forbid))


def _split_rows(n: int) -> int:
    """Rows fixed per subproblem: enough subproblems to balance the cores."""
    return 2 if n > 8 else 1
