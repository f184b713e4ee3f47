"""The ``regions`` engine: region puzzles (Queens game, Star Battle) by a compiled search.

The search itself is :mod:`chessplace.solvers.regionkernel`; this module owns its
stack, runs it a budget of nodes at a time so that a stop or the time limit is
heard, and turns what it finds into placements.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from chessplace.control import Control
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.result import Result, Status
from chessplace.solvers.base import Engine, Task

BUDGET = 20_000
"""Nodes per call of the kernel between looks at the run's control (a few milliseconds)."""
CHUNK = 256
"""The most solutions handed out per call of the kernel when listing (the first calls
hand out 2, 2, 4, 8, …: a uniqueness check asks for two)."""


class RegionRun:
    """The kernel's stack for one problem: a search that can be run on in steps."""

    def __init__(self, problem: Problem, keep: int) -> None:
        regions = problem.regions
        if regions is None:
            raise ValueError("the region search needs a problem with regions")
        self.problem = problem
        n, k = regions.size, regions.per_line
        self.n, self.k = n, k
        self.region = np.array(
            [[regions.region_of((f, r)) for f in range(n)] for r in range(n)], dtype=np.int64
        )
        depth = n * n + 2  # each level places a piece or rules out a square
        self.free = np.zeros((depth, n, n), dtype=np.uint8)
        self.free[0] = 1
        self.ranks = np.zeros((depth, n), dtype=np.int64)
        self.files = np.zeros((depth, n), dtype=np.int64)
        self.areas = np.zeros((depth, n), dtype=np.int64)
        self.phase = np.zeros(depth, dtype=np.int64)
        self.chosen = np.zeros((depth, 2), dtype=np.int64)
        self.placed = np.zeros(depth, dtype=np.int64)
        self.path = np.zeros(n * k, dtype=np.int64)
        self.state = np.zeros(3, dtype=np.int64)
        self.out = np.zeros((keep, n * k), dtype=np.int64)

    @property
    def found(self) -> int:
        """Solutions met so far."""
        return int(self.state[1])

    def run(self, limit: int | None, control: Control) -> bool:
        """Search on until ``limit`` solutions in all, the end, or a stop; True when every
        placement has been met."""
        from chessplace.solvers.regionkernel import EXHAUSTED, PAUSED, search

        while True:
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
            if outcome != PAUSED or control.stopped:
                return bool(outcome == EXHAUSTED)

    def kept(self, first: int = 0) -> list[Placement]:
        """The solutions kept in ``out`` since solution number ``first``."""
        count = min(self.found - first, self.out.shape[0])
        return [self._placement(self.out[row]) for row in range(count)]

    def keep_from(self, first: int) -> None:
        """Keep the solutions from number ``first`` on."""
        self.state[2] = first

    def _placement(self, cells: np.ndarray) -> Placement:
        squares = [(int(c) % self.n, int(c) // self.n) for c in cells]
        return Placement.from_squares(self.problem, [squares])


class RegionSearchEngine(Engine):
    name = "regions"
    summary = "compiled search of ranks, files and regions (Numba): Queens game, Star Battle"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.SOLVE, Task.COUNT, Task.LIST})
    takes_regions = True

    def refusal(self, problem: Problem, task: Task) -> str | None:
        reason = super().refusal(problem, task)
        if reason is None and problem.regions is None:
            return "regions searches region puzzles only (queens-game, star-battle)"
        return reason

    def solve(self, problem: Problem, control: Control) -> Result:
        run = RegionRun(problem, keep=1)
        complete = run.run(1, control)
        if run.found:
            return Result(Status.FEASIBLE, self.name, run.kept()[0])
        return Result(Status.INFEASIBLE if complete else Status.UNKNOWN, self.name)

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        run = RegionRun(problem, keep=1)
        complete = run.run(None, control)
        first = run.kept()
        return Result(
            Status.COMPLETE if complete else Status.PARTIAL,
            self.name,
            first[0] if first else None,
            count=run.found,
            unique=run.found if unique else None,  # a grid of regions has no symmetry
        )

    def solutions(self, problem: Problem, control: Control) -> Iterator[Placement]:
        run = RegionRun(problem, keep=CHUNK)
        while True:
            first = run.found
            run.keep_from(first)
            complete = run.run(first + min(CHUNK, max(2, first)), control)
            yield from run.kept(first)
            if complete or control.stopped:
                return
