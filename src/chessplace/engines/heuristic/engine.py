"""Local search for peaceable armies: annealing over line colours on every core.

Finds large armies fast on big boards and proves nothing itself: ``optimize``
searches until the time limit (``DEFAULT_SECONDS`` without one) and answers
``feasible`` with the quick rows × files bound; ``solve`` stops as soon as
the asked armies are reached, or at the same limit with ``unknown``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import count

import numpy as np

from chessplace.core.features import Feature
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result, Status
from chessplace.encodings import lines
from chessplace.engines.base import Engine, Task
from chessplace.runtime.control import Control

DEFAULT_SECONDS = 60.0
"""How long ``optimize`` (and ``solve``, short of its target) searches without a time limit."""

STEPS_PER_LINE = 20_000
"""Recolourings per annealing run, per line of the board (a run takes ~0.1 s at n = 16)."""

_HOT, _COLD, _BALANCE = 2.0, 0.05, 0.1


@dataclass
class _Search:
    """The arrays the kernel works on, built once per problem."""

    model: lines.LineModel
    members: np.ndarray = field(init=False)
    lengths: np.ndarray = field(init=False)
    through: np.ndarray = field(init=False)
    fixed_white: int = field(init=False)

    def __post_init__(self) -> None:
        all_lines = self.model.lines
        longest = max((len(line) for line in all_lines), default=1)
        self.members = np.zeros((len(all_lines), longest), dtype=np.int32)
        for i, line in enumerate(all_lines):
            self.members[i, : len(line)] = line
        self.lengths = np.array([len(line) for line in all_lines], dtype=np.int32)
        self.through = np.array([len(t) for t in self.model.square_lines], dtype=np.int32)
        problem = self.model.problem
        white = problem.armies[0]
        self.fixed_white = white.minimum if white.fixed and not problem.equal_armies else -1

    def run(self, seed: int) -> Placement:
        """One annealing run from a random colouring; its best placement."""
        from chessplace.engines.heuristic.anneal import anneal

        steps = STEPS_PER_LINE * max(1, len(self.lengths))
        colours = np.random.default_rng(seed).integers(0, 2, len(self.lengths)).astype(np.uint8)
        best = colours.copy()
        anneal(
            self.members,
            self.lengths,
            self.through,
            colours,
            best,
            steps,
            _HOT,
            _COLD,
            seed,
            self.fixed_white,
            _BALANCE,
        )
        return self.model.filled([bool(c) for c in best])


def search(
    problem: Problem, control: Control, target: int | None = None, runs: int | None = None
) -> Placement | None:
    """The best valid placement found by annealing runs on every core.

    Stops at the time limit or a stop request, after ``runs`` runs, or once
    a placement reaches ``target`` and satisfies the armies' counts.
    """
    model = lines.LineModel(problem)
    if not model.lines:
        return None
    engine = _Search(model)
    workers = control.cores()
    best: Placement | None = None
    seeds = count()
    with ThreadPoolExecutor(workers) as pool:
        while not control.stopped and (runs is None or runs > 0):
            batch = workers if runs is None else min(workers, runs)
            runs = None if runs is None else runs - batch
            for placement in pool.map(engine.run, [next(seeds) for _ in range(batch)]):
                if not _admissible(placement):
                    continue
                if best is None or placement.objective > best.objective:
                    best = placement
                    control.report(objective=best.objective, placement=best)
            if best is not None and target is not None and best.objective >= target:
                break
    return best


def _admissible(placement: Placement) -> bool:
    return all(
        army.admits(size)
        for army, size in zip(placement.problem.armies, placement.army_sizes, strict=True)
    )


class HeuristicEngine(Engine):
    name = "heuristic"
    supports = frozenset({Feature.TORUS, Feature.CYLINDER})
    summary = "annealing over line colours (Numba): large peaceable armies fast, unproven"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE})
    max_squares = 10_000  # 100×100: one uninterruptible batch of runs takes a few seconds
    proves = False

    def refusal(self, problem: Problem, task: Task) -> str | None:
        return super().refusal(problem, task) or lines.refusal(problem)

    def solve(self, problem: Problem, control: Control) -> Result:
        control.ensure_limit(DEFAULT_SECONDS)  # an unreachable target is never reached
        target = problem.objective(tuple(army.minimum for army in problem.armies))
        found = search(problem, control, target=target)
        if found is None or found.objective < target:
            return Result(Status.UNKNOWN, self.name, note="local search cannot prove infeasibility")
        return Result(Status.FEASIBLE, self.name, found, objective=found.objective)

    def optimize(self, problem: Problem, control: Control) -> Result:
        control.ensure_limit(DEFAULT_SECONDS)
        free = problem.without_counts()
        found = search(free, control)
        bound = lines.upper_bound(free)
        if found is None:
            return Result(Status.UNKNOWN, self.name, bound=bound)
        return Result(Status.FEASIBLE, self.name, found, objective=found.objective, bound=bound)
