"""Plain exhaustive search for small boards: the oracle the tests trust.

It knows nothing of lines or encodings: two squares conflict when one
piece's move, repeated along a straight path, reaches the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from chessplace.core.board import Board, Square
from chessplace.core.features import Feature
from chessplace.core.pieces import Piece
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem, Sense
from chessplace.core.result import Result, Status
from chessplace.engines.base import Engine, Task
from chessplace.runtime.control import Control

MAX_SQUARES = 36
MAX_SQUARES_SEVERAL_ARMIES = 16
MAX_SQUARES_REGIONS = 64
"""Region grids fill rank by rank with k pieces each, so 8×8 stays small."""


def reaches(piece: Piece, start: Square, target: Square, board: Board) -> bool:
    """True when ``piece`` on ``start`` attacks ``target`` on an empty ``board``."""
    if board.shape.joined:
        return _reaches_round(piece, start, target, board)
    dx, dy = target[0] - start[0], target[1] - start[1]
    for move in piece.moves:
        for sx, sy in move.directions:
            k = dx // sx if sx else dy // sy
            if k >= 1 and (k * sx, k * sy) == (dx, dy) and (move.reach is None or k <= move.reach):
                return True
    return False


def _reaches_round(piece: Piece, start: Square, target: Square, board: Board) -> bool:
    """:func:`reaches` on a board whose shape joins edges: each move's steps taken one by
    one, wrapping."""
    for move in piece.moves:
        for dx, dy in move.directions:
            square: Square | None = start
            for _ in range(board.size if move.reach is None else move.reach):
                square = board.step(square, dx, dy) if square is not None else None
                if square is None or square == start:
                    break
                if square == target:
                    return True
    return False


class ExhaustiveEngine(Engine):
    name = "exhaustive"
    supports = frozenset({Feature.TORUS, Feature.CYLINDER, Feature.REGIONS, Feature.DOMINATED})
    summary = "plain backtracking over every square; small boards; the test oracle"
    tasks = frozenset({Task.SOLVE, Task.OPTIMIZE, Task.COUNT})

    def refusal(self, problem: Problem, task: Task) -> str | None:
        reason = super().refusal(problem, task)
        if reason:
            return reason
        limit = MAX_SQUARES if len(problem.armies) == 1 else MAX_SQUARES_SEVERAL_ARMIES
        if problem.regions is not None:
            limit = MAX_SQUARES_REGIONS
        if problem.board.size > limit:
            return f"exhaustive search stops at {limit} squares for this problem"
        return None

    def solve(self, problem: Problem, control: Control) -> Result:
        for placement in _placements(problem, control):
            return Result(Status.FEASIBLE, self.name, placement)
        return Result(Status.UNKNOWN if control.stopped else Status.INFEASIBLE, self.name)

    def optimize(self, problem: Problem, control: Control) -> Result:
        free = problem.without_counts()
        best: Placement | None = None
        sign = 1 if free.sense is Sense.MAXIMIZE else -1
        for placement in _placements(free, control):
            if best is None or sign * placement.objective > sign * best.objective:
                best = placement
            if free.dominating:
                break  # dominating sets come smallest first
        if control.stopped:
            return Result(
                Status.UNKNOWN if best is None else Status.FEASIBLE,
                self.name,
                best,
                objective=None if best is None else best.objective,
            )
        if best is None:
            return Result(Status.INFEASIBLE, self.name)
        return Result(
            Status.OPTIMAL, self.name, best, objective=best.objective, bound=best.objective
        )

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        total = 0
        classes: set[object] = set()
        first: Placement | None = None
        for placement in _placements(problem, control):
            total += 1
            first = first or placement
            if unique:
                classes.add(placement.canonical_key())
        return Result(
            Status.PARTIAL if control.stopped else Status.COMPLETE,
            self.name,
            first,
            count=total,
            unique=len(classes) if unique else None,
        )


def _placements(problem: Problem, control: Control) -> Iterator[Placement]:
    """Every valid placement, each once."""
    if problem.dominating:
        yield from _dominating_sets(problem, control)
        return
    squares = list(problem.board.squares())
    armies = problem.armies
    chosen: list[set[Square]] = [set() for _ in armies]
    clashes = _clashes(problem, squares)

    held: dict[tuple[str, int], int] = {}  # pieces per rank, file and region
    regions = problem.regions

    def units(square: Square) -> tuple[tuple[str, int], ...]:
        if regions is None:
            return ()
        return (("rank", square[1]), ("file", square[0]), ("region", regions.region_of(square)))

    def fits(a: int, square: Square) -> bool:
        if regions is not None and any(
            held.get(unit, 0) >= regions.per_line for unit in units(square)
        ):
            return False
        return all(
            clashes[a][b][square].isdisjoint(placed)
            for b, placed in enumerate(chosen)
            if b != a or problem.independent
        )

    def rank_short(position: int) -> bool:
        """True when a region grid's rank just finished without its pieces."""
        if regions is None or position == 0 or position % problem.board.cols:
            return False
        return held.get(("rank", squares[position - 1][1]), 0) < regions.per_line

    def complete() -> bool:
        sizes = [len(c) for c in chosen]
        if problem.equal_armies and len(set(sizes)) > 1:
            return False
        return all(army.admits(size) for army, size in zip(armies, sizes, strict=True))

    def search(position: int) -> Iterator[Placement]:
        if control.stopped:
            return
        left = len(squares) - position
        if any(len(c) + left < army.minimum for c, army in zip(chosen, armies, strict=True)):
            return
        if rank_short(position):
            return
        if position == len(squares):
            if complete():
                yield Placement.from_squares(problem, chosen)
            return
        yield from search(position + 1)
        square = squares[position]
        for a, army in enumerate(armies):
            if (army.maximum is None or len(chosen[a]) < army.maximum) and fits(a, square):
                chosen[a].add(square)
                for unit in units(square):
                    held[unit] = held.get(unit, 0) + 1
                yield from search(position + 1)
                for unit in units(square):
                    held[unit] -= 1
                chosen[a].remove(square)

    yield from search(0)


def _clashes(
    problem: Problem, squares: list[Square]
) -> list[list[dict[Square, frozenset[Square]]]]:
    """``[a][b][s]``: the squares where a piece of army ``b`` clashes with one of army
    ``a`` on ``s`` (either reaches the other)."""
    pieces = [army.piece for army in problem.armies]
    return [
        [
            {
                s: frozenset(
                    t
                    for t in squares
                    if reaches(pa, s, t, problem.board) or reaches(pb, t, s, problem.board)
                )
                for s in squares
            }
            for pb in pieces
        ]
        for pa in pieces
    ]


def _dominating_sets(problem: Problem, control: Control) -> Iterator[Placement]:
    """Sets of squares, smallest first, whose pieces cover the squares to dominate (and
    attack each other nowhere, for independent domination)."""
    army, board = problem.armies[0], problem.board
    squares = list(board.squares())
    targets = sorted(problem.squares_to_dominate)
    largest = len(squares) if army.maximum is None else min(army.maximum, len(squares))
    for size in range(army.minimum, largest + 1):
        for chosen in combinations(squares, size):
            if control.stopped:
                return
            if problem.independent and any(
                reaches(army.piece, s, t, board) for s, t in combinations(chosen, 2)
            ):
                continue
            if all(
                target in chosen or any(reaches(army.piece, s, target, board) for s in chosen)
                for target in targets
            ):
                yield Placement.from_squares(problem, [chosen])
