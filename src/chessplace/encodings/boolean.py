"""The rules of a problem as constraints over 0/1 variables ``(army, square)``.

CP-SAT and SAT translate the same :class:`Rules` into their own APIs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from chessplace.core.attacks import Line, bounded_pairs, coverers, ride_lines
from chessplace.core.board import Square
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem

Literal = tuple[int, int]
"""A variable: ``(army, square index)``."""


@dataclass(frozen=True)
class Rules:
    """Constraints shared by the model-based engines.

    - ``at_most_one``: groups of variables of which at most one is true
      (one army per square; one piece of an independent army per line);
    - ``exclusive_lines``: ``(a, b, line)``: armies ``a`` and ``b`` do not
      both have a piece on ``line``;
    - ``forbidden_pairs``: two variables that are not both true (leaps);
    - ``cover``: for domination, per square the variables that cover it;
    - ``exactly``: ``(group, k)``: exactly ``k`` of the group are true (each
      rank, file and region of a grid of regions).
    """

    armies: int
    squares: int
    at_most_one: tuple[tuple[Literal, ...], ...]
    exclusive_lines: tuple[tuple[int, int, Line], ...]
    forbidden_pairs: tuple[tuple[Literal, Literal], ...]
    cover: tuple[tuple[Literal, ...], ...]
    exactly: tuple[tuple[tuple[Literal, ...], int], ...] = ()


def rules_of(problem: Problem) -> Rules:
    """The constraints that make a placement valid (counts not included)."""
    board = problem.board
    armies = problem.armies
    groups: list[tuple[Literal, ...]] = []
    if len(armies) > 1:
        groups += [tuple((a, s) for a in range(len(armies))) for s in range(board.size)]
    pairs: set[tuple[Literal, Literal]] = set()
    exclusive: set[tuple[int, int, Line]] = set()
    for a, army in enumerate(armies):
        if problem.independent:
            groups += [tuple((a, s) for s in line) for line in ride_lines(board, army.piece)]
            pairs.update(((a, s), (a, t)) for s, t in bounded_pairs(board, army.piece))
    for a, b in combinations(range(len(armies)), 2):
        for piece in {armies[a].piece, armies[b].piece}:
            exclusive.update((a, b, line) for line in ride_lines(board, piece))
            for s, t in bounded_pairs(board, piece):
                pairs.add(((a, s), (b, t)))
                pairs.add(((a, t), (b, s)))
    cover: tuple[tuple[Literal, ...], ...] = ()
    if problem.dominating:
        cover = tuple(
            tuple((0, s) for s in squares) for squares in coverers(board, armies[0].piece)
        )
    return Rules(
        armies=len(armies),
        squares=board.size,
        at_most_one=tuple(groups),
        exclusive_lines=tuple(sorted(exclusive)),
        forbidden_pairs=tuple(sorted(pairs)),
        cover=cover,
        exactly=_region_lines(problem),
    )


def _region_lines(problem: Problem) -> tuple[tuple[tuple[Literal, ...], int], ...]:
    """Every rank, file and region of a grid of regions with its count of pieces."""
    regions = problem.regions
    if regions is None:
        return ()
    board, k = problem.board, regions.per_line
    units: dict[tuple[str, int], list[Literal]] = {}
    for square in board.squares():
        literal = (0, board.index(square))
        for unit in (
            ("rank", square[1]),
            ("file", square[0]),
            ("region", regions.region_of(square)),
        ):
            units.setdefault(unit, []).append(literal)
    return tuple((tuple(group), k) for group in units.values())


def decode(problem: Problem, true_literals: list[Literal]) -> Placement:
    """The placement whose pieces are the true variables."""
    armies: list[list[Square]] = [[] for _ in problem.armies]
    for army, square in true_literals:
        armies[army].append(problem.board.at(square))
    return Placement.from_squares(problem, armies)
