"""The only door to the engines: solve, optimize, count and list a problem.

Every face (the command line, the web app, a Python caller) comes through
here, so they cannot disagree: this module holds the rules of each task,
picks the engine (naming the engines it passed over and why), and checks
every answer, streamed ones included, with the independent checker.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Collection, Generator, Iterable, Iterator
from dataclasses import replace
from itertools import islice
from typing import Any

from chessplace.core.board import Square
from chessplace.core.errors import BadRequest
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.regions import Sketch
from chessplace.core.result import Result, Status
from chessplace.engines.base import Engine, Task
from chessplace.engines.registry import EngineInfo, NoSolver, choose
from chessplace.engines.registry import engines as _engines
from chessplace.engines.support.why import LARGEST, Conflict, minimal_conflict
from chessplace.regions.deduction import explain_from
from chessplace.runtime import compiling
from chessplace.runtime.control import Control

GRADED_SIDE = 30
"""The largest region grid ``solve`` grades: the rules take 0.2 s on 30×30 stripes
and 3 s on 62×62 (their confined rule tries combinations of units)."""
GRADING_SECONDS = 5.0
"""The longest ``solve`` spends grading its answer (a grid that needs guessing has
every square tried by the ``short chain`` rule); past it the answer has no grade."""


class InvalidAnswer(RuntimeError):
    """A solver returned a placement that breaks the rules: a bug in that solver."""


__all__ = [
    "BadRequest",
    "Conflict",
    "InvalidAnswer",
    "NoSolver",
    "count",
    "engines",
    "optimize",
    "run",
    "solutions",
    "solve",
    "why_not",
]


def engines() -> list[EngineInfo]:
    """Every engine, installed or not, with its version and tasks."""
    return _engines()


def run(
    task: str,
    problem: Problem,
    *,
    unique: bool = False,
    optimal: bool = False,
    limit: int | None = None,
    **options: Any,
) -> Result:
    """``solve``, ``optimize`` or ``count`` by name: the faces' one call; ``unique``,
    ``optimal`` and ``limit`` belong to counts."""
    if task == Task.SOLVE:
        return solve(problem, **options)
    if task == Task.OPTIMIZE:
        return optimize(problem, **options)
    if task == Task.COUNT:
        return count(problem, unique=unique, optimal=optimal, limit=limit, **options)
    raise BadRequest(f"no task {task!r}: solve, optimize or count")


def solve(
    problem: Problem,
    *,
    solver: str | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    **options: Any,
) -> Result:
    """One placement that satisfies the problem's counts and rules; a region puzzle's
    answer (up to :data:`GRADED_SIDE` a side) carries its difficulty by the human rules
    (:func:`chessplace.faces.explain.explain`)."""
    _require_count(problem, "solve", "or optimize")
    control = control or Control(time_limit)
    result = _run(problem, Task.SOLVE, solver, control, options)
    regions = problem.regions
    if regions is None or result.placement is None or regions.size > GRADED_SIDE:
        return result
    deadline = time.perf_counter() + GRADING_SECONDS
    found = explain_from(regions, stop=lambda: control.stopped or time.perf_counter() > deadline)
    if found.stopped:  # the grade is unknown: the answer goes without it
        return result
    return replace(result, difficulty=(found.grade, len(found.steps)))


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
    )


def count(
    problem: Problem,
    *,
    unique: bool = False,
    optimal: bool = False,
    limit: int | None = None,
    solver: str | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    **options: Any,
) -> Result:
    """How many placements satisfy the problem, and with ``unique`` how many up to symmetry.

    With ``optimal`` the problem must set no count: the optimum is proven
    first (by the preferred optimiser) and the placements that reach it are
    counted. With ``limit`` counting stops at that many placements (``limit=2``
    tells a unique solution from several); the status is then ``feasible``.
    """
    control = control or Control(time_limit)
    started = time.perf_counter()
    if limit is not None:
        if unique or optimal:
            raise BadRequest("a count with a limit counts placements: no unique, no optimal")
        if not 1 <= limit <= sys.maxsize:
            raise BadRequest(f"the limit of a count is from 1 to {sys.maxsize:,}, not {limit}")
        return _count_to(problem, limit, solver, control, options)
    if not optimal:
        _require_count(problem, "count", "or count the optimal ones")
        return _run(
            problem,
            Task.COUNT,
            solver,
            control,
            options,
            unique,
        )
    _check_countable_at_optimum(problem)  # before any work
    best = optimize(problem, control=control)
    if best.status is not Status.OPTIMAL or best.objective is None:
        return Result(
            Status.UNKNOWN,
            best.solver,
            objective=best.objective,
            bound=best.bound,
            note="stopped before the optimum was proven",
        ).timed(*_seconds_since(started))
    at_optimum = problem.without_counts().with_counts(exactly=best.objective)
    result = _run(
        at_optimum,
        Task.COUNT,
        solver,
        control,
        options,
        unique,
    )
    return replace(result, objective=best.objective).timed(*_seconds_since(started))


def solutions(
    problem: Problem,
    *,
    unique: bool = False,
    solver: str | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    **options: Any,
) -> Generator[Placement, None, None]:
    """Every placement (with ``unique`` one per symmetry class), streamed without
    holding them in memory; each is checked before it is handed out. Closing the
    stream ends the engine's work."""
    _require_count(problem, "list", "")
    if options.get("checkpoint") is not None:
        raise BadRequest("a listing is not checkpointed: it streams from the start every run")
    engine = choose(problem, Task.LIST, solver, **options).engine
    if control is not None:
        control.engine = engine.name
    stream = engine.solutions(problem, control or Control(time_limit))
    return _checked_stream(engine, stream, unique)


def _count_to(
    problem: Problem, limit: int, solver: str | None, control: Control, options: dict[str, Any]
) -> Result:
    """Count the streamed placements, stopping at ``limit``."""
    started = time.perf_counter()
    try:
        stream = solutions(problem, solver=solver, control=control, **options)
    except NoSolver as error:
        raise BadRequest(f"a count with a limit lists placements one by one: {error}") from None
    first: Placement | None = None
    counted = 0
    for placement in islice(stream, limit):  # only the first is kept: a limit can be huge
        if first is None:
            first = placement
        counted += 1
    if counted == limit:
        status, note = Status.FEASIBLE, f"stopped at the limit: at least {limit:,}"
    elif control.stopped:
        found = f"at least {counted:,}" if counted else "none found yet"
        status, note = Status.PARTIAL, f"stopped before the end: {found}"
    else:
        status, note = Status.COMPLETE, ""
    return Result(
        status,
        control.engine,
        first,
        count=counted,
        note=note,
    ).timed(*_seconds_since(started))


def region_square_used(sketch: Sketch, square: Square, budgets: int) -> bool | None:
    """The region search's quick question, for grid makers: whether some placement of
    the sketch's pieces per line and region, pieces only on its allowed squares, holds
    one on ``square`` (``None`` when ``budgets`` search budgets did not tell; see
    :func:`chessplace.engines.regions.engine.used`)."""
    from chessplace.engines.regions.engine import used

    return used(sketch, square, budgets)


def another_region_solution(
    sketch: Sketch, solution: Collection[Square], budgets: int
) -> list[Square] | None:
    """A solution of the sketch other than ``solution``, for grid makers; ``[]`` when
    it is the only one, ``None`` when ``budgets`` search budgets did not tell. The grid
    a maker finishes is counted again through :func:`count`, whose answers are
    verified."""
    from chessplace.engines.regions.engine import another_solution

    return another_solution(sketch, solution, budgets)


def why_not(problem: Problem, control: Control | None = None) -> Conflict | None:
    """A minimal set of the problem's given pieces and blocked squares that cannot be
    completed (:mod:`chessplace.engines.support.why`); ``None`` when the problem has an answer."""
    if not problem.has_target:
        raise BadRequest("why names what stops a placement of a set size: give a count")
    if problem.regions is not None:
        raise BadRequest("why takes puzzles with given pieces or blocked squares, not grids")
    if problem.board.size > LARGEST:
        raise BadRequest(f"why models at most {LARGEST:,} squares")
    control = control or Control()
    return minimal_conflict(problem, lambda: control.stopped)


def region_holding(problem: Problem, squares: Iterable[Square], control: Control) -> bool | None:
    """The region search's question, for explanations: whether some solution of the grid
    of ``problem`` holds a piece on each of ``squares``; ``None`` when the search is not
    installed or ``control`` stopped it first."""
    if importlib.util.find_spec("numba") is None:
        return None
    from chessplace.engines.regions.engine import holding

    return holding(problem, squares, control)


def _checked_stream(
    engine: Engine, stream: Iterator[Placement], unique: bool
) -> Generator[Placement, None, None]:
    """``stream`` verified (and filtered to one per class with ``unique``); closing it
    closes the engine's stream, whose search then ends."""
    try:
        for placement in stream:
            if unique and not placement.is_canonical():
                continue
            _verified(engine, placement)
            yield placement
    finally:
        if isinstance(stream, Generator):
            stream.close()


def _require_count(problem: Problem, task: str, otherwise: str) -> None:
    """Solving, counting and listing need a count to aim at (domination needs none)."""
    if not problem.has_target and not problem.dominating:
        also = f" {otherwise}" if otherwise else ""
        raise BadRequest(
            f"{problem.puzzle} sets no count to {task}: give at least M or exactly M (M > 0){also}"
        )


def _check_countable_at_optimum(problem: Problem) -> None:
    """Counting at the optimum fixes one size: no counts given, and equal armies or
    one scored army."""
    if problem.has_target:
        raise BadRequest(
            f"optimal counts the placements of the best size, and this {problem.puzzle} "
            "problem has a size already: count it without optimal"
        )
    if not problem.equal_armies and len(problem.scored_armies) > 1:
        raise BadRequest("optimal counts problems whose objective is one army's size")


def _run(
    problem: Problem,
    task: Task,
    solver: str | None,
    control: Control,
    options: dict[str, Any],
    unique: bool = False,
) -> Result:
    control.answered = False
    choice = choose(problem, task, solver, **options)
    engine = choice.engine
    if task is Task.COUNT and control.time_limit is None and not options.get("checkpoint"):
        _refuse_hopeless(problem, engine)
    control.engine = engine.name
    started = time.perf_counter()
    if task is Task.SOLVE:
        result = engine.solve(problem, control)
    elif task is Task.OPTIMIZE:
        result = engine.optimize(problem, control)
    else:
        result = engine.count(problem, control, unique)
    seconds = _seconds_since(started)
    control.answered = True
    if result.placement is not None:
        _verified(engine, result.placement)
    return replace(result, passed_over=choice.passed_over).timed(*seconds)


def _seconds_since(started: float) -> tuple[float, float]:
    """The seconds of work since ``perf_counter()`` read ``started``, and apart from
    them the seconds spent compiling searches (once per machine) in between."""
    ended = time.perf_counter()
    compiled = compiling.seconds_between(started, ended)
    return max(0.0, ended - started - compiled), compiled


HOPELESS_SECONDS = 86_400.0
"""A count expected to take longer than this needs a time limit (or a checkpoint)."""


def _refuse_hopeless(problem: Problem, engine: Engine) -> None:
    """Refuse, before any work, a count that ``engine`` would take more than
    :data:`HOPELESS_SECONDS` over by its estimated number of placements."""
    from chessplace.engines.support.estimate import placements_estimate

    rate = engine.count_rate
    estimate = None if rate is None else placements_estimate(problem)
    if rate is None or estimate is None or estimate / rate <= HOPELESS_SECONDS:
        return
    also = " (or a checkpoint to count in parts)" if engine.name == "bitboard" else ""
    raise BadRequest(
        f"counting {problem.describe()} would take {engine.name} about "
        f"{_duration(estimate / rate)} (some {estimate:.1e} placements by a random-probe "
        f"estimate, at {rate:,.0f} a second); give a time limit for a lower bound{also}"
    )


def _duration(seconds: float) -> str:
    """A long time in words: hours, days or years."""
    if seconds < 2 * 86_400:
        return f"{seconds / 3600:,.0f} hours"
    years = seconds / (365.25 * 86_400)
    if years < 2:
        return f"{seconds / 86_400:,.0f} days"
    return f"{years:,.0f} years" if years < 1e6 else f"{years:.0e} years"


def _verified(engine: Engine, placement: Placement) -> None:
    violations = placement.verify()
    if violations:
        raise InvalidAnswer(f"{engine.name} returned an invalid placement: {violations[0]}")
