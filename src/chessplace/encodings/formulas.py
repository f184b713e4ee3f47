"""CNF models of a problem for the SAT engine.

:class:`SquareFormula` has one variable per army and square and encodes every
rule; :class:`LineFormula` decides only the colour of each line for
peaceable armies (see :mod:`chessplace.encodings.lines`). Both break the
problem's symmetries with lex-leader constraints and expose the same
interface: ``clauses``, objective bounds, the variables that tell
placements apart, and ``decode``.

Building looks at the run's :class:`Control`: once it stops, the formula
stops growing and says so (``complete`` false). Such a formula is never
solved: a control that has stopped stays stopped, and the SAT engine solves
only while it has not.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import product

from chessplace.core.board import Board
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.encodings import lines, symmetry
from chessplace.encodings.boolean import (
    PAWN,
    Literal,
    Rules,
    counts_follow,
    decode,
    filled_lines,
    rules_of,
)
from chessplace.encodings.cnf import Cnf
from chessplace.runtime.control import Control, Stopped, checked

MAX_SQUARES = 1_024
"""The largest board (32×32) the SAT engine models. Cardinality constraints grow
with squares × bound: a 32×32 queens formula has about 1.7 million clauses
(a few seconds, 300 MB); 50×50 has 6 million (1.2 GB)."""

MAX_FILLED_SQUARES = 4_096
"""The largest board (64×64) the SAT engine models when every count follows from lines
that hold one piece each (n queens on n×n, blocked squares or not; see
:func:`~chessplace.encodings.boolean.filled_lines`): no cardinality bound, so the
formula grows with the lines only (56×56: some 30,000 clauses)."""


def square_limit(problem: Problem) -> int:
    """The most squares the SAT engine models for ``problem``: :data:`MAX_FILLED_SQUARES`
    where every army's count follows from its filled lines, else :data:`MAX_SQUARES`."""
    if problem.board.size <= MAX_SQUARES or problem.dominating:
        return MAX_SQUARES
    if lines.refusal(problem) is None:  # the line formula bounds its counts
        return MAX_SQUARES
    return MAX_FILLED_SQUARES if counts_follow(problem) else MAX_SQUARES


CUBE_DEPTHS = ((54, 5), (0, 4))
"""(fewest lines, depth): a line formula with that many lines splits on the colours of
``depth`` lines into 2**depth cubes (measured best: 4 for queens on 9×9, 5 from 10×10)."""
DEFAULT_ENCODING = "totalizer"
DOMINATION_ENCODING = "sortnetwrk"
"""Measured best for domination (refuting 5 queens on 12×12: sortnetwrk 1-2 s, totalizer
5 s, cardnetwrk 3 s, mtotalizer 5 s, seqcounter and kmtotalizer 10 s, CaDiCaL, one core)."""
DOMINATION_CUBE_MIN = 169
DOMINATION_CUBE_RANKS = 2
"""Domination formulas from 13×13 split into 4 cubes (which of the 2 middle ranks hold a
piece): measured on 2 cores as fast as the CaDiCaL/Kissat race on the whole (γ(Q₁₃): 41 s
against 40 s), and the proof then reports its progress cube by cube."""
CUBE_MIN_LINES = 45
"""Smaller line formulas (queens below 9×9) are solved whole: splitting them gains nothing."""


class Formula(Cnf):
    """Variables ``(army, square)`` and the armies' counts; subclasses add the rules."""

    def __init__(
        self,
        problem: Problem,
        encoding: str,
        break_symmetry: bool = True,
        control: Control | None = None,
    ) -> None:
        super().__init__(encoding)
        self.problem = problem
        self.squares = problem.board.size
        self.control = control
        self.complete = True  # false when building stopped part way (module docstring)
        self._prepare()
        try:
            self._build(break_symmetry)
        except Stopped:
            self.complete = False

    def _prepare(self) -> None:
        """What a subclass needs before its rules are built."""

    def _build(self, break_symmetry: bool) -> None:
        """Add the rules (with lex-leader symmetry breaking when asked); may raise
        :class:`Stopped`."""
        raise NotImplementedError

    def _stopped(self) -> bool:
        """True (and the formula marked incomplete) once the run has stopped."""
        if self.control is not None and self.control.stopped:
            self.complete = False
        return not self.complete

    def var(self, literal: Literal) -> int:
        return self.named(("x", *literal))

    def _add_position(self, rules: Rules) -> None:
        """Fixed variables (given pieces, blocked squares, given pawns) as unit clauses,
        and the clauses of pawns to place."""
        self.clauses += [[self.var(v) if value else -self.var(v)] for v, value in rules.fixed]
        for clause in checked(rules.clauses, self.control):
            self.clauses.append(
                [
                    self.named(("x", *key)) if value else -self.named(("x", *key))
                    for key, value in clause
                ]
            )

    def _add_bounded(self, rules: Rules) -> None:
        """The user's count rules, each a cardinality bound on its group."""
        for group, low, high in checked(rules.bounded, self.control):
            self.bound([self.named(("x", *v)) for v in group], low, high)

    def army(self, a: int) -> list[int]:
        return [self.var((a, s)) for s in range(self.squares)]

    def placement_vars(self) -> list[int]:
        """The variables that say where every piece stands."""
        return [v for a in range(len(self.problem.armies)) for v in self.army(a)]

    def cubes(self) -> list[list[int]]:
        """Assignments that split the formula into parts to solve apart (one: no split)."""
        return [[]]

    def objective_at_least(self, value: int) -> None:
        if self._stopped():
            return
        if self.problem.equal_armies:
            for a in range(len(self.problem.armies)):
                self.bound(self.army(a), value, None)
        else:
            scored = [v for a in self.problem.scored_armies for v in self.army(a)]
            self.bound(scored, value, None)

    def objective_at_most(self, value: int) -> None:
        if self._stopped():
            return
        self.bound(self.placement_vars(), 0, value)

    def decode(self, model: list[int]) -> Placement:
        true = set(v for v in model if v > 0)
        armies = range(len(self.problem.armies)) if not self.problem.free_pawns else (0, PAWN)
        chosen: list[Literal] = [
            (a, s) for a in armies for s in range(self.squares) if self.var((a, s)) in true
        ]
        return lines.trimmed(decode(self.problem, chosen))


class SquareFormula(Formula):
    """Every rule over ``(army, square)`` variables; counts exact as asked."""

    def _build(self, break_symmetry: bool) -> None:
        problem, control = self.problem, self.control
        rules = rules_of(problem)
        absent = {v for v, value in rules.fixed if not value}  # blocked squares, given pawns
        for group in checked(rules.at_most_one, control):
            self.at_most_one([self.var(v) for v in group if v not in absent])
        for a, b, line in checked(rules.exclusive_lines, control):
            if rules.armies == 2:
                self._owned_by_one(line)
            else:
                self.clauses.append([-self._occupies(a, line), -self._occupies(b, line)])
        for first, second in checked(rules.forbidden_pairs, control):
            self.clauses.append([-self.var(first), -self.var(second)])
        for group in checked(rules.cover, control):
            self.clauses.append([self.var(v) for v in group])
        for a, (army, filled) in checked(
            enumerate(zip(problem.armies, filled_lines(problem), strict=True)), control, every=1
        ):
            if filled:  # one piece a line: the count follows (filled_lines)
                self.clauses += [[self.var(v) for v in part] for part in filled]
            else:  # equal armies: the answer, trimmed to the smallest, keeps every given
                self.bound(self.army(a), problem.fewest(a), army.maximum)
        for group, k in checked(rules.exactly, control):
            self.bound([self.var(v) for v in group], k, k)
        self._add_bounded(rules)
        self._add_position(rules)
        if break_symmetry:
            order = [(a, s) for s in range(self.squares) for a in range(len(problem.armies))]
            for mapping in checked(symmetry.group(problem), control, every=1):
                self.clauses += checked(
                    symmetry.lex_leader(order, mapping, self.var, self.fresh), control
                )

    def cubes(self) -> list[list[int]]:
        """One cube per free square of the shortest line that must hold a piece (of
        two squares or more; :func:`~chessplace.encodings.boolean.filled_lines`: a rank
        or file of blocked n-queens): the line holds exactly one, so the cubes share
        no placement and miss none. No split without such a line."""
        parts = [part for army in filled_lines(self.problem) for part in army if len(part) > 1]
        if not parts:
            return [[]]
        return [[self.var(v)] for v in min(parts, key=len)]

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

    def __init__(
        self,
        problem: Problem,
        encoding: str,
        break_symmetry: bool = True,
        control: Control | None = None,
        compare_first: Sequence[frozenset[int]] = (),
    ) -> None:
        self.compare_first = compare_first
        super().__init__(problem, encoding, break_symmetry, control)

    def _prepare(self) -> None:
        self.model = lines.LineModel(self.problem)

    @cached_property
    def _line_index(self) -> dict[frozenset[int], int]:
        """Each line's index in the model, by its squares."""
        return {frozenset(line): i for i, line in enumerate(self.model.lines)}

    def comparison_order(self) -> list[int]:
        """The lines in the order lex-leader compares their colours: those of
        ``compare_first`` (given by their squares), then the rest as the model lists
        them."""
        head = [self._line_index[line] for line in self.compare_first]
        return head + sorted(set(range(len(self.model.lines))) - set(head))

    def white_line(self, squares: frozenset[int]) -> int:
        """The variable "this line is white", for the line on these squares."""
        return self._white(self._line_index[squares])

    def _build(self, break_symmetry: bool) -> None:
        problem, model, control = self.problem, self.model, self.control
        for square, through in checked(enumerate(model.square_lines), control):
            white, black = self.var((0, square)), self.var((1, square))
            if not through:
                self.clauses.append([-white, -black])
                continue
            colours = [self._white(i) for i in through]
            self.clauses += [[-white, c] for c in colours] + [[-black, -c] for c in colours]
            self.clauses.append([white, *(-c for c in colours)])
            self.clauses.append([black, *colours])
        for a, army in checked(enumerate(problem.armies), control, every=1):
            self.bound(self.army(a), army.minimum, None)
        if break_symmetry:
            order = [(i, 0) for i in self.comparison_order()]
            for image, swap in checked(model.symmetries(), control, every=1):
                self.clauses += checked(
                    symmetry.lex_leader(
                        order, _line_mapping(image, swap), self._colour, self.fresh
                    ),
                    control,
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


class DominationFormula(Formula):
    """Domination: per square to dominate one clause of the squares that cover it,
    independence where the army's pieces must not attack each other, the counts, and
    lex-leader symmetry breaking (row-major order of squares).

    Every count over the squares lists them along a Hilbert curve, so that the
    counting network first adds up squares that lie near each other (Rostami and
    Bright, 2025: measured here, refuting 5 queens on 12×12 ran 5 to 10 times
    faster than with squares rank by rank).
    """

    def _prepare(self) -> None:
        self._curve = [self.var((0, s)) for s in hilbert_order(self.problem.board)]

    def _build(self, break_symmetry: bool) -> None:
        problem, control = self.problem, self.control
        rules = rules_of(problem)
        for group in checked(rules.cover, control):
            self.clauses.append([self.var(v) for v in group])
        absent = {v for v, value in rules.fixed if not value}  # blocked squares, given pawns
        for line in checked(rules.at_most_one, control):  # independent domination
            self.at_most_one([self.var(v) for v in line if v not in absent])
        for first, second in checked(rules.forbidden_pairs, control):
            self.clauses.append([-self.var(first), -self.var(second)])
        self._add_bounded(rules)
        self._add_position(rules)
        army = problem.armies[0]
        self.bound(self._curve, army.minimum, army.maximum)
        if break_symmetry:
            order = [(0, s) for s in range(self.squares)]
            for mapping in checked(symmetry.group(problem), control, every=1):
                self.clauses += checked(
                    symmetry.lex_leader(order, mapping, self.var, self.fresh), control
                )

    def objective_at_most(self, value: int) -> None:
        if self._stopped():
            return
        self.bound(self._curve, 0, value)

    def cubes(self) -> list[list[int]]:
        """Which of the ``DOMINATION_CUBE_RANKS`` middle ranks hold a piece, on boards
        of at least ``DOMINATION_CUBE_MIN`` squares."""
        board = self.problem.board
        if board.size < DOMINATION_CUBE_MIN:
            return [[]]
        first = max(0, (board.rows - DOMINATION_CUBE_RANKS) // 2)
        ranks = range(first, min(board.rows, first + DOMINATION_CUBE_RANKS))
        split = [self._rank_used(rank) for rank in ranks]
        return [
            [lit if sign else -lit for lit, sign in zip(split, signs, strict=True)]
            for signs in product([True, False], repeat=len(split))
        ]

    def _rank_used(self, rank: int) -> int:
        """A variable that is true exactly when ``rank`` holds a piece."""
        key = ("rank used", rank)
        known = self.knows(key)
        flag = self.named(key)
        if not known:
            pieces = [
                self.var((0, rank * self.problem.board.cols + f))
                for f in range(self.problem.board.cols)
            ]
            self.clauses += [[-piece, flag] for piece in pieces]
            self.clauses.append([-flag, *pieces])
        return flag

    def decode(self, model: list[int]) -> Placement:
        true = set(v for v in model if v > 0)
        chosen: list[Literal] = [(0, s) for s in range(self.squares) if self.var((0, s)) in true]
        return decode(self.problem, chosen)


def hilbert_order(board: Board) -> list[int]:
    """The squares of ``board`` in the order a Hilbert curve over the smallest
    2^m × 2^m square holding it visits them."""
    side = 1
    while side < max(board.rows, board.cols):
        side *= 2
    order: list[int] = []
    for d in range(side * side):
        file, rank = _hilbert_point(side, d)
        if board.contains((file, rank)):
            order.append(board.index((file, rank)))
    return order


def _hilbert_point(side: int, d: int) -> tuple[int, int]:
    """The ``d``-th point of the Hilbert curve on a ``side`` × ``side`` grid."""
    x = y = 0
    step = 1
    while step < side:
        rx = 1 & (d // 2)
        ry = 1 & (d ^ rx)
        if ry == 0:
            if rx == 1:
                x, y = step - 1 - x, step - 1 - y
            x, y = y, x
        x, y = x + step * rx, y + step * ry
        d //= 4
        step *= 2
    return x, y


def formula_for(
    problem: Problem,
    encoding: str | None,
    control: Control | None = None,
    break_symmetry: bool = True,
) -> Formula:
    """The strongest formula for finding or optimising ``problem``, built until
    ``control`` stops; ``encoding`` ``None`` takes the one measured best for it."""
    if problem.dominating:
        kind: type[Formula] = DominationFormula
    elif lines.refusal(problem) is None:
        kind = LineFormula
    else:
        kind = SquareFormula
    default = DOMINATION_ENCODING if problem.dominating else DEFAULT_ENCODING
    return kind(problem, encoding or default, break_symmetry, control)
