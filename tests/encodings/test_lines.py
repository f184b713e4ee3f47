"""The line colouring (``encodings.lines``) that the line engine and SAT share: its
lex-leader symmetry breaking keeps a member of every orbit, filling a colouring gives
a valid placement, and its quick upper bound never falls below the known optima."""

from __future__ import annotations

from itertools import product

import pytest

from chessplace import Board, Problem, optimize, piece_from_text, puzzles
from chessplace.data.reference import known
from chessplace.encodings import lines
from chessplace.encodings.formulas import LineFormula

SQUARE = Board.square

LINE_PROBLEMS = [
    *(puzzles.peaceable_queens(SQUARE(n)) for n in range(2, 5)),
    puzzles.peaceable(Board(3, 4), piece_from_text("R")),
    puzzles.peaceable(Board(4, 3), piece_from_text("B")),
    puzzles.peaceable(SQUARE(4), piece_from_text("B")),
    puzzles.peaceable_queens(SQUARE(4), white=3),
]


def _colourings(problem: Problem, break_symmetry: bool, at_least: int) -> set[frozenset]:
    """Every filled placement (as (army, square) pairs) the line formula admits."""
    from pysat.solvers import Solver

    target = problem.with_counts(at_least=at_least)
    formula = LineFormula(target, "totalizer", break_symmetry=break_symmetry)
    shown = formula.placement_vars()
    literal = {v: (a, s) for a in (0, 1) for s, v in enumerate(formula.army(a))}
    found = set()
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        while solver.solve():
            true = {v for v in solver.get_model() if v > 0}
            found.add(frozenset(literal[v] for v in shown if v in true))
            solver.add_clause([-v if v in true else v for v in shown])
    return found


def _orbit_key(problem: Problem, placement: frozenset) -> tuple:
    from chessplace.encodings.symmetry import group

    return min(tuple(sorted(map(g, placement))) for g in [lambda v: v, *group(problem)])


@pytest.mark.parametrize("problem", LINE_PROBLEMS, ids=[p.describe() for p in LINE_PROBLEMS])
def test_line_symmetry_breaking_keeps_every_orbit(problem: Problem) -> None:
    """Lex-leader on line colours (board symmetries × colour swap) is sound: for every
    army size, each orbit of filled placements keeps a member, and the optimum is the
    exhaustive one."""
    oracle = optimize(problem, solver="exhaustive")
    assert optimize(problem, solver="sat").objective == oracle.objective
    for at_least in range(1, (oracle.objective or 0) + 2):
        everything = _colourings(problem, False, at_least)
        kept = _colourings(problem, True, at_least)
        assert kept <= everything
        orbits = {_orbit_key(problem, p) for p in everything}
        assert {_orbit_key(problem, p) for p in kept} == orbits
        assert bool(everything) == (at_least <= (oracle.objective or 0))


def test_filling_a_colouring_gives_the_largest_valid_placement() -> None:
    problem = puzzles.peaceable_queens(SQUARE(5))
    model = lines.LineModel(problem)
    for colours in product([False, True], repeat=6):
        colouring = list(colours) + [False] * (len(model.lines) - 6)
        assert model.filled(colouring).verify() == ()


@pytest.mark.parametrize("n", range(1, 16))
def test_quick_upper_bound_holds(n: int) -> None:
    bound = lines.upper_bound(puzzles.peaceable_queens(SQUARE(n)))
    assert bound is not None and bound >= known("A250000", n)
