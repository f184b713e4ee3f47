"""The ordered list of engines, and how one is chosen for a problem and task: the
first preferred engine that is installed, that no rule passes over and that does
not refuse the problem."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chessplace.core.problem import Problem
from chessplace.encodings.boolean import counts_follow
from chessplace.engines.base import Engine, Task
from chessplace.engines.catalog import SINGLE_ENGINES
from chessplace.engines.portfolio import PortfolioEngine

ENGINES: dict[str, Engine] = {**SINGLE_ENGINES, "portfolio": PortfolioEngine()}

# Preference per task, best first; the first engine that is installed, is not
# passed over (passed_over) and accepts the problem runs. The constructions answer
# at once; the line engine, where it applies, beats every other engine by far
# (benchmarks/proving.py), and racing beside it would only take cores from it; the
# portfolio races the proving engines on every other problem that two of them
# accept, but where sat alone is faster; the single engines after it answer the
# rest. The GPU counts first where it has a GPU and the board is large enough to pay
# (benchmarks/gpu.py).
PREFERENCE: dict[Task, tuple[str, ...]] = {
    Task.SOLVE: ("construction", "lines", "portfolio", "sat", "cpsat", "exhaustive"),
    Task.OPTIMIZE: ("construction", "lines", "portfolio", "sat", "cpsat", "exhaustive"),
    Task.COUNT: ("gpu", "bitboard", "lines", "sat", "cpsat", "exhaustive"),
    Task.LIST: ("bitboard", "cpsat"),
}
# Region puzzles (Queens game, Star Battle) have their own order: the compiled region
# search first (benchmarks/regions.py), then the model engines that know regions.
# Their counts are fixed by the grid, so there is nothing to optimize.
REGION_PREFERENCE: dict[Task, tuple[str, ...]] = {
    Task.SOLVE: ("regions", "cpsat", "sat", "exhaustive"),
    Task.OPTIMIZE: (),
    Task.COUNT: ("regions", "cpsat", "exhaustive"),
    Task.LIST: ("regions", "cpsat"),
}


def _left_to_sat(problem: Problem, task: Task) -> str | None:
    """Blocked n-queens and n-queens completion: sat alone races CaDiCaL and Kissat on
    every core, measured faster than sharing them with CP-SAT in the portfolio
    (benchmarks/csplib.py)."""
    if (
        task is Task.SOLVE
        and problem.has_position
        and ENGINES["sat"].refusal(problem, task) is None  # by size first: cheap
        and counts_follow(problem)  # a pass over every square
    ):
        return "sat answers problems whose counts follow from their lines"
    return None


PASSED_OVER: dict[str, Callable[[Problem, Task], str | None]] = {"portfolio": _left_to_sat}
"""The registry's own rules for passing over a preferred engine unasked, by engine."""


def passed_over(engine: Engine, problem: Problem, task: Task) -> str | None:
    """Why ``engine`` is not chosen for ``problem`` unless named: a rule of
    :data:`PASSED_OVER`, or the engine's own :meth:`~chessplace.engines.base.Engine.declines`
    (the hardware it needs is missing, the board too small to pay); ``None`` if it may
    be. The registry passes over it without a word, so runs elsewhere read as before."""
    rule = PASSED_OVER.get(engine.name)
    return (rule(problem, task) if rule is not None else None) or engine.declines(problem, task)


EXTRA_OF_PACKAGE: dict[str, str] = {"numba": "count", "ortools": "cpsat", "python-sat": "sat"}
"""The extra of pyproject.toml that installs each package an engine needs."""
EXTRA_OF_ENGINE: dict[str, str] = {"gpu": "gpu"}
"""Engines that need more than their package: the GPU counter needs numba-cuda too."""


def install_extra(engine: Engine) -> str | None:
    """The extra of pyproject.toml that installs what ``engine`` needs; ``None`` for an
    engine that needs nothing beyond chessplace itself."""
    if engine.name in EXTRA_OF_ENGINE:
        return EXTRA_OF_ENGINE[engine.name]
    return None if engine.package is None else EXTRA_OF_PACKAGE.get(engine.package)


def install_hint(engine: Engine) -> str:
    """What to install for ``engine``: the pip command naming its extra."""
    extra = install_extra(engine)
    return "pip install 'chessplace'" if extra is None else f"pip install 'chessplace[{extra}]'"


class NoSolver(ValueError):
    """No engine can run the task; the message names the choices."""


@dataclass(frozen=True)
class EngineInfo:
    name: str
    summary: str
    installed: bool
    version: str | None
    tasks: tuple[str, ...]


def engines() -> list[EngineInfo]:
    """Every engine with whether it is installed and its version."""
    return [
        EngineInfo(
            e.name,
            e.describe() if e.available() else e.summary,
            e.available(),
            e.version(),
            tuple(t.value for t in Task if t in e.tasks),
        )
        for e in ENGINES.values()
    ]


@dataclass(frozen=True)
class Choice:
    """The engine that runs, and why each preferred engine before it did not."""

    engine: Engine
    passed_over: tuple[str, ...] = ()


def choose(problem: Problem, task: Task, name: str | None = None, **options: Any) -> Choice:
    """The engine to run: ``name`` if given and able; else the engine that takes
    ``options`` (``encoding`` → sat, ``workers`` → bitboard); else the first
    preferred one that is installed and accepts the problem."""
    too_large = problem.refusal()
    if too_large:
        raise NoSolver(f"no solver can {task.value} this problem: {too_large}")
    implied = name is None and bool(options)
    if implied:
        name = _owner_of(problem, options, task)
    if name is not None:
        engine = _named(name, options, task)
        if not engine.available():
            raise NoSolver(f"solver {name!r} is not installed: {install_hint(engine)}")
        reason = engine.refusal(problem, task)
        if reason and implied:
            given = ", ".join(sorted(options))
            raise NoSolver(
                f"option {given} belongs to solver {name!r}, which cannot "
                f"{task.value} this problem: {reason}"
            )
        if reason:
            raise NoSolver(f"solver {name!r} cannot {task.value} this problem: {reason}")
        return Choice(engine)
    reasons: list[str] = []
    order = PREFERENCE if problem.regions is None else REGION_PREFERENCE
    for candidate in order[task]:
        engine = ENGINES[candidate]
        if engine.available() and passed_over(engine, problem, task):
            continue  # not chosen unasked here (no hardware, or it would not pay): unsaid
        reason = "not installed" if not engine.available() else engine.refusal(problem, task)
        if reason is None:
            return Choice(engine, tuple(reasons))
        reasons.append(f"{candidate}: {reason}")
    why = f" ({'; '.join(reasons)})" if reasons else ""
    raise NoSolver(f"no solver can {task.value} this problem{why}")


def _options_of(engine: Engine) -> set[str]:
    """The keyword options an engine's constructor takes."""
    return set(inspect.signature(type(engine)).parameters)


def _owner_of(problem: Problem, options: dict[str, Any], task: Task) -> str:
    """The one engine for ``task`` whose constructor takes every option given; where
    several do, the one of those that accepts ``problem``."""
    owners = [
        name
        for name, engine in ENGINES.items()
        if task in engine.tasks and set(options) <= _options_of(engine)
    ]
    if len(owners) > 1:
        refusals = {name: _named(name, options, task).refusal(problem, task) for name in owners}
        able = [name for name, reason in refusals.items() if reason is None]
        if not able:
            why = "; ".join(f"{name}: {reason}" for name, reason in refusals.items())
            raise NoSolver(
                f"no solver that takes {', '.join(options)} can {task.value} this problem ({why})"
            )
        preferred = [
            name
            for name in PREFERENCE[task]
            if name in able and not passed_over(ENGINES[name], problem, task)
        ]
        owners = preferred[:1] or able
    if len(owners) != 1:
        raise NoSolver(f"engine options ({', '.join(options)}) need a named solver")
    return owners[0]


def _named(name: str, options: dict[str, Any], task: Task) -> Engine:
    """The registered engine, or a new one of its kind built with ``options`` (one it
    does not take is refused, naming the engines for ``task`` that take it)."""
    if name not in ENGINES:
        raise NoSolver(f"unknown solver {name!r}; choose from {', '.join(ENGINES)}")
    if not options:
        return ENGINES[name]
    unknown = set(options) - _options_of(ENGINES[name])
    if unknown:
        takers = [
            other
            for other, engine in ENGINES.items()
            if task in engine.tasks and unknown <= _options_of(engine)
        ]
        hint = f" ({', '.join(takers)} {'does' if len(takers) == 1 else 'do'})" if takers else ""
        raise NoSolver(f"solver {name!r} takes no option {', '.join(sorted(unknown))}{hint}")
    return type(ENGINES[name])(**options)
