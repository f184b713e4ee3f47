"""Why a position has no answer: a minimal set of its given pieces, blocked squares and
count rules that already cannot be completed.

The problem without its given pieces, blocked squares and count rules (its given pawns
stay: they shape the lines) becomes a SAT formula with one assumption per given piece
(its variable true), per blocked square (a selector that empties the square) and per
count rule's member (a selector that switches on its bound: each clause of the bound's
encoding holds the selector's negation). The
solver's core of a refutation is shrunk by deletion: each member is dropped in turn
and stays out when the rest is still refuted. What is left is a minimal unsatisfiable
subset: removing any one member leaves a problem with an answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from chessplace.core.board import Square, square_name
from chessplace.core.problem import Problem
from chessplace.encodings.cnf import Cnf
from chessplace.encodings.formulas import DEFAULT_ENCODING, MAX_SQUARES, SquareFormula

BACKEND = "cadical195"

LARGEST = MAX_SQUARES
"""The most squares a board may have for the question (the formula's own limit)."""


@dataclass(frozen=True)
class Conflict:
    """A minimal set of given pieces (army number, square) and blocked squares that
    cannot be completed; both empty when the puzzle has no answer even without them.
    ``stopped`` when the search was cut short (the set is then not known minimal)."""

    given: tuple[tuple[int, Square], ...]
    blocked: tuple[Square, ...]
    stopped: bool = False
    rules: tuple[str, ...] = ()
    """The count rules of the set, in words (``exactly 2 pieces on rank 3``)."""

    def describe(self, problem: Problem) -> str:
        """One line naming the set."""
        if not self.given and not self.blocked and not self.rules:
            return (
                f"{problem.puzzle} on {problem.board} has no answer even without "
                "its given pieces, blocked squares and count rules"
            )
        parts = [
            f"the given {problem.armies[a].name} {problem.armies[a].piece.name} on {square_name(s)}"
            for a, s in self.given
        ]
        parts += [f"blocked {square_name(s)}" for s in self.blocked]
        parts += list(self.rules)
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        return f"{listed} cannot be completed"

    def problem(self, problem: Problem) -> Problem:
        """``problem`` with only this set as its position (and its given pawns)."""
        given = [frozenset(s for a, s in self.given if a == i) for i in range(len(problem.armies))]
        return replace(problem, blocked=frozenset(self.blocked), given=tuple(given))


def minimal_conflict(
    problem: Problem, stopped: Callable[[], bool] = lambda: False
) -> Conflict | None:
    """A minimal set of given pieces and blocked squares that cannot be completed, or
    ``None`` when the problem has an answer."""
    from pysat.solvers import Solver

    bare = replace(problem, blocked=frozenset(), given=(), counts=())
    formula = SquareFormula(bare, DEFAULT_ENCODING, break_symmetry=False)
    board = problem.board
    choices: dict[int, tuple[str, int, Square]] = {}
    rules: dict[int, str] = {}
    for number in range(len(problem.count_groups)):
        rules[_rule_selector(formula, problem, number)] = _worded(problem, number)
    for a in range(len(problem.armies)):
        for square in sorted(problem.given_of(a)):
            choices[formula.var((a, board.index(square)))] = ("given", a, square)
    for square in sorted(problem.blocked):
        choices[_selector(formula, problem, board.index(square))] = ("blocked", -1, square)
    with Solver(name=BACKEND, bootstrap_with=formula.clauses) as solver:
        if solver.solve(assumptions=[*choices, *rules]):
            return None
        core = [lit for lit in (solver.get_core() or []) if lit in choices or lit in rules]
        cut_short = False
        for lit in list(core):
            if lit not in core:
                continue  # an earlier refutation's core left it out already
            if stopped():
                cut_short = True
                break
            rest = [other for other in core if other != lit]
            if not solver.solve(assumptions=rest):
                smaller = set(solver.get_core() or [])
                core = [other for other in rest if other in smaller]
    placed = [lit for lit in core if lit in choices]
    given = tuple(
        (choices[lit][1], choices[lit][2]) for lit in placed if choices[lit][0] == "given"
    )
    blocked = tuple(choices[lit][2] for lit in placed if choices[lit][0] == "blocked")
    return Conflict(given, blocked, cut_short, tuple(rules[lit] for lit in core if lit in rules))


def _rule_selector(formula: Cnf, problem: Problem, number: int) -> int:
    """A new variable that, true, enforces member ``number`` of the count rules."""
    group = problem.count_groups[number]
    selector = formula.named(("rule", number))
    board = problem.board
    armies = range(len(problem.armies)) if group.army is None else (group.army,)
    pieces = [
        formula.named(("x", a, board.index(s))) for s in sorted(group.squares) for a in armies
    ]
    first = len(formula.clauses)
    formula.bound(pieces, group.rule.at_least, group.rule.at_most)
    formula.clauses[first:] = [[-selector, *clause] for clause in formula.clauses[first:]]
    return selector


def _worded(problem: Problem, number: int) -> str:
    group = problem.count_groups[number]
    army = None if group.army is None else problem.armies[group.army].name
    return f"{group.rule.bounds} {group.rule.noun(army)} on {group.label}"


def _selector(formula: Cnf, problem: Problem, square: int) -> int:
    """A new variable that, true, leaves ``square`` empty of every army (and pawn)."""
    selector = formula.named(("blocked", square))
    armies = [*range(len(problem.armies)), *([-1] if problem.free_pawns else [])]
    formula.clauses += [[-selector, -formula.named(("x", a, square))] for a in armies]
    return selector
