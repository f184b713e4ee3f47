"""The library's entry points: solve, optimize and count a problem."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from chessplace.control import Control
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.result import Result, Status
from chessplace.solvers.base import Engine, Task
from chessplace.solvers.registry import choose


class InvalidAnswer(RuntimeError):
    """A solver returned a placement that breaks the rules: a bug in that solver."""


def solve(
    problem: Problem,
    *,
    solver: str | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    **options: Any,
) -> Result:
    """One placement that satisfies the problem's counts and rules."""
    return _run(
        problem,
        Task.SOLVE,
        solver,
        control or Control(time_limit),
        options,
        lambda engine, ctl: engine.solve(problem, ctl),
    )


def optimize(
    problem: Problem,
    *,
    solver: str | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    **options: Any,
) -> Result:
    """The best placement in the problem's sense, proven when ``status`` is optimal."""
    return _run(
        problem,
        Task.OPTIMIZE,
        solver,
        control or Control(time_limit),
        options,
        lambda engine, ctl: engine.optimize(problem, ctl),
    )


def count(
    problem: Problem,
    *,
    unique: bool = False,
    optimal: bool = False,
    solver: str | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    **options: Any,
) -> Result:
    """How many placements satisfy the problem, and with ``unique`` how many up to symmetry.

    With ``optimal`` the counts are ignored: the optimum is proven first
    (by the preferred optimiser) and the placements that reach it are counted.
    """
    control = control or Control(time_limit)
    started = time.perf_counter()
    if optimal:
        _check_countable_at_optimum(problem)  # before any work
        best = optimize(problem, control=control)
        if best.status is not Status.OPTIMAL or best.objective is None:
            return Result(
                Status.UNKNOWN,
                best.solver,
                objective=best.objective,
                bound=best.bound,
                seconds=time.perf_counter() - started,
                note="stopped before the optimum was proven",
            )
        problem = _at_optimum(problem, best.objective)
    result = _run(
        problem,
        Task.COUNT,
        solver,
        control,
        options,
        lambda engine, ctl: engine.count(problem, ctl, unique),
    )
    if not optimal:
        return result
    return replace(result, objective=best.objective).timed(time.perf_counter() - started)


def _at_optimum(problem: Problem, objective: int) -> Problem:
    """The placements whose objective is ``objective``: every scored army fixed to it."""
    return problem.without_counts().with_counts(exactly=objective)


def _check_countable_at_optimum(problem: Problem) -> None:
    """Counting at the optimum fixes one size: equal armies, or one scored army."""
    if not problem.equal_armies and len(problem.scored_armies) > 1:
        raise ValueError("--optimal counts problems whose objective is one army's size")


def solutions(
    problem: Problem,
    *,
    solver: str | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    unique: bool = False,
    **options: Any,
) -> Iterator[Placement]:
    """Every placement (one per symmetry class with ``unique``), streamed without
    holding them all in memory."""
    engine = choose(problem, Task.LIST, solver, **options)
    stream = engine.solutions(problem, control or Control(time_limit))
    return (p for p in stream if p.is_canonical()) if unique else stream


def _run(
    problem: Problem,
    task: Task,
    solver: str | None,
    control: Control,
    options: dict[str, Any],
    call: Callable[[Engine, Control], Result],
) -> Result:
    engine = choose(problem, task, solver, **options)
    started = time.perf_counter()
    result = call(engine, control)
    seconds = time.perf_counter() - started
    if result.placement is not None:
        violations = result.placement.verify()
        if violations:
            raise InvalidAnswer(f"{engine.name} returned an invalid placement: {violations[0]}")
    return result.timed(seconds)
