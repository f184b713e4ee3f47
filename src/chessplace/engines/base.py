"""The interface every engine implements."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from collections.abc import Iterator
from enum import StrEnum
from typing import ClassVar

from chessplace.core.features import Feature, refusal
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result
from chessplace.runtime.control import Control


class Task(StrEnum):
    SOLVE = "solve"
    OPTIMIZE = "optimize"
    COUNT = "count"
    LIST = "list"


class Unsupported(Exception):
    """An engine cannot take this problem or task; the message says why."""


class Engine:
    """One solving engine.

    Subclasses set ``name``, ``summary`` and ``package`` (the distribution
    whose presence makes the engine available; ``None`` for pure Python),
    ``proves`` (below) when they never prove, and implement the tasks they
    support. ``refusal`` says why a problem is out of reach before any work
    starts, among other reasons when the board has more than ``max_squares``
    squares (engines that build variables or tables per square set it;
    ``None``: no limit).
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    package: ClassVar[str | None] = None
    module: ClassVar[str | None] = None
    tasks: ClassVar[frozenset[Task]]
    max_squares: ClassVar[int | None] = None
    proves: ClassVar[bool] = True
    """False for a local search: its answers are valid but never proven optimal or
    impossible, and it searches until its time limit."""
    supports: ClassVar[frozenset[Feature]] = frozenset()
    """The features of a problem (:meth:`Problem.features`) the engine models; it
    refuses a problem with any other, in the words of :data:`chessplace.core.features.REFUSALS`."""

    count_rate: ClassVar[float | None] = None
    """About how many placements a second the engine's count meets on the 2-core machine
    these notes were measured on, for refusing counts that cannot end (``None``: no
    figure, never refused)."""

    def available(self) -> bool:
        return self.module is None or importlib.util.find_spec(self.module) is not None

    def version(self) -> str | None:
        if self.package is None:
            return None
        try:
            return importlib.metadata.version(self.package)
        except importlib.metadata.PackageNotFoundError:
            return None

    def refusal(self, problem: Problem, task: Task) -> str | None:
        """Why this engine will not take ``problem`` for ``task``; ``None`` if it will."""
        if task not in self.tasks:
            return f"{self.name} does not {task.value}"
        missing = refusal(self.name, problem.features() - self.supports)
        if missing:
            return missing
        squares = problem.board.size
        if self.max_squares is not None and squares > self.max_squares:
            return (
                f"{self.name} builds a model per square: at most {self.max_squares:,} squares, "
                f"the board has {squares:,}"
            )
        return None

    def declines(self, problem: Problem, task: Task) -> str | None:
        """Why this engine is not chosen for ``problem`` unless named (it would not
        pay, or the hardware it needs is missing), ``None`` if it may be; the
        registry passes over it without a word, so runs elsewhere read as before."""
        return None

    def describe(self) -> str:
        """The summary, with what the engine found on this machine where that matters."""
        return self.summary

    def solve(self, problem: Problem, control: Control) -> Result:
        raise Unsupported(f"{self.name} does not solve")

    def optimize(self, problem: Problem, control: Control) -> Result:
        raise Unsupported(f"{self.name} does not optimize")

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        raise Unsupported(f"{self.name} does not count")

    def solutions(self, problem: Problem, control: Control) -> Iterator[Placement]:
        raise Unsupported(f"{self.name} does not list solutions")
