"""The ``lines`` engine: peaceable armies of a rider by branch and bound over line colours."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from chessplace.core.board import Square
from chessplace.core.features import Feature
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result, Status
from chessplace.encodings import lines
from chessplace.engines.base import Engine, Task
from chessplace.engines.lines.geometry import Geometry, geometry, scalings
from chessplace.runtime.control import Control

if TYPE_CHECKING:  # the search modules load Numba, which the registry must not
    from chessplace.engines.lines.runner import LineSearch

MAX_SIDE = 32

MAX_SIDE_THREE = 24
"""Three armies' product table has an entry per pair of rank and file count vectors
(2,925² int16 entries, 17 MB, at 24; about twice that while it is built)."""

GUESS_RUNS = 4
"""Annealing runs whose best armies ``optimize`` starts from."""


def placement_of(problem: Problem, g: Geometry, labels: np.ndarray) -> Placement:
    """The filled placement of a labelling (by line), trimmed to the armies' counts:
    army ``i`` stands where every line carries colour ``colours - 1 - i`` (white 1 and
    black 0 for two)."""
    board = problem.board
    armies: list[list[Square]] = [[] for _ in range(g.colours)]
    for s in np.flatnonzero(g.free).tolist():
        colours = {int(labels[line]) for line in g.through[s]}
        if len(colours) == 1:
            armies[g.colours - 1 - colours.pop()].append(board.at(s))
    return lines.trimmed(Placement.from_squares(problem, armies))


def labels_of(g: Geometry, placement: Placement) -> np.ndarray:
    """A labelling (by line) whose value is at least the smallest army of ``placement``:
    each line takes the colour of the pieces on it (colour 0 on lines without any)."""
    labels = np.zeros(g.lines, dtype=np.int32)
    board = placement.problem.board
    for army, squares in enumerate(placement.armies):
        for square in squares:
            labels[g.through[board.index(square)]] = g.colours - 1 - army
    return labels


class LineSearchEngine(Engine):
    name = "lines"
    supports = frozenset(
        {Feature.TORUS, Feature.CYLINDER, Feature.POSITION}
    )  # blocked squares only: see lines.refusal
    summary = "branch and bound over line colours (Numba): peaceable armies of a rider, proven"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE, Task.COUNT})

    def __init__(
        self,
        symmetry: bool = True,
        checkpoint: Path | None = None,
        workers: int | None = None,
        dask: str | None = None,
    ) -> None:
        """``symmetry`` off searches every rank/file labelling (for tests);
        ``checkpoint`` names a file of finished chunks to resume from and add to;
        ``workers`` threads (default: every core), or a Dask cluster (``dask``: a
        scheduler address, or ``local`` for ``workers`` processes here)."""
        self.symmetry = symmetry
        self.checkpoint = checkpoint
        self.workers = workers
        self.dask = dask

    def refusal(self, problem: Problem, task: Task) -> str | None:
        reason = super().refusal(problem, task) or lines.refusal(
            problem, most_armies=3, blocked=True
        )
        if reason:
            return reason
        if len(problem.armies) == 3:
            return _three_refusal(problem, task)
        if max(problem.board.rows, problem.board.cols) > MAX_SIDE:
            return f"lines searches boards up to {MAX_SIDE} on a side"
        if not problem.equal_armies:
            return _unequal_refusal(problem, task, self)
        if any(army.fixed for army in problem.armies):
            return "lines searches equal armies, or a fixed white army beside a free black one"
        if task is Task.COUNT:
            return _count_refusal(problem, self)
        return None

    def _search(
        self, problem: Problem, client: Any, scaled: bool = True
    ) -> tuple[Geometry, LineSearch]:
        """The geometry and the search of ``problem``; ``scaled``: with the torus's
        scalings, unless the checkpoint was written without them."""
        from chessplace.engines.lines.runner import MIN_CHUNKS, LineSearch, dask_chunks

        equal = problem.equal_armies
        piece, colours = problem.armies[0].piece, len(problem.armies)
        side = max(problem.board.rows, problem.board.cols)
        chunks = MIN_CHUNKS if client is None else dask_chunks(side)
        white = None if equal else problem.armies[0].minimum

        def search_with(with_scalings: bool) -> tuple[Geometry, LineSearch]:
            g = geometry(
                problem.board, piece, self.symmetry, equal, colours, problem.blocked, with_scalings
            )
            return g, LineSearch(g, self.workers, self.checkpoint, client, chunks, white)

        g, search = search_with(scaled)
        if (
            scaled
            and self.checkpoint is not None
            and self.checkpoint.exists()
            and not search.written_by_this_search()
            and scalings(problem.board)
        ):  # perhaps written before the scalings: then it goes on with the board's
            unscaled = search_with(False)
            if unscaled[1].written_by_this_search():
                g, search = unscaled
        search.check_checkpoint()
        return g, search

    @contextmanager
    def _searching(
        self, problem: Problem, control: Control
    ) -> Iterator[tuple[Geometry, LineSearch]]:
        """The geometry and search of ``problem`` on the Dask client of ``dask`` (none
        without). The checkpoint is checked before a cluster starts, and the client is
        opened before any work, so that an unreachable scheduler is the only thing said."""
        if self.dask is None:
            yield self._search(problem, None)
            return
        from chessplace.runtime.cluster import connect_seconds, dask_client

        self._search(problem, None)  # a checkpoint of another search is refused here
        with dask_client(self.workers, self.dask, connect_seconds(control.remaining())) as client:
            yield self._search(problem, client)

    def solve(self, problem: Problem, control: Control) -> Result:
        scored = [problem.armies[i] for i in problem.scored_armies]
        target = max(army.minimum for army in scored)
        with self._searching(problem, control) as (g, search):
            outcome = search.run(target, False, control)
        if outcome.labels is not None:
            return Result(Status.FEASIBLE, self.name, placement_of(problem, g, outcome.labels))
        if not outcome.complete:
            return Result(Status.UNKNOWN, self.name)
        return Result(Status.INFEASIBLE, self.name)

    def optimize(self, problem: Problem, control: Control) -> Result:
        free = problem.without_counts()
        with self._searching(free, control) as (g, search):
            best = _first_guess(free, control)
            bound = upper_bound(free)
            if best is not None:
                control.report(objective=best.objective, bound=bound, placement=best)
            known = None if best is None else labels_of(g, best)
            target = 0 if best is None else best.objective + 1
            outcome = search.run(target, True, control, known)
        if outcome.labels is not None:
            best = placement_of(free, g, outcome.labels)
            control.report(objective=best.objective, bound=bound, placement=best)
        if best is None:
            return Result(Status.UNKNOWN, self.name, bound=bound)
        if not outcome.complete:
            return Result(Status.FEASIBLE, self.name, best, objective=best.objective, bound=bound)
        return Result(
            Status.OPTIMAL, self.name, best, objective=best.objective, bound=best.objective
        )

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        """Every placement with exactly m of each army (see :mod:`optima`); a stop
        answers the classes of the chunks finished, as a lower bound."""

        from chessplace.engines.lines.optima import board_images, enumerate_optima

        m = problem.armies[0].minimum
        _, search = self._search(problem, None, scaled=False)  # classes are the board's
        images = board_images(problem.board, problem.symmetries())
        found = enumerate_optima(search, m, images, control)  # TooManyPlacements: bad input
        example = next(found.classes.representatives(), None)
        placement = None
        if example is not None:
            squares = tuple([problem.board.at(s) for s in army] for army in example)
            placement = Placement.from_squares(problem, squares)
        control.report(
            count=found.classes.placements,
            message=f"{found.nodes:,} nodes, {found.leaves:,} labellings reach {m}",
        )
        return Result(
            Status.COMPLETE if found.complete else Status.PARTIAL,
            self.name,
            placement,
            count=found.classes.placements,
            unique=found.classes.classes if unique else None,
        )


def _unequal_refusal(problem: Problem, task: Task, engine: LineSearchEngine) -> str | None:
    """Why the line engine does not search these unequal armies: it takes a fixed
    white army (``--white W``) beside a free black one, on the local cores."""
    white, black = problem.armies
    if not white.fixed or black.fixed or task is Task.COUNT:
        return "lines searches equal armies, or optimizes black beside a fixed white army"
    if engine.dask is not None:
        return "lines searches a fixed white army on this machine's cores, not on Dask"
    return None


def _count_refusal(problem: Problem, engine: LineSearchEngine) -> str | None:
    """Why the line engine does not count ``problem``: it counts exactly m of each."""
    first, second = problem.armies
    if first.maximum != first.minimum or second.maximum != second.minimum:
        return "lines counts exactly m of each army (--exactly M, or --optimal)"
    if engine.checkpoint is not None or engine.dask is not None:
        return "lines counts on this machine's cores, without --checkpoint or --dask"
    bound = upper_bound(problem.without_counts())
    if bound is not None and 2 * first.minimum < bound:
        return (
            f"lines counts near the optimum (at least half the product bound {bound}); "
            f"below it the placements of a labelling multiply"
        )
    return None


def _three_refusal(problem: Problem, task: Task) -> str | None:
    """Why the line engine does not search these three armies: it takes three equal
    ones, to solve or optimize, on boards up to :data:`MAX_SIDE_THREE`."""
    if task is Task.COUNT or not problem.equal_armies:
        return "lines takes three armies only equal, to solve or optimize"
    if any(army.fixed for army in problem.armies):
        return "lines searches three equal armies, not fixed ones"
    if max(problem.board.rows, problem.board.cols) > MAX_SIDE_THREE:
        return f"lines searches three armies on boards up to {MAX_SIDE_THREE} on a side"
    return None


def upper_bound(problem: Problem) -> int | None:
    """The product bound of :func:`lines.upper_bound`, which blocked squares can only
    lower: taken on the open board, and at most the squares left to each army."""
    bound = lines.upper_bound(replace(problem, blocked=frozenset()))
    if bound is None or not problem.blocked:
        return bound
    return min(bound, (problem.board.size - len(problem.blocked)) // len(problem.armies))


def _first_guess(problem: Problem, control: Control) -> Placement | None:
    """The best armies of a few annealing runs, to start the proof from (none for
    three armies: the annealer colours lines white or black; none with blocked
    squares, which it does not know)."""
    if len(problem.armies) != 2 or problem.has_position:
        return None
    from chessplace.engines.heuristic.engine import search

    return search(problem, control, runs=GUESS_RUNS)
