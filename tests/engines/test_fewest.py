"""Asking for the fewest pieces where removing one breaks no rule (no domination): the
least answer is every army at its floor (its given pieces, and with equal armies as
many as any army's given pieces), found by SAT and CP-SAT alike."""

from __future__ import annotations

import itertools

import pytest

from chessplace import Army, Board, Problem, Sense, api, piece_from_text
from chessplace.core.board import Square
from chessplace.core.placement import Placement

QUEEN = piece_from_text("queen")


def _problem(side: int, given: tuple[frozenset[Square], ...], equal: bool) -> Problem:
    return Problem(
        "custom",
        Board.square(side),
        (Army("white", QUEEN), Army("black", QUEEN)),
        independent=False,
        equal_armies=equal,
        sense=Sense.MINIMIZE,
        given=given,
    )


def _brute_least(problem: Problem) -> int | None:
    """The least objective over every placement with at most 3 pieces an army."""
    squares = list(problem.board.squares())
    best = None
    sizes = range(4)
    for white_size, black_size in itertools.product(sizes, sizes):
        for white in itertools.combinations(squares, white_size):
            for black in itertools.combinations(squares, black_size):
                if set(white) & set(black):
                    continue
                placement = Placement.from_squares(problem, [white, black])
                if placement.verify() == ():
                    value = problem.objective(placement.army_sizes)
                    best = value if best is None else min(best, value)
    return best


@pytest.mark.parametrize("solver", ["sat", "cpsat"])
@pytest.mark.parametrize(
    ("given", "equal", "least"),
    [
        ((frozenset(), frozenset()), True, 0),  # was "Wrong bound: -1" from PySAT
        ((frozenset({(0, 0), (1, 0)}), frozenset()), True, 2),  # black must match white's 2
        ((frozenset({(0, 0), (1, 0)}), frozenset({(2, 3)})), False, 3),
    ],
)
def test_the_least_answer_is_the_floor(
    solver: str, given: tuple[frozenset[Square], ...], equal: bool, least: int
) -> None:
    problem = _problem(4, given, equal)
    result = api.optimize(problem, solver=solver)
    assert result.status.value == "optimal" and result.objective == least
    assert result.placement is not None and result.placement.verify() == ()
    assert problem.objective(result.placement.army_sizes) == least


def test_the_floor_agrees_with_brute_force_on_3x3() -> None:
    for given in [(frozenset(), frozenset()), (frozenset({(0, 0)}), frozenset({(2, 1)}))]:
        for equal in (True, False):
            problem = _problem(3, given, equal)
            assert api.optimize(problem, solver="sat").objective == _brute_least(problem)
