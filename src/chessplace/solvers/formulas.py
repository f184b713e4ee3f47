"""CNF models of a problem for the SAT engine.

:class:`SquareFormula` has one variable per army and square and encodes every
rule; :class:`LineFormula` decides only the colour of each line for
peaceable armies (see :mod:`chessplace.solvers.lines`). Both break the
problem's symmetries with lex-leader constraints and expose the same
interface: ``clauses``, objective bounds, the variables that tell
placements apart, and ``decode``.
"""

from __future__ import annotations

from itertools import product

from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.solvers import lines, symmetry
from chessplace.solvers.cnf import Cnf
from chessplace.solvers.encoding import Literal, decode, rules_of

CUBE_DEPTHS = ((54, 5), (0, 4))
"""(fewest lines, depth): a line formula with that many lines splits on the colours of
``depth`` lines into 2**depth cubes (measured best: 4 for queens on 9×9, 5 from 10×10)."""
CUBE_MIN_LINES = 45
"""Smaller line formulas (queens below 9×9) are solved whole: splitting them gains nothing."""


class Formula(Cnf):
    """Variables ``(army, square)`` and the armies' counts; subclasses add the rules."""

    def __init__(self, problem: Problem, encoding: str) -> None:
        super().__init__(encoding)
        self.problem = problem
        self.squares = problem.board.size

    def var(self, literal: Literal) -> int:
        return self.named(("x", *literal))

    def army(self, a: int) -> list[int]:
        return [self.var((a, s)) for s in range(self.squares)]

    def placement_vars(self) -> list[int]:
        """The variables that say where every piece stands."""
        return [v for a in range(len(self.problem.armies)) for v in self.army(a)]

    def cubes(self) -> list[list[int]]:
        """Assignments that split the formula into parts to solve apart (one: no split)."""
        return [[]]

    def objective_at_least(self, value: int) -> None:
        if self.problem.equal_armies:
            for a in range(len(self.problem.armies)):
                self.bound(self.army(a), value, None)
        else:
            scored = [v for a in self.problem.scored_armies for v in self.army(a)]
            self.bound(scored, value, None)

    def objective_at_most(self, value: int) -> None:
        self.bound(self.placement_vars(), 0, value)

    def decode(self, model: list[int]) -> Placement:
        true = set(v for v in model if v > 0)
        chosen: list[Literal] = [
            (a, s)
            for a in range(len(self.problem.armies))
            for s in range(self.squares)
            if self.var((a, s)) in true
        ]
        return lines.trimmed(decode(self.problem, chosen))


class SquareFormula(Formula):
    """Every rule over ``(army, square)`` variables; counts exact as asked."""

    def __init__(self, problem: Problem, encoding: str, break_symmetry: bool = True) -> None:
        super().__init__(problem, encoding)
        rules = rules_of(problem)
        for group in rules.at_most_one:
            self.at_most_one([self.var(v) for v in group])
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
                self.clauses += symmetry.lex_leader(order, mapping, self.var, self.fresh)

    def _owned_by_one(self, line: tuple[int, ...]) -> None:
        """Two armies: one variable per line says which army may use it."""
        key = ("first army may use", line)
        if self.knows(key):
            return
        first = self.named(key)
        self.clauses += [[-self.var((0, s)), first] for s in line]
        self.clauses += [[-self.var((1, s)), -first] for s in line]

    def _occupies(self, army: int, line: tuple[int, ...]) -> int:
        key = ("on", army, line)
        known = self.knows(key)
        flag = self.named(key)
        if not known:
            self.clauses += [[-self.var((army, s)), flag] for s in line]
        return flag


class LineFormula(Formula):
    """Peaceable armies by line colours, every allowed square filled.

    Only lower bounds on the armies are encoded: a placement with at least
    the asked pieces is trimmed to the upper bounds when decoded. Symmetry
    breaking compares line colours, not squares.
    """

    def __init__(self, problem: Problem, encoding: str, break_symmetry: bool = True) -> None:
        super().__init__(problem, encoding)
        self.model = model = lines.LineModel(problem)
        for square, through in enumerate(model.square_lines):
            white, black = self.var((0, square)), self.var((1, square))
            if not through:
                self.clauses.append([-white, -black])
                continue
            colours = [self._white(i) for i in through]
            self.clauses += [[-white, c] for c in colours] + [[-black, -c] for c in colours]
            self.clauses.append([white, *(-c for c in colours)])
            self.clauses.append([black, *colours])
        for a, army in enumerate(problem.armies):
            self.bound(self.army(a), army.minimum, None)
        if break_symmetry:
            order = [(i, 0) for i in range(len(model.lines))]
            for image, swap in model.symmetries():
                self.clauses += symmetry.lex_leader(
                    order, _line_mapping(image, swap), self._colour, self.fresh
                )

    def cubes(self) -> list[list[int]]:
        """Every colouring of the first lines after the one the colour swap fixes,
        on boards with at least ``CUBE_MIN_LINES`` lines."""
        count = len(self.model.lines)
        if count < CUBE_MIN_LINES:
            return [[]]
        first = 1 if self.problem.swappable_armies else 0
        depth = next(depth for fewest, depth in CUBE_DEPTHS if count >= fewest)
        split = [self._white(i) for i in range(first, min(count, first + depth))]
        return [
            [lit if sign else -lit for lit, sign in zip(split, signs, strict=True)]
            for signs in product([True, False], repeat=len(split))
        ]

    def _white(self, line: int) -> int:
        return self.named(("white line", line))

    def _colour(self, literal: Literal) -> int:
        """``(line, 0)`` is "line is white"; ``(line, 1)`` its negation."""
        line, negated = literal
        return -self._white(line) if negated else self._white(line)


def _line_mapping(image: tuple[int, ...], swap: bool) -> symmetry.Mapping:
    def apply(literal: Literal) -> Literal:
        line, negated = literal
        return image[line], negated ^ swap

    return apply


def formula_for(problem: Problem, encoding: str) -> Formula:
    """The strongest formula for finding or optimising ``problem``."""
    if lines.refusal(problem) is None:
        return LineFormula(problem, encoding)
    return SquareFormula(problem, encoding)
