"""SAT through PySAT: find, and optimise by proving m+1 impossible after m.

Each bound gets a fresh formula, as a hand-written SAT model would; the
cardinality encoding (``totalizer`` by default) and the SAT solver
(CaDiCaL 1.9.5 by default) are parameters.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Any

from chessplace.control import Control
from chessplace.placement import Placement
from chessplace.problem import Problem, Sense
from chessplace.result import Result, Status
from chessplace.solvers import symmetry
from chessplace.solvers.base import Engine, Task
from chessplace.solvers.encoding import Literal, decode, equalized, rules_of

ENCODINGS = (
    "seqcounter",
    "sortnetwrk",
    "cardnetwrk",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
    "ladder",
    "pairwise",
)
BACKENDS = ("cadical195", "kissat404", "glucose42", "minisat22", "lingeling")
PORTFOLIO = ("cadical195", "kissat404")
_PAIRWISE_LIMIT = 6
_START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


class _Formula:
    """CNF for the rules of a problem, plus cardinality bounds on demand."""

    def __init__(self, problem: Problem, encoding: str, break_symmetry: bool = True) -> None:
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        self.problem = problem
        self.pool = IDPool()
        self._card = CardEnc
        self._encoding = getattr(EncType, encoding)
        self._seq = EncType.seqcounter
        rules = rules_of(problem)
        self.squares = rules.squares
        self.clauses: list[list[int]] = []
        for group in rules.at_most_one:
            self._at_most_one([self.var(v) for v in group])
        for a, b, line in rules.exclusive_lines:
            if rules.armies == 2:
                self._owned_by_one(line)
            else:
                self.clauses.append([-self._occupies(a, line), -self._occupies(b, line)])
        for first, second in rules.forbidden_pairs:
            self.clauses.append([-self.var(first), -self.var(second)])
        for group in rules.cover:
            self.clauses.append([self.var(v) for v in group])
        for a, army in enumerate(problem.armies):
            self.bound(self.army(a), army.minimum, army.maximum)
        if break_symmetry:
            order = [(a, s) for s in range(self.squares) for a in range(len(problem.armies))]
            for mapping in symmetry.group(problem):
                self.clauses += symmetry.lex_leader(order, mapping, self.var, self._fresh)

    def _fresh(self) -> int:
        return int(self.pool.id(("aux", self.pool.top + 1)))

    def var(self, literal: Literal) -> int:
        return int(self.pool.id(("x", *literal)))

    def army(self, a: int) -> list[int]:
        return [self.var((a, s)) for s in range(self.squares)]

    def _owned_by_one(self, line: tuple[int, ...]) -> None:
        """Two armies: one variable per line says which army may use it."""
        key = ("first army may use", line)
        if key in self.pool.obj2id:
            return
        first = int(self.pool.id(key))
        self.clauses += [[-self.var((0, s)), first] for s in line]
        self.clauses += [[-self.var((1, s)), -first] for s in line]

    def _occupies(self, army: int, line: tuple[int, ...]) -> int:
        key = ("on", army, line)
        known = key in self.pool.obj2id
        flag = int(self.pool.id(key))
        if not known:
            self.clauses += [[-self.var((army, s)), flag] for s in line]
        return flag

    def _at_most_one(self, lits: list[int]) -> None:
        if len(lits) <= _PAIRWISE_LIMIT:
            self.clauses += [[-p, -q] for i, p in enumerate(lits) for q in lits[i + 1 :]]
        else:
            self.clauses += self._card.atmost(lits, 1, vpool=self.pool, encoding=self._seq).clauses

    def bound(self, lits: list[int], minimum: int, maximum: int | None) -> None:
        """Add ``minimum <= sum(lits) <= maximum`` in the chosen encoding."""
        if minimum > len(lits):
            self.clauses.append([])
            return
        if minimum > 0:
            self.clauses += self._card.atleast(
                lits, minimum, vpool=self.pool, encoding=self._encoding
            ).clauses
        if maximum is not None and maximum < len(lits):
            self.clauses += self._card.atmost(
                lits, maximum, vpool=self.pool, encoding=self._encoding
            ).clauses

    def objective_at_least(self, value: int) -> None:
        if self.problem.equal_armies:
            for a in range(len(self.problem.armies)):
                self.bound(self.army(a), value, None)
        else:
            self.bound(self._all(), value, None)

    def objective_at_most(self, value: int) -> None:
        self.bound(self._all(), 0, value)

    def _all(self) -> list[int]:
        return [v for a in range(len(self.problem.armies)) for v in self.army(a)]

    def decode(self, model: list[int]) -> Placement:
        true = set(v for v in model if v > 0)
        chosen: list[Literal] = [
            (a, s)
            for a in range(len(self.problem.armies))
            for s in range(self.squares)
            if self.var((a, s)) in true
        ]
        placement = decode(self.problem, chosen)
        if self.problem.equal_armies and not self.problem.dominating:
            placement = equalized(placement)
        return placement


def _solve_in_child(backend: str, clauses: list[list[int]], sender: Any) -> None:
    """Child process: solve and send (satisfiable, model) back."""
    from pysat.solvers import Solver

    with Solver(name=backend, bootstrap_with=clauses) as solver:
        outcome = solver.solve()
        sender.send((outcome, solver.get_model() if outcome else None))


class SatEngine(Engine):
    name = "sat"
    summary = "SAT via PySAT (CaDiCaL; cardinality encoding selectable): find, optimise"
    package = "python-sat"
    module = "pysat"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE})

    def __init__(self, backend: str | None = None, encoding: str = "totalizer") -> None:
        """``backend`` picks one SAT solver; without it CaDiCaL runs, joined by Kissat
        as a portfolio (first answer wins) when there is more than one core."""
        if backend is not None and backend not in BACKENDS:
            raise ValueError(f"unknown SAT solver {backend!r}; choose from {', '.join(BACKENDS)}")
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
        if backend is not None:
            self.backends: tuple[str, ...] = (backend,)
        elif (os.cpu_count() or 1) > 1:
            self.backends = PORTFOLIO
        else:
            self.backends = PORTFOLIO[:1]
        self.encoding = encoding

    def _run(self, formula: _Formula, control: Control) -> tuple[bool | None, Any]:
        """Solve the formula: (True, model), (False, None), or (None, None) if stopped.

        Each SAT solver of the portfolio runs in a child process; the first
        answer wins and the others are killed. Children also let a stop or the
        time limit end a solve at once: PySAT's CaDiCaL cannot be interrupted
        in-process.
        """
        if control.stopped:
            return None, None
        context: Any = multiprocessing.get_context(_START_METHOD)
        children = []
        for backend in self.backends:
            receiver, sender = context.Pipe(duplex=False)
            child = context.Process(
                target=_solve_in_child, args=(backend, formula.clauses, sender), daemon=True
            )
            child.start()
            sender.close()
            children.append((child, receiver))
        try:
            while True:
                for _child, receiver in children:
                    if receiver.poll(0):
                        try:
                            outcome, model = receiver.recv()
                        except EOFError:
                            continue
                        return outcome, model
                if control.stopped or not any(child.is_alive() for child, _ in children):
                    return None, None
                time.sleep(0.02)
        finally:
            for child, receiver in children:
                if child.is_alive():
                    child.kill()
                child.join()
                receiver.close()

    def solve(self, problem: Problem, control: Control) -> Result:
        formula = _Formula(problem, self.encoding)
        outcome, model = self._run(formula, control)
        if outcome is None:
            return Result(Status.UNKNOWN, self.name)
        if not outcome:
            return Result(Status.INFEASIBLE, self.name)
        return Result(Status.FEASIBLE, self.name, formula.decode(model))

    def optimize(self, problem: Problem, control: Control) -> Result:
        free = problem.without_counts()
        maximize = problem.sense is Sense.MAXIMIZE
        best: Placement | None = None
        while True:
            formula = _Formula(free, self.encoding)
            if best is not None and maximize:
                formula.objective_at_least(best.objective + 1)
            elif best is not None:
                formula.objective_at_most(best.objective - 1)
            outcome, model = self._run(formula, control)
            if outcome is None:
                status = Status.UNKNOWN if best is None else Status.FEASIBLE
                return Result(
                    status, self.name, best, objective=None if best is None else best.objective
                )
            if not outcome:
                if best is None:
                    return Result(Status.INFEASIBLE, self.name)
                return Result(
                    Status.OPTIMAL, self.name, best, objective=best.objective, bound=best.objective
                )
            best = formula.decode(model)
            control.report(objective=best.objective)
