"""OR-Tools CP-SAT: find, optimise with a proof of optimality, enumerate."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

from chessplace.core.features import Feature
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem, Sense
from chessplace.core.result import Result, Status
from chessplace.encodings import lines
from chessplace.encodings.boolean import PAWN, Key, Literal, decode, filled_lines, rules_of
from chessplace.engines import domination
from chessplace.engines.base import Engine, Task
from chessplace.runtime.control import Control, Stopped, checked

MAX_SQUARES = 40_000
"""The largest board (200×200) CP-SAT models: a few seconds and about 150 MB to build."""


class _Model:
    """A CP-SAT model of one problem: a Boolean per (army, square).

    Building raises :class:`Stopped` once ``control`` stops.
    """

    def __init__(self, problem: Problem, with_objective: bool, control: Control) -> None:
        from ortools.sat.python import cp_model

        self.problem = problem
        self.model = cp_model.CpModel()
        rules = rules_of(problem)
        model = self.model
        armies = [*range(rules.armies), *([PAWN] if problem.free_pawns else [])]
        self.x: dict[Literal, Any] = {
            (a, s): model.new_bool_var(f"x{a}_{s}")
            for a in armies
            for s in checked(range(rules.squares), control)
        }
        for v, value in rules.fixed:
            model.add(self.x[v] == int(value))
        self._aux: dict[Key, Any] = {}
        for clause in checked(rules.clauses, control):
            model.add_bool_or(
                self._var(key) if value else self._var(key).Not() for key, value in clause
            )
        for group in checked(rules.at_most_one, control):
            model.add_at_most_one(self.x[v] for v in group)
        occupied: dict[tuple[int, tuple[int, ...]], Any] = {}
        for a, b, line in checked(rules.exclusive_lines, control):
            model.add_bool_or(
                [self._occupies(occupied, a, line).Not(), self._occupies(occupied, b, line).Not()]
            )
        for first, second in checked(rules.forbidden_pairs, control):
            model.add_bool_or([self.x[first].Not(), self.x[second].Not()])
        for group in checked(rules.cover, control):
            model.add_bool_or([self.x[v] for v in group])
        for group, k in rules.exactly:
            model.add(sum(self.x[v] for v in group) == k)
        for members, low, high in rules.bounded:
            held = sum(self._var(v) for v in members)
            model.add(held >= low)
            if high is not None:
                model.add(held <= high)
        if control.stopped:
            raise Stopped
        self.sizes = [sum(self.x[a, s] for s in range(rules.squares)) for a in range(rules.armies)]
        for army, size, filled in zip(
            problem.armies, self.sizes, filled_lines(problem), strict=True
        ):
            if filled and not with_objective:  # one piece a line: the count follows
                for part in filled:
                    model.add_exactly_one(self.x[v] for v in part)
                continue
            model.add(size >= army.minimum)
            if army.maximum is not None:
                model.add(size <= army.maximum)
        if problem.equal_armies:
            for size in self.sizes[1:]:
                model.add(size == self.sizes[0])
        if with_objective:
            objective = (
                self.sizes[0]
                if problem.equal_armies
                else sum(self.sizes[a] for a in problem.scored_armies)
            )
            if problem.sense is Sense.MAXIMIZE:
                model.maximize(objective)
            else:
                model.minimize(objective)

    def _var(self, key: Key) -> Any:
        """The Boolean of ``key``: a piece's or pawn's, or an auxiliary one made on first
        use."""
        if key in self.x:
            return self.x[key]
        if key not in self._aux:
            self._aux[key] = self.model.new_bool_var(f"aux{len(self._aux)}")
        return self._aux[key]

    def _occupies(
        self, memo: dict[tuple[int, tuple[int, ...]], Any], army: int, line: tuple[int, ...]
    ) -> Any:
        """A Boolean that is true exactly when ``army`` has a piece on ``line``.

        Exactly, not merely implied, so that enumeration sees each placement once.
        """
        key = (army, line)
        if key not in memo:
            flag = self.model.new_bool_var(f"on{army}_{len(memo)}")
            pieces = [self.x[army, s] for s in line]
            for piece in pieces:
                self.model.add_implication(piece, flag)
            self.model.add_bool_or([*pieces, flag.Not()])
            memo[key] = flag
        return memo[key]

    def placement(self, value: Any) -> Placement:
        """The placement in a solution, read through ``value(var) -> bool``."""
        chosen: list[Literal] = [key for key, var in self.x.items() if value(var)]
        return decode(self.problem, chosen)


def _solver(control: Control, workers: int) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.catch_sigint_signal = False  # Control handles Ctrl-C
    remaining = control.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 0.001)
    return solver


def _callback_class() -> Any:
    from ortools.sat.python import cp_model

    class _Listener(cp_model.CpSolverSolutionCallback):
        def __init__(self, on_solution: Any) -> None:
            super().__init__()
            self._on_solution = on_solution

        def on_solution_callback(self) -> None:
            self._on_solution(self)

    return _Listener


class ModelInvalid(RuntimeError):
    """CP-SAT rejected the model chessplace built: a bug here, never an answer."""


def _verdict(status: Any, model: Any) -> str:
    """Every CP-SAT status in chessplace's words: ``proven`` (optimal, or every
    solution enumerated), ``found``, ``infeasible`` or ``stopped``."""
    from ortools.sat.python import cp_model

    if status == cp_model.MODEL_INVALID:
        raise ModelInvalid(f"CP-SAT rejected the model: {model.validate() or 'no reason given'}")
    verdicts = {
        cp_model.OPTIMAL: "proven",
        cp_model.FEASIBLE: "found",
        cp_model.INFEASIBLE: "infeasible",
        cp_model.UNKNOWN: "stopped",
    }
    if status not in verdicts:
        raise ModelInvalid(f"CP-SAT answered an unknown status {status}")
    return verdicts[status]


class CpSatEngine(Engine):
    name = "cpsat"
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
    summary = "OR-Tools CP-SAT: find, optimise with proof, enumerate and list"
    package = "ortools"
    module = "ortools"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE, Task.COUNT, Task.LIST})
    max_squares = MAX_SQUARES
    count_rate = 25.0  # 9-queens: 352 placements in 14 s

    def solve(self, problem: Problem, control: Control) -> Result:
        try:
            model = _Model(problem, with_objective=False, control=control)
        except Stopped:
            return Result(Status.UNKNOWN, self.name, note="stopped while building the model")
        solver = _solver(control, control.cores())
        with control.interrupting(solver.stop_search):
            verdict = _verdict(solver.solve(model.model), model.model)
        if verdict in ("proven", "found"):
            return Result(Status.FEASIBLE, self.name, model.placement(solver.boolean_value))
        if verdict == "infeasible":
            return Result(Status.INFEASIBLE, self.name)
        return Result(Status.UNKNOWN, self.name)

    def optimize(self, problem: Problem, control: Control) -> Result:
        try:
            model = _Model(problem.without_counts(), with_objective=True, control=control)
        except Stopped:
            return Result(
                Status.UNKNOWN,
                self.name,
                bound=_known_bound(problem),
                note="stopped while building the model",
            )
        solver = _solver(control, control.cores())

        def on_solution(listener: Any) -> None:
            control.report(
                objective=round(listener.objective_value),
                bound=round(listener.best_objective_bound),
                placement=model.placement(listener.boolean_value),
            )

        listener = _callback_class()(on_solution)
        with control.interrupting(solver.stop_search):
            verdict = _verdict(solver.solve(model.model, listener), model.model)
        if verdict == "infeasible":
            return Result(Status.INFEASIBLE, self.name)
        known = _known_bound(problem)
        if verdict == "stopped":
            return Result(Status.UNKNOWN, self.name, bound=known)
        placement = model.placement(solver.boolean_value)
        proven = verdict == "proven"
        bound = round(solver.best_objective_bound)
        if known is not None:
            minimize = problem.sense is Sense.MINIMIZE
            bound = max(bound, known) if minimize else min(bound, known)
        return Result(
            Status.OPTIMAL if proven else Status.FEASIBLE,
            self.name,
            placement,
            objective=placement.objective,
            bound=placement.objective if proven else bound,
        )

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        try:
            model = _Model(problem, with_objective=False, control=control)
        except Stopped:
            return Result(Status.PARTIAL, self.name, count=0, note="stopped while building")
        solver = _solver(control, 1)
        solver.parameters.enumerate_all_solutions = True
        classes: set[object] = set()
        found: list[Placement] = []
        total = 0

        def on_solution(listener: Any) -> None:
            nonlocal total
            total += 1
            if unique or not found:
                placement = model.placement(listener.boolean_value)
                if not found:
                    found.append(placement)
                if unique:
                    classes.add(placement.canonical_key())
            if total % 1000 == 0:
                control.report(count=total)

        listener = _callback_class()(on_solution)
        with control.interrupting(solver.stop_search):
            verdict = _verdict(solver.solve(model.model, listener), model.model)
        finished = verdict in ("proven", "infeasible")  # every solution enumerated
        return Result(
            Status.COMPLETE if finished else Status.PARTIAL,
            self.name,
            found[0] if found else None,
            count=total,
            unique=len(classes) if unique else None,
        )

    def solutions(self, problem: Problem, control: Control) -> Iterator[Placement]:
        """Every placement, as :meth:`count` enumerates them, handed out while the
        search runs in a thread: it waits while :data:`LISTED_AHEAD` placements are
        not yet taken, and stops when the listing is closed or ``control`` stops."""
        try:
            model = _Model(problem, with_objective=False, control=control)
        except Stopped:
            return
        solver = _solver(control, 1)
        solver.parameters.enumerate_all_solutions = True
        found: queue.Queue[Placement] = queue.Queue(maxsize=LISTED_AHEAD)
        closed = threading.Event()
        finished = threading.Event()
        failure: list[BaseException] = []

        def on_solution(listener: Any) -> None:
            placement = model.placement(listener.boolean_value)
            while not (closed.is_set() or control.stopped):
                try:
                    found.put(placement, timeout=POLL_SECONDS)
                    return
                except queue.Full:
                    pass
            listener.stop_search()

        def enumerate_all() -> None:
            try:
                _verdict(solver.solve(model.model, _callback_class()(on_solution)), model.model)
            except BaseException as error:  # raised again where the placements are taken
                failure.append(error)
            finally:
                finished.set()

        worker = threading.Thread(target=enumerate_all, daemon=True)
        with control.interrupting(solver.stop_search):
            worker.start()
            try:
                while not (finished.is_set() and found.empty()):
                    try:
                        placement = found.get(timeout=POLL_SECONDS)
                    except queue.Empty:
                        continue
                    yield placement
            finally:
                closed.set()
                solver.stop_search()
                worker.join()
        if failure:
            raise failure[0]


LISTED_AHEAD = 256
"""Placements :meth:`CpSatEngine.solutions` finds before the listing takes them."""

POLL_SECONDS = 0.1
"""How often a listing's two threads look for a stop while waiting for each other."""


def _known_bound(problem: Problem) -> int | None:
    """A bound proven without search: the domination lower bound, or the product bound
    on equal peaceable armies; ``None`` when neither applies."""
    if problem.dominating and problem.sense is Sense.MINIMIZE:
        if problem.cover[0] < 1:  # covering no square is allowed: nothing to bound
            return None
        return domination.lower_bound(problem.without_counts())
    return lines.upper_bound(problem.without_counts())
