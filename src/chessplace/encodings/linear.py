"""The 0/1 linear model of a problem that the OPB, LP and MiniZinc exports write.

It is the model chessplace's CP-SAT engine solves (:mod:`chessplace.engines.cpsat`),
built from the same :class:`~chessplace.encodings.boolean.Rules`: one variable per
army and square, one "army has a piece on this line" variable per army and line
that two armies must not share, the counts, equal armies, and the objective.
A problem with a count is the checking problem (no objective); one without is
the optimisation problem (the counts freed, the objective added).
"""

from __future__ import annotations

from dataclasses import dataclass

from chessplace.core.attacks import Line
from chessplace.core.board import Board, square_name
from chessplace.core.problem import Problem, Sense
from chessplace.encodings.boolean import Clause, Key, Literal, rules_of

MAX_SQUARES = 4_096
"""The largest board (64×64) exported as a linear model: domination there has about
a million terms (some 10 MB of text, 2-3 s, 150 MB to build)."""

Term = tuple[int, int]
"""``(coefficient, variable index)``."""


@dataclass(frozen=True)
class Variable:
    """A 0/1 variable: a piece of ``army`` on ``square``, ``army`` on ``line``, or an
    auxiliary one named ``label`` that means ``about``."""

    army: str
    piece: str
    square: str | None = None
    line: str | None = None
    label: str | None = None
    about: str = ""

    @property
    def name(self) -> str:
        """An identifier that LP and MiniZinc accept."""
        if self.label is not None:
            return self.label
        if self.square is not None:
            return f"{self.army}_{self.square}"
        return f"{self.army}_on_{(self.line or '').replace('-', '_')}"

    @property
    def meaning(self) -> str:
        if self.label is not None:
            return self.about
        if self.square is not None:
            return f"1 when a {self.army} {self.piece} stands on {self.square}"
        return f"1 when {self.army} has a piece on the line {self.line}"


@dataclass(frozen=True)
class Constraint:
    """``sum(coefficient * variable) relation bound``, ``relation`` one of <=, >=, =."""

    terms: tuple[Term, ...]
    relation: str
    bound: int


@dataclass(frozen=True)
class Section:
    """Constraints of one rule, with a comment that says which."""

    comment: str
    constraints: tuple[Constraint, ...]


@dataclass(frozen=True)
class Objective:
    sense: Sense
    terms: tuple[Term, ...]
    meaning: str


@dataclass(frozen=True)
class LinearModel:
    """Variables (the army-square ones first, army by army in board order), the
    constraints by rule, and the objective of an optimisation problem."""

    problem: Problem
    squares: tuple[str, ...]
    variables: tuple[Variable, ...]
    sections: tuple[Section, ...]
    objective: Objective | None

    @property
    def armies(self) -> tuple[str, ...]:
        return tuple(army.name for army in self.problem.armies)

    @property
    def pieces(self) -> tuple[str, ...]:
        return tuple(army.piece.name for army in self.problem.armies)

    def army_terms(self, army: int) -> tuple[Term, ...]:
        return army_terms(len(self.squares), army)

    def constraint_count(self) -> int:
        return sum(len(section.constraints) for section in self.sections)


def army_terms(squares: int, army: int) -> tuple[Term, ...]:
    """``1 * x`` for every square variable of ``army`` (variables army by army)."""
    return tuple((1, v) for v in range(army * squares, (army + 1) * squares))


def line_name(board: Board, line: Line) -> str:
    """A line by its end squares, for example ``a1-e5``."""
    return f"{square_name(board.at(line[0]))}-{square_name(board.at(line[-1]))}"


def linear_model(problem: Problem) -> LinearModel:
    """The checking problem when ``problem`` has a count, else the optimisation problem."""
    if problem.board.size > MAX_SQUARES:
        raise ValueError(
            f"a {problem.board} board is too large to export as a linear model "
            f"(at most {MAX_SQUARES:,} squares)"
        )
    if problem.free_pawns:
        raise ValueError("pawns to place (queens-and-pawns) export as DIMACS only: --format dimacs")
    optimise = not problem.has_target
    if optimise:
        problem = problem.without_counts()
    return _Builder(problem).build(optimise)


class _Builder:
    """Collects variables and sections for :func:`linear_model`."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.board = problem.board
        self.names = tuple(square_name(self.board.at(s)) for s in range(self.board.size))
        self.variables = [
            Variable(army.name, army.piece.name, square=name)
            for army in problem.armies
            for name in self.names
        ]
        self.units = [(1, v) for v in range(len(self.variables))]  # shared: saves memory
        self.flags: dict[tuple[int, Line], int] = {}
        self.aux: dict[Key, int] = {}
        self.sections: list[Section] = []

    def x(self, literal: Literal) -> int:
        return literal[0] * self.board.size + literal[1]

    def one(self, literal: Literal) -> Term:
        """``1 * x`` for the variable of ``literal``."""
        return self.units[self.x(literal)]

    def add(self, comment: str, constraints: list[Constraint]) -> None:
        if constraints:
            self.sections.append(Section(comment, tuple(constraints)))

    def build(self, optimise: bool) -> LinearModel:
        problem = self.problem
        rules = rules_of(problem)
        per_square = [g for g in rules.at_most_one if len({s for _, s in g}) == 1]
        per_line = [g for g in rules.at_most_one if len({s for _, s in g}) > 1]
        self.add("at most one piece on a square", [self._at_most_one(g) for g in per_square])
        self.add(
            "independence: at most one piece of an army on a line it rides",
            [self._at_most_one(g) for g in per_line],
        )
        self.add(
            "no two pieces that attack each other by a leap or a limited move",
            [self._at_most_one(pair) for pair in rules.forbidden_pairs],
        )
        exclusive = [
            Constraint(((1, self._flag(a, line)), (1, self._flag(b, line))), "<=", 1)
            for a, b, line in rules.exclusive_lines
        ]
        self.add(
            "an army has a piece on a line exactly when one of the line's squares holds one",
            self._flag_links(),
        )
        self.add("two armies never share a line one of their pieces rides", exclusive)
        self.add(
            "domination: every square to dominate occupied or attacked",
            [Constraint(tuple(map(self.one, group)), ">=", 1) for group in rules.cover],
        )
        self.add(
            "the position: given pieces stand, nothing stands on blocked squares or pawns",
            [Constraint((self.one(v),), "=", int(value)) for v, value in rules.fixed],
        )
        sight = (
            "one-way attacks: no piece sees one it may not attack, unless a piece stands between"
        )
        if problem.cover_counted:
            sight += "; covers: which pieces see which squares"
        self.add(
            sight,
            [self._clause(c) for c in rules.clauses]
            if problem.one_way or problem.cover_counted
            else [],
        )
        self.add("count rules on sets of squares", self._bounded(rules.bounded))
        self._counts()
        objective = self._objective() if optimise else None
        return LinearModel(
            problem, self.names, tuple(self.variables), tuple(self.sections), objective
        )

    def _clause(self, clause: Clause) -> Constraint:
        """``sum(true literals) - sum(false ones) >= 1 - (number of false ones)``."""
        terms: list[Term] = []
        for key, value in clause:
            _, x = self._term(key)
            terms.append((1 if value else -1, x))
        negative = sum(1 for _, value in clause if not value)
        return Constraint(tuple(terms), ">=", 1 - negative)

    def _term(self, key: Key) -> Term:
        """``1 * x`` for a piece's literal, or for an auxiliary variable of the rules
        (``("sees", s, t)``, ``("clear", squares)``), made on first use."""
        army, square = key[0], key[-1]
        if len(key) == 2 and isinstance(army, int) and isinstance(square, int):
            return self.one((army, square))
        if key not in self.aux:
            self.aux[key] = len(self.variables)
            self.variables.append(self._auxiliary(key))
        return 1, self.aux[key]

    def _auxiliary(self, key: Key) -> Variable:
        names = self.names
        if key[0] == "sees":
            s, t = key[1], key[2]
            assert isinstance(s, int) and isinstance(t, int)
            return Variable(
                "",
                "",
                label=f"sees_{names[s]}_{names[t]}",
                about=f"1 when the piece on {names[s]} attacks {names[t]}",
            )
        way = key[1]
        assert isinstance(way, tuple)
        listed = [names[m] for m in way]
        return Variable(
            "",
            "",
            label="clear_" + "_".join(listed),
            about=f"1 when none of {', '.join(listed)} holds a piece",
        )

    def _bounded(
        self, groups: tuple[tuple[tuple[Key, ...], int, int | None], ...]
    ) -> list[Constraint]:
        found: list[Constraint] = []
        for group, low, high in groups:
            terms = tuple(self._term(key) for key in group)
            if high == low:
                found.append(Constraint(terms, "=", low))
                continue
            if low > 0:
                found.append(Constraint(terms, ">=", low))
            if high is not None:
                found.append(Constraint(terms, "<=", high))
        return found

    def _at_most_one(self, group: tuple[Literal, ...]) -> Constraint:
        return Constraint(tuple(map(self.one, group)), "<=", 1)

    def _flag(self, army: int, line: Line) -> int:
        key = (army, line)
        if key not in self.flags:
            self.flags[key] = len(self.variables)
            name = line_name(self.board, line)
            owner = self.problem.armies[army]
            self.variables.append(Variable(owner.name, owner.piece.name, line=name))
        return self.flags[key]

    def _flag_links(self) -> list[Constraint]:
        links: list[Constraint] = []
        for (army, line), flag in self.flags.items():
            pieces = [self.x((army, s)) for s in line]
            links += [Constraint(((1, p), (-1, flag)), "<=", 0) for p in pieces]
            links.append(Constraint((*((1, p) for p in pieces), (-1, flag)), ">=", 0))
        return links

    def _counts(self) -> None:
        problem = self.problem
        counts: list[Constraint] = []
        size = self.board.size
        for a, army in enumerate(problem.armies):
            terms = self._army(a)
            if army.maximum == army.minimum:
                counts.append(Constraint(terms, "=", army.minimum))
                continue
            if army.minimum > 0:
                counts.append(Constraint(terms, ">=", army.minimum))
            if army.maximum is not None and army.maximum < size:
                counts.append(Constraint(terms, "<=", army.maximum))
        self.add("counts", counts)
        if problem.equal_armies:
            first = self._army(0)
            self.add(
                "equal armies",
                [
                    Constraint(
                        self._army(a) + tuple((-c, v) for c, v in first),
                        "=",
                        0,
                    )
                    for a in range(1, len(problem.armies))
                ],
            )

    def _army(self, army: int) -> tuple[Term, ...]:
        return army_terms(self.board.size, army)

    def _objective(self) -> Objective:
        problem = self.problem
        if problem.equal_armies:
            return Objective(problem.sense, self._army(0), "pieces per army")
        scored = problem.scored_armies
        terms = tuple(term for a in scored for term in self._army(a))
        names = " and ".join(problem.armies[a].name for a in scored)
        return Objective(problem.sense, terms, f"{names} pieces")
