"""Peaceable armies as a colouring of lines.

When two armies of one riding piece (no leaps) must not attack each other,
every line the piece rides along holds pieces of at most one army. Colour
each line white or black: a white piece may stand only where every line
through its square is white, a black one only where every line is black.
Filling every such square gives the largest placement that colouring
allows, and every placement is contained in the filling of some colouring,
so asking "at least m of each" needs only the line colours as decisions:
6n − 6 of them for queens on an n×n board (lines of two or more squares) instead
of 2n² squares.

The board's symmetries permute lines and swapping the armies complements
every colour, so symmetry breaking acts on the colours directly. The SAT
model (:mod:`chessplace.engines.sat`) and the local search
(:mod:`chessplace.engines.heuristic.engine`) both work on this model.

The problem: R. A. Bosch, 1999, "Peaceably coexisting armies of queens", Optima 62.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from chessplace.core.attacks import Line, half_directions, lines_along
from chessplace.core.board import Square
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem, Sense

LineSymmetry = tuple[tuple[int, ...], bool]
"""A symmetry acting on line colours: the image of each line, and whether colours swap."""


def refusal(problem: Problem, most_armies: int = 2, blocked: bool = False) -> str | None:
    """Why the line model does not describe ``problem`` (two armies, or two up to
    ``most_armies``); ``None`` when it does. With ``blocked`` the caller takes blocked
    squares (rides pass over them, so the lines stay as they are), never pawns."""
    if problem.pawns or problem.free_pawns:
        return "pawns cut the lines a colour holds: the line model knows no pawns"
    if problem.counts or problem.one_way:
        return "the line model takes no count rules and no one-way attack rules"
    if problem.given:
        return "the line model takes no given pieces"
    if problem.blocked and not blocked:
        return "the line model knows no blocked squares"
    if not 2 <= len(problem.armies) <= most_armies:
        allowed = "two" if most_armies == 2 else f"2 to {most_armies}"
        return f"the line model is for {allowed} armies"
    if problem.independent or problem.dominating or problem.sense is Sense.MINIMIZE:
        return "the line model is for peaceable armies (most pieces, no cross attacks)"
    first = problem.armies[0]
    if any(army.piece != first.piece for army in problem.armies):
        return "the line model needs every army to have the same piece"
    if first.piece.bounded_vectors or not first.piece.ride_directions:
        return "the line model needs a piece that only rides (no leaps)"
    return None


@dataclass(frozen=True)
class LineModel:
    """The lines of one peaceable problem and the squares they meet."""

    problem: Problem

    @cached_property
    def lines(self) -> tuple[Line, ...]:
        """Every ride line, in the order symmetry breaking compares them.

        The first two directions (ranks and files for queens) are
        interleaved, then the others follow: colours of ranks and files
        decide the most, and comparing them early prunes the most.
        """
        board, piece = self.problem.board, self.problem.armies[0].piece
        families = [
            [line for line in lines_along(board, direction) if len(line) > 1]
            for direction in half_directions(piece)
        ]
        ordered = [
            family
            for direction, family in sorted(
                zip(half_directions(piece), families, strict=True),
                key=lambda pair: 0 in pair[0],
                reverse=True,
            )
            if family
        ]
        head: list[Line] = []
        if len(ordered) >= 2:
            first_family, second_family = ordered[0], ordered[1]
            for i in range(max(len(first_family), len(second_family))):
                head += first_family[i : i + 1] + second_family[i : i + 1]
            ordered = ordered[2:]
        return tuple(head + [line for family in ordered for line in family])

    @cached_property
    def square_lines(self) -> tuple[tuple[int, ...], ...]:
        """For each square, the indices of the lines through it."""
        through: list[list[int]] = [[] for _ in range(self.problem.board.size)]
        for index, line in enumerate(self.lines):
            for square in line:
                through[square].append(index)
        return tuple(tuple(indices) for indices in through)

    def symmetries(self) -> list[LineSymmetry]:
        """Every non-identity symmetry of the problem, acting on line colours."""
        board = self.problem.board
        by_squares = {frozenset(line): i for i, line in enumerate(self.lines)}
        swaps = [False, True] if self.problem.swappable_armies else [False]
        found: list[LineSymmetry] = []
        for k, symmetry in enumerate(board.symmetries()):
            image = tuple(
                by_squares[frozenset(board.index(symmetry(board.at(s))) for s in line)]
                for line in self.lines
            )
            found += [(image, swap) for swap in swaps if k > 0 or swap]
        return found

    def filled(self, white_lines: list[bool]) -> Placement:
        """The largest placement a colouring allows, trimmed to the armies' counts."""
        board = self.problem.board
        white: list[Square] = []
        black: list[Square] = []
        for square, through in enumerate(self.square_lines):
            if not through:
                continue  # on no line: neither army needs it (its own squares are free)
            colours = {white_lines[i] for i in through}
            if colours == {True}:
                white.append(board.at(square))
            elif colours == {False}:
                black.append(board.at(square))
        return trimmed(Placement.from_squares(self.problem, (white, black)))


def upper_bound(problem: Problem) -> int | None:
    """A quick proven bound on two or three equal armies: each army lies in the ranks
    and files of its colour, so with a_c ranks and b_c files of colour c,
    m <= min_c a_c·b_c (for two: m <= min(ab, (r-a)(c-b)))."""
    if refusal(problem, most_armies=3) is not None or not problem.equal_armies:
        return None
    rows, cols = problem.board.rows, problem.board.cols
    k = len(problem.armies)
    if not problem.armies[0].piece.has_rook_moves:
        return problem.board.size // k
    return max(_most_with(ranks, cols) for ranks in _splits(rows, k))


def _most_with(ranks: tuple[int, ...], cols: int) -> int:
    """The largest m with some split of ``cols`` files giving every colour c at least
    m squares in ``ranks[c]`` × its files: colour c needs ceil(m / ranks[c]) files."""
    if min(ranks) == 0:
        return 0
    low, high = 0, max(ranks) * cols  # low fits; search the largest that does
    while low < high:
        m = (low + high + 1) // 2
        if sum(-(-m // a) for a in ranks) <= cols:
            low = m
        else:
            high = m - 1
    return low


def _splits(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` numbers from 0 up, in order."""
    if parts == 1:
        return [(total,)]
    return [(a, *rest) for a in range(total + 1) for rest in _splits(total - a, parts - 1)]


def trimmed(placement: Placement) -> Placement:
    """Armies cut to their upper bounds (and to equal sizes when armies are equal),
    given pieces kept first."""
    problem = placement.problem
    limits = [army.maximum for army in problem.armies]
    if problem.equal_armies:
        smallest = min(placement.army_sizes)
        limits = [smallest if limit is None else min(limit, smallest) for limit in limits]
    return _cut(placement, limits)


def floored(placement: Placement) -> Placement:
    """Armies cut to the fewest pieces they may hold (:meth:`Problem.fewest`), given
    pieces kept: the least answer of a problem whose rules no removed piece breaks."""
    problem = placement.problem
    return _cut(placement, [problem.fewest(index) for index in range(len(problem.armies))])


def _cut(placement: Placement, limits: Sequence[int | None]) -> Placement:
    """Each army cut to its limit (``None``: kept whole), its given pieces kept first."""
    problem = placement.problem
    kept = []
    for index, (squares, limit) in enumerate(zip(placement.armies, limits, strict=True)):
        given = problem.given_of(index)
        ordered = sorted(squares, key=lambda square: (square not in given, square))
        kept.append(ordered if limit is None else ordered[:limit])
    return Placement.from_squares(problem, kept, placement.pawns)
