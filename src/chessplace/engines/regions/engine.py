"""The ``regions`` engine: region puzzles (Queens game, Star Battle) by a compiled search.

The search itself is :mod:`chessplace.engines.regions.kernel`; this module owns its
stack, runs it a budget of nodes at a time so that a stop or the time limit is
heard, and turns what it finds into placements.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator

import numpy as np

from chessplace.core.board import Square
from chessplace.core.features import Feature
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.regions import Sketch
from chessplace.core.result import Result, Status
from chessplace.engines.base import Engine, Task
from chessplace.runtime.control import Control

BUDGET = 20_000
"""Nodes per call of the kernel between looks at the run's control (a few milliseconds)."""
MAX_CLASSED = 1_000_000
"""The most placements ``--unique`` lists for a grid with symmetries."""

CHUNK = 256
"""The most solutions handed out per call of the kernel when listing (the first calls
hand out 2, 2, 4, 8, …: a uniqueness check asks for two)."""


class RegionRun:
    """The kernel's stack for one grid: a search that can be run on in steps.

    ``region[rank, file]`` numbers the regions 0 to n − 1; ``allowed`` (0/1 per
    square, all 1 by default) marks the squares that may hold a piece.
    """

    def __init__(
        self, region: np.ndarray, k: int, keep: int, allowed: np.ndarray | None = None
    ) -> None:
        n = region.shape[0]
        self.n, self.k = n, k
        self.region = np.ascontiguousarray(region, dtype=np.int64)
        depth = n * n + 2  # each level places a piece or rules out a square
        self.free = np.zeros((depth, n, n), dtype=np.uint8)
        self.free[0] = 1 if allowed is None else allowed
        self.ranks = np.zeros((depth, n), dtype=np.int64)
        self.files = np.zeros((depth, n), dtype=np.int64)
        self.areas = np.zeros((depth, n), dtype=np.int64)
        self.phase = np.zeros(depth, dtype=np.int64)
        self.chosen = np.zeros((depth, 2), dtype=np.int64)
        self.placed = np.zeros(depth, dtype=np.int64)
        self.path = np.zeros(n * k, dtype=np.int64)
        self.state = np.zeros(3, dtype=np.int64)
        self.out = np.zeros((keep, n * k), dtype=np.int64)

    @classmethod
    def of(cls, problem: Problem, keep: int) -> RegionRun:
        """The run for a problem with regions."""
        regions = problem.regions
        if regions is None:
            raise ValueError("the region search needs a problem with regions")
        n = regions.size
        region = np.array(
            [[regions.region_of((f, r)) for f in range(n)] for r in range(n)], dtype=np.int64
        )
        return cls(region, regions.per_line, keep)

    @classmethod
    def of_sketch(cls, sketch: Sketch, keep: int) -> RegionRun:
        """The run for a grid being drawn: pieces only on its allowed squares."""
        region = np.array(sketch.numbers, dtype=np.int64)
        allowed = np.zeros(region.shape, dtype=np.uint8)
        for file, rank in sketch.allowed:
            allowed[rank, file] = 1
        return cls(region, sketch.per_line, keep, allowed)

    def place(self, square: Square) -> None:
        """Put a piece on ``square`` before the search starts: every solution met holds
        it. Only on a fresh run, and only on a square that may take a piece."""
        from chessplace.engines.regions.kernel import place

        file, rank = square
        on_board = 0 <= file < self.n and 0 <= rank < self.n
        if self.state[0] != 0 or self.phase[0] != 0 or not on_board or not self.free[0, rank, file]:
            raise ValueError(f"no piece can be put on {square} here")
        self.path[self.placed[0]] = rank * self.n + file
        self.placed[0] += 1
        place(
            self.n,
            self.k,
            self.region,
            self.free[0],
            self.ranks[0],
            self.files[0],
            self.areas[0],
            rank,
            file,
        )

    @property
    def found(self) -> int:
        """Solutions met so far."""
        return int(self.state[1])

    def run(
        self, limit: int | None, control: Control | None = None, budgets: int | None = None
    ) -> bool:
        """Search on until ``limit`` solutions in all, the end, a stop, or ``budgets``
        times :data:`BUDGET` nodes; True when every placement has been met."""
        from chessplace.engines.regions.kernel import EXHAUSTED, PAUSED, search

        spent = 0
        while True:
            spent += 1
            outcome = search(
                self.n,
                self.k,
                self.region,
                self.free,
                self.ranks,
                self.files,
                self.areas,
                self.phase,
                self.chosen,
                self.placed,
                self.path,
                self.state,
                self.out,
                -1 if limit is None else limit,
                BUDGET,
            )
            if outcome != PAUSED or (control is not None and control.stopped):
                return bool(outcome == EXHAUSTED)
            if budgets is not None and spent >= budgets:
                return False

    def kept(self, first: int = 0) -> list[list[Square]]:
        """The squares of each solution kept in ``out`` since solution number ``first``."""
        count = min(self.found - first, self.out.shape[0])
        return [
            [(int(c) % self.n, int(c) // self.n) for c in self.out[row]] for row in range(count)
        ]

    def keep_from(self, first: int) -> None:
        """Keep the solutions from number ``first`` on."""
        self.state[2] = first


def used(sketch: Sketch, square: Square, budgets: int) -> bool | None:
    """Whether some placement with pieces only where the sketch allows holds a piece on
    ``square``; ``None`` when ``budgets`` times :data:`BUDGET` nodes did not tell. When
    ``square`` joins the grid, or moves to another region, only such placements are
    new, so this tells whether a unique grid stays unique far sooner than a count of
    the grid."""
    run = RegionRun.of_sketch(sketch, keep=1)
    run.place(square)
    complete = run.run(1, budgets=budgets)
    return True if run.found else (False if complete else None)


def another_solution(
    sketch: Sketch, solution: Collection[Square], budgets: int
) -> list[Square] | None:
    """A solution of the sketch other than ``solution``; ``[]`` when the count proves
    ``solution`` the only one, ``None`` when ``budgets`` times :data:`BUDGET` nodes did
    not tell."""
    run = RegionRun.of_sketch(sketch, keep=2)
    complete = run.run(2, budgets=budgets)
    others = [found for found in run.kept() if set(found) != set(solution)]
    if others:
        return others[0]
    return [] if complete and run.found == 1 else None


def holding(problem: Problem, squares: Iterable[Square], control: Control) -> bool | None:
    """Whether some solution of the grid of ``problem`` holds a piece on each of
    ``squares`` (pieces that break no rule together); ``None`` when ``control`` stopped
    the search first."""
    run = RegionRun.of(problem, keep=1)
    try:
        for square in squares:
            run.place(square)
    except ValueError:  # a piece before it already rules this square out
        return False
    complete = run.run(1, control)
    return True if run.found else (False if complete else None)


def _placements(problem: Problem, solutions: list[list[Square]]) -> list[Placement]:
    return [Placement.from_squares(problem, [squares]) for squares in solutions]


class RegionSearchEngine(Engine):
    name = "regions"
    summary = "compiled search of ranks, files and regions (Numba): Queens game, Star Battle"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.SOLVE, Task.COUNT, Task.LIST})
    supports = frozenset({Feature.REGIONS})

    def refusal(self, problem: Problem, task: Task) -> str | None:
        reason = super().refusal(problem, task)
        if reason is None and problem.regions is None:
            return "regions searches region puzzles only (queens-game, star-battle)"
        return reason

    def solve(self, problem: Problem, control: Control) -> Result:
        run = RegionRun.of(problem, keep=1)
        complete = run.run(1, control)
        if run.found:
            return Result(Status.FEASIBLE, self.name, _placements(problem, run.kept())[0])
        return Result(Status.INFEASIBLE if complete else Status.UNKNOWN, self.name)

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        if unique and len(problem.symmetries()) > 1:
            return self._count_classes(problem, control)
        run = RegionRun.of(problem, keep=1)
        complete = run.run(None, control)
        first = _placements(problem, run.kept())
        return Result(
            Status.COMPLETE if complete else Status.PARTIAL,
            self.name,
            first[0] if first else None,
            count=run.found,
            unique=run.found if unique else None,  # no symmetry maps the grid onto itself
        )

    def _count_classes(self, problem: Problem, control: Control) -> Result:
        """Count a grid that some board symmetry maps onto itself: every placement is
        listed and brought to its class's key (at most :data:`MAX_CLASSED` of them)."""
        keys: set[tuple[tuple[Square, ...], ...]] = set()
        first: Placement | None = None
        total = 0
        for placement in self.solutions(problem, control):
            total += 1
            if total > MAX_CLASSED:
                raise ValueError(
                    f"--unique on a symmetric grid lists its placements: more than "
                    f"{MAX_CLASSED:,} here"
                )
            first = first or placement
            keys.add(placement.canonical_key())
        return Result(
            Status.PARTIAL if control.stopped else Status.COMPLETE,
            self.name,
            first,
            count=total,
            unique=len(keys),
        )

    def solutions(self, problem: Problem, control: Control) -> Iterator[Placement]:
        run = RegionRun.of(problem, keep=CHUNK)
        while True:
            first = run.found
            run.keep_from(first)
            complete = run.run(first + min(CHUNK, max(2, first)), control)
            yield from _placements(problem, run.kept(first))
            if complete or control.stopped:
                return
