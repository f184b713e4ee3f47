"""SAT through PySAT: find, and optimise by proving m+1 impossible after m.

Each bound gets a fresh formula, as a hand-written SAT model would; the
cardinality encoding (by default the one measured best for each formula) and the SAT solver
(CaDiCaL 1.9.5 by default) are parameters.
"""

from __future__ import annotations

import importlib.util
import os
from collections import deque
from dataclasses import replace
from multiprocessing.connection import wait
from typing import Any

from chessplace.core.features import Feature
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem, Sense
from chessplace.core.result import Result, Status
from chessplace.encodings import lines
from chessplace.encodings.cnf import check_encoding
from chessplace.encodings.formulas import (
    DEFAULT_ENCODING,
    MAX_FILLED_SQUARES,
    MAX_SQUARES,
    Formula,
    formula_for,
    square_limit,
)
from chessplace.engines import domination
from chessplace.engines.base import Engine, Task
from chessplace.engines.support.classcount import count_classes
from chessplace.runtime.control import Control
from chessplace.runtime.lifeline import Child, start_child

BACKENDS = ("cadical195", "kissat404", "glucose42", "minisat22", "lingeling")
PORTFOLIO = ("cadical195", "kissat404")
POLL_SECONDS = 0.05
"""How long ``_run`` waits for a child's answer before it looks at the control again (an
answer ends the wait at once)."""
GUESS_RUNS = 4
"""Annealing runs whose best placement ``optimize`` climbs from (peaceable armies)."""
HERE_CONFLICTS = 10_000
"""Conflicts the first solver may spend in this process before child processes start:
more than any of CSPLib's 100 blocked 28-queens instances needs (CaDiCaL: at most
5,906, 17 ms of CPU each on average), so a small formula starts no process."""
HERE_SLICE = 1_000
"""Conflicts between two looks at the control while solving in this process."""
HERE_MAX_CLAUSES = 100_000
"""Larger formulas go straight to the race: their conflicts are slow, and loading them
twice would cost more than a process."""


def _solve_in_child(sender: Any, backend: str, clauses: list[list[int]]) -> None:
    """Child process: solve and send (satisfiable, model) back."""
    from pysat.solvers import Solver

    with Solver(name=backend, bootstrap_with=clauses) as solver:
        outcome = solver.solve()
        sender.send((outcome, solver.get_model() if outcome else None))


def _solve_here(
    backend: str, clauses: list[list[int]], control: Control
) -> tuple[bool | None, Any] | None:
    """Solve in this process for at most :data:`HERE_CONFLICTS` conflicts, looking at the
    control every :data:`HERE_SLICE`: (True, model), (False, None), (None, None) once
    stopped, or ``None`` when the budget is spent (or the solver takes no budget)."""
    from pysat.solvers import Solver

    with Solver(name=backend, bootstrap_with=clauses) as solver:
        for _ in range(HERE_CONFLICTS // HERE_SLICE):
            if control.stopped:
                return None, None
            try:
                solver.conf_budget(HERE_SLICE)
            except NotImplementedError:  # Lingeling in PySAT: no budgets
                return None
            outcome = solver.solve_limited()
            if outcome is not None:
                return outcome, solver.get_model() if outcome else None
    return None


class SatEngine(Engine):
    name = "sat"
    supports = frozenset(
        {
            Feature.TORUS,
            Feature.CYLINDER,
            Feature.REGIONS,
            Feature.POSITION,
            Feature.DOMINATED,
            Feature.COUNTS,
            Feature.ONE_WAY,
            Feature.COVER_COUNT,
        }
    )
    summary = "SAT via PySAT (CaDiCaL; cardinality encoding selectable): find, optimise"
    package = "python-sat"
    module = "pysat"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE, Task.COUNT})
    max_squares = MAX_FILLED_SQUARES  # MAX_SQUARES where a count needs a bound (refusal)

    def __init__(self, backend: str | None = None, encoding: str | None = None) -> None:
        """``backend`` picks one SAT solver; without it CaDiCaL runs, joined by Kissat
        as a portfolio (first answer wins) when there is more than one core. Without
        ``encoding`` each formula takes the cardinality encoding measured best for it."""
        if backend is not None and backend not in BACKENDS:
            raise ValueError(f"unknown SAT solver {backend!r}; choose from {', '.join(BACKENDS)}")
        if encoding is not None:
            check_encoding(encoding)
        if backend is not None:
            self.backends: tuple[str, ...] = (backend,)
        elif (os.cpu_count() or 1) > 1:
            self.backends = PORTFOLIO
        else:
            self.backends = PORTFOLIO[:1]
        self.encoding = encoding

    def _run(self, formula: Formula, control: Control) -> tuple[bool | None, Any]:
        """Solve the formula: (True, model), (False, None), or (None, None) if stopped.

        A formula first gets :data:`HERE_CONFLICTS` conflicts of the first solver in
        this process (:func:`_solve_here`), which answers most small formulas without
        a process. Beyond that every solve runs in child processes, one per core at a
        time: PySAT's CaDiCaL cannot be interrupted in-process, and a stop or the time
        limit then ends it at once. A formula that splits into cubes (the colours of
        its first lines; the squares of a line that holds one piece) is solved cube by
        cube, the first model wins and all cubes refuted refute it; otherwise the
        portfolio's solvers race on the whole formula and the first answer wins.
        """
        workers = control.cores()
        cubes = formula.cubes() if workers > 1 else [[]]
        if len(formula.clauses) <= HERE_MAX_CLAUSES:
            answer = _solve_here(self.backends[0], formula.clauses, control)
            if answer is not None:
                return answer
        if len(cubes) > 1:
            jobs = deque((self.backends[-1], cube) for cube in cubes)
        else:
            jobs = deque((backend, []) for backend in self.backends[:workers])
        deciding_refutation = len(cubes) == 1
        refuted = 0
        running: list[Child] = []
        try:
            while not control.stopped:
                while jobs and len(running) < max(workers, len(self.backends)):
                    backend, cube = jobs.popleft()
                    clauses = formula.clauses + [[lit] for lit in cube]
                    running.append(start_child(_solve_in_child, backend, clauses))
                ready = wait([child.receiver for child in running], timeout=POLL_SECONDS)
                for child in [child for child in running if child.receiver in ready]:
                    try:
                        outcome, model = child.receiver.recv()
                    except EOFError:  # it died without answering: killed from outside
                        return None, None
                    if outcome or deciding_refutation:
                        return outcome, model
                    running.remove(child)
                    child.end()
                    refuted += 1
                    control.report(message=f"{refuted}/{len(cubes)} cubes refuted")
                if not running and not jobs:
                    return False, None
            return None, None
        finally:
            for child in running:
                child.end()

    def refusal(self, problem: Problem, task: Task) -> str | None:
        if task is Task.COUNT and len(problem.armies) < 2:
            return "sat counts several armies (by symmetry class); cpsat enumerates single ones"
        reason = super().refusal(problem, task)
        ruled = problem.counts or problem.one_way or problem.cover_counted
        if reason is None and ruled and (task is Task.OPTIMIZE or problem.equal_armies):
            # sat's optimisation and equal armies trim answers, which a count or a
            # piece that blocks an attack may not survive: cpsat states them whole
            reason = (
                "sat takes count, attack and cover rules only to solve and count, "
                "without equal armies"
            )
        squares = problem.board.size
        if reason is None and task is not Task.SOLVE and squares > MAX_SQUARES:
            reason = f"sat {task.value}s boards of at most {MAX_SQUARES:,} squares"
        if reason is None and squares > square_limit(problem):
            reason = (
                f"sat bounds counts on boards of at most {MAX_SQUARES:,} squares, the board "
                f"has {squares:,} (one piece per rank and file, as n queens, goes to "
                f"{MAX_FILLED_SQUARES:,})"
            )
        return reason

    def solve(self, problem: Problem, control: Control) -> Result:
        formula = formula_for(problem, self.encoding, control)
        outcome, model = self._run(formula, control)
        if outcome is None:
            return Result(Status.UNKNOWN, self.name)
        if not outcome:
            return Result(Status.INFEASIBLE, self.name)
        return Result(Status.FEASIBLE, self.name, formula.decode(model))

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        """Enumerate one placement per symmetry class and add up the class sizes.

        Equal armies are counted one common size at a time, upwards until a
        size has no placement (removing pieces keeps a placement valid, so no
        larger size has one either); with no size that every army admits the
        count is a complete 0.
        """
        sizes = _common_sizes(problem) if problem.equal_armies else [problem]
        total = classes = 0
        complete = True
        for exact in sizes:
            found, kinds, complete = count_classes(
                exact, self.backends[0], self.encoding or DEFAULT_ENCODING, control, total
            )
            total, classes = total + found, classes + kinds
            if not complete or found == 0:
                break
        return Result(
            Status.COMPLETE if complete else Status.PARTIAL,
            self.name,
            count=total,
            unique=classes if unique else None,
        )

    def optimize(self, problem: Problem, control: Control) -> Result:
        free = problem.without_counts()
        maximize = problem.sense is Sense.MAXIMIZE
        best = _first_guess(free, control)
        floor = not maximize and not free.dominating  # a piece removed breaks no rule
        if floor:
            bound: int | None = free.objective(tuple(map(free.fewest, range(len(free.armies)))))
        elif not maximize:
            bound = domination.lower_bound(free)
        else:
            bound = lines.upper_bound(free)
        if best is not None:
            control.report(objective=best.objective, bound=bound, placement=best)
        while True:
            shared = control.incumbent()
            if isinstance(shared, Placement) and (best is None or _beats(shared, best, maximize)):
                best = shared  # found by an engine racing beside this one
            if floor and best is not None:
                best = lines.floored(best)
            if best is not None and best.objective == bound and not maximize:
                return Result(Status.OPTIMAL, self.name, best, objective=bound, bound=bound)
            formula = formula_for(free, self.encoding, control)
            if best is not None and maximize:
                formula.objective_at_least(best.objective + 1)
            elif best is not None:
                formula.objective_at_most(best.objective - 1)
            outcome, model = self._run(formula, control)
            if outcome is None:
                status = Status.UNKNOWN if best is None else Status.FEASIBLE
                objective = None if best is None else best.objective
                return Result(status, self.name, best, objective=objective, bound=bound)
            if not outcome:
                if best is None:
                    return Result(Status.INFEASIBLE, self.name)
                return Result(
                    Status.OPTIMAL, self.name, best, objective=best.objective, bound=best.objective
                )
            best = formula.decode(model)
            control.report(objective=best.objective, bound=bound, placement=best)


def _beats(placement: Placement, other: Placement, maximize: bool) -> bool:
    """True when ``placement`` is better than ``other`` in the problem's sense."""
    if maximize:
        return placement.objective > other.objective
    return placement.objective < other.objective


def _common_sizes(problem: Problem) -> list[Problem]:
    """Equal armies: one problem per size that every army admits, every army exactly that,
    from the most given pieces of an army up (fewer leave some army's givens out, and
    from there up a placement stays one when a piece that is not given goes)."""
    low = max(problem.fewest(a) for a in range(len(problem.armies)))
    high = min(
        (army.maximum for army in problem.armies if army.maximum is not None),
        default=problem.board.size,
    )
    return [
        replace(problem, armies=tuple(replace(a, minimum=k, maximum=k) for a in problem.armies))
        for k in range(low, high + 1)
    ]


def _first_guess(problem: Problem, control: Control) -> Placement | None:
    """A good placement to climb from: a few annealing runs where the line model fits,
    a small dominating set found by local search for the fewest pieces dominating; none
    for a problem with a position (the searches know no blocked squares, pawns or given
    pieces) or for independent domination (nor do they keep pieces apart)."""
    if problem.has_position:
        return None
    if problem.dominating:
        if problem.independent or problem.sense is Sense.MAXIMIZE:
            return None
        return domination.first_guess(problem, control)
    if lines.refusal(problem) is not None or importlib.util.find_spec("numba") is None:
        return None
    from chessplace.engines.heuristic.engine import search

    return search(problem, control, runs=GUESS_RUNS)
