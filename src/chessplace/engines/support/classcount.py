"""Counting by symmetry class with SAT: one placement per class, weighed by its size.

The lex-leader constraints of :class:`SquareFormula` keep exactly the
smallest member of each class, so enumerating the formula's models (blocking
each placement found) visits every class once; the class's size is the
number of distinct images of its member under the problem's group (its orbit,
counted directly: no fixed points are counted, so this is not Burnside's lemma,
which the GPU and pawn counters use).

Lex-leader symmetry breaking: J. Crawford, M. Ginsberg, E. Luks, A. Roy, 1996,
"Symmetry-breaking predicates for search problems", KR 1996.
"""

from __future__ import annotations

from typing import Any

from chessplace.core.problem import Problem
from chessplace.encodings import symmetry
from chessplace.encodings.formulas import SquareFormula
from chessplace.runtime.control import Control
from chessplace.runtime.lifeline import start_child


def _enumerate_in_child(
    sender: Any, backend: str, clauses: list[list[int]], shown: list[int]
) -> None:
    """Child process: send the true variables among ``shown`` of every model, then None."""
    from pysat.solvers import Solver

    with Solver(name=backend, bootstrap_with=clauses) as solver:
        while solver.solve():
            true = set(v for v in solver.get_model() if v > 0)
            sender.send([v for v in shown if v in true])
            solver.add_clause([-v if v in true else v for v in shown])
    sender.send(None)


def count_classes(
    problem: Problem, backend: str, encoding: str, control: Control, before: int = 0
) -> tuple[int, int, bool]:
    """(placements, classes, complete) for ``problem``'s exact counts.

    The enumeration runs in a child process, so a stop ends it at once;
    progress reports add ``before`` to the placements found so far.
    """
    formula = SquareFormula(problem, encoding)
    shown = formula.placement_vars()
    literal_of = {
        v: (a, s) for a in range(len(problem.armies)) for s, v in enumerate(formula.army(a))
    }
    images = symmetry.group(problem)
    total = classes = 0
    child = start_child(_enumerate_in_child, backend, formula.clauses, shown)
    complete = False
    try:
        while not control.stopped:
            if not child.receiver.poll(0.05):
                continue
            found = child.receiver.recv()  # EOFError if it died before the end
            if found is None:
                complete = True
                break
            placement = frozenset(literal_of[v] for v in found)
            classes += 1
            total += len({placement, *(frozenset(map(g, placement)) for g in images)})
            control.report(count=before + total)
    except EOFError:
        pass
    finally:
        child.end()
    return total, classes, complete
