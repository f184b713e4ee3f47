"""A portfolio: the strongest engines that take a problem race side by side.

Engines differ by orders of magnitude from one problem to the next (CP-SAT
proves bishops on a 7×9 board at once where SAT climbs for seconds, SAT
proves queen domination where CP-SAT's bound never moves), so ``solve`` and
``optimize`` run the proving engines that accept the problem each in its own
thread, each with its own :class:`Control` and a share of the cores. Their
reports feed one shared best placement and one shared proven bound; the race
ends at the first proof: a member's own (optimal, infeasible, or for ``solve``
any placement), or the best placement of one member meeting the bound another
proved. The parent control's stop and time limit stop every member.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

from chessplace.core.features import Feature
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem, Sense
from chessplace.core.result import Result, Status
from chessplace.engines.base import Engine, Task
from chessplace.engines.catalog import SINGLE_ENGINES
from chessplace.runtime.control import Control, Progress

MEMBERS = ("construction", "lines", "sat", "cpsat", "heuristic")
"""Candidates, strongest first; the proving ones run while there is a core each
(at least two of them), an engine that never proves only on a spare core. (A
construction that takes a problem answers at once; the registry prefers it to
the portfolio, so it races only when the portfolio is named.)"""


class _MemberControl(Control):
    """A member's control: its time limit is what its parent had left, every report
    goes on to the race, and the race's best placement is its incumbent."""

    def __init__(self, race: _Race, workers: int, forward: Callable[[Progress], None]):
        remaining = race.parent.remaining()
        super().__init__(None if remaining is None else max(remaining, 1e-3))
        self.workers = workers
        self._race = race
        self._forward = forward

    def incumbent(self) -> Placement | None:
        return self._race.best

    def report(self, placement: object = None, **fields: object) -> None:
        super().report(placement, **fields)
        self._forward(Progress(self.elapsed(), **fields))  # type: ignore[arg-type]


@dataclass
class _Member:
    engine: Engine
    control: Control
    result: Result | None = None
    error: BaseException | None = None


class _Race:
    """The shared best placement and proven bound, and the answer once one is proven."""

    def __init__(self, problem: Problem, task: Task, parent: Control) -> None:
        self.problem = problem
        self.task = task
        self.parent = parent
        self.members: dict[str, _Member] = {}
        self.lock = threading.Lock()
        self.best: Placement | None = None
        self.best_by = ""
        self.bound: int | None = None
        self.bound_by = ""
        self.answer: Result | None = None
        self.sign = 1 if problem.sense is Sense.MAXIMIZE else -1

    def offer(self, name: str, placement: Placement | None, bound: int | None, note: str) -> None:
        """Take a member's best placement and proven bound (optimize only); the race
        is won when the best placement meets the best bound."""
        with self.lock:
            if self.task is Task.OPTIMIZE and placement is not None and self._improves(placement):
                self.best, self.best_by = placement, name
            if self.task is Task.OPTIMIZE and bound is not None and self._tightens(bound):
                self.bound, self.bound_by = bound, name
            won = self.answer is None and self._met()
            if won:
                self.answer = self._shared(Status.OPTIMAL)
            best = None if self.best is None else self.best.objective
            self.parent.report(self.best, objective=best, bound=self.bound, message=note)
        if won:
            self.stop()

    def _improves(self, placement: Placement) -> bool:
        return (
            self.best is None or self.sign * placement.objective > self.sign * self.best.objective
        )

    def _tightens(self, bound: int) -> bool:
        return self.bound is None or self.sign * bound < self.sign * self.bound

    def _met(self) -> bool:
        return (
            self.best is not None
            and self.bound is not None
            and self.sign * self.best.objective >= self.sign * self.bound
        )

    def finished(self, name: str, result: Result) -> None:
        """A member returned: its answer if it is a proof, else its best and bound."""
        if self.task is Task.OPTIMIZE:
            decisive = result.status in (Status.OPTIMAL, Status.INFEASIBLE)
        else:
            decisive = result.status in (Status.FEASIBLE, Status.INFEASIBLE)
        if decisive and (self.members[name].engine.proves or result.status is Status.FEASIBLE):
            with self.lock:
                won = self.answer is None
                if won:
                    self.answer = replace(result, solver=f"portfolio({name})")
            if won:
                self.stop()
            return
        if self.answer is not None:
            return  # stopped because another member won: nothing to add
        self.offer(name, result.placement, result.bound, f"{name} returned {result.status}")

    def _shared(self, status: Status) -> Result:
        """The shared best and bound as an answer (a proof when they meet)."""
        placement = self.best
        note = f"best by {self.best_by}"
        if self.bound is not None:
            note += f", bound {self.bound} proven by {self.bound_by}"
        return Result(
            status,
            f"portfolio({self.best_by or 'none'})",
            placement,
            objective=None if placement is None else placement.objective,
            bound=self.bound,
            note=note,
        )

    def outcome(self) -> Result:
        """The answer once every member has returned."""
        if self.answer is not None:
            return self.answer
        if self.task is Task.OPTIMIZE and self.best is not None:
            return self._shared(Status.FEASIBLE)
        return Result(Status.UNKNOWN, "portfolio", bound=self.bound, note="no member proved")

    def stop(self) -> None:
        for member in self.members.values():
            member.control.stop()


class PortfolioEngine(Engine):
    name = "portfolio"
    supports = frozenset(
        {
            Feature.TORUS,
            Feature.CYLINDER,
            Feature.POSITION,
            Feature.DOMINATED,
            Feature.COUNTS,
            Feature.ONE_WAY,
            Feature.COVER_COUNT,
        }
    )
    summary = "the strongest engines that take a problem, side by side; the first proof wins"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE})

    def __init__(self, members: tuple[str, ...] = MEMBERS) -> None:
        """``members``: the registered engines to draw from, strongest first."""
        self.candidates = members

    def members(self, problem: Problem, task: Task, cores: int) -> list[Engine]:
        """The engines that race on ``problem``: the accepting provers, one per core
        but at least two, then non-provers while cores are left."""
        able = [
            SINGLE_ENGINES[name]
            for name in self.candidates
            if SINGLE_ENGINES[name].available()
            and SINGLE_ENGINES[name].refusal(problem, task) is None
        ]
        provers = [engine for engine in able if engine.proves][: max(2, cores)]
        others = [engine for engine in able if not engine.proves]
        return provers + others[: max(0, cores - len(provers))]

    def refusal(self, problem: Problem, task: Task) -> str | None:
        reason = super().refusal(problem, task)
        if reason:
            return reason
        if sum(engine.proves for engine in self.members(problem, task, 2)) < 2:
            return "fewer than two proving engines take this problem"
        return None

    def solve(self, problem: Problem, control: Control) -> Result:
        return self._race(problem, Task.SOLVE, control)

    def optimize(self, problem: Problem, control: Control) -> Result:
        return self._race(problem, Task.OPTIMIZE, control)

    def _race(self, problem: Problem, task: Task, control: Control) -> Result:
        engines = self.members(problem, task, control.cores())
        share = max(1, control.cores() // len(engines))
        race = _Race(problem, task, control)
        for engine in engines:

            def forward(progress: Progress, name: str = engine.name) -> None:
                note = f"{name}: {progress.message}" if progress.message else ""
                best = race.members[name].control.best
                placement = best if isinstance(best, Placement) else None
                race.offer(name, placement, progress.bound, note)

            race.members[engine.name] = _Member(engine, _MemberControl(race, share, forward))
        threads = [
            threading.Thread(
                target=self._run,
                args=(race, member, problem, task),
                name=f"portfolio-{name}",
                daemon=True,  # a member that ignores a stop cannot hold the process at exit
            )
            for name, member in race.members.items()
        ]
        with control.interrupting(race.stop):
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        errors = [m.error for m in race.members.values() if m.error is not None]
        if errors:
            raise errors[0]
        return race.outcome()

    @staticmethod
    def _run(race: _Race, member: _Member, problem: Problem, task: Task) -> None:
        engine, control = member.engine, member.control
        try:
            call = engine.solve if task is Task.SOLVE else engine.optimize
            member.result = call(problem, control)
        except BaseException as error:  # raised by the portfolio once all have stopped
            member.error = error
            race.stop()
            return
        race.finished(engine.name, member.result)
