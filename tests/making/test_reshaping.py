"""Reshaping (``making.reshaping``): a unique grid on which the rules get stuck is
reshaped, its stars kept where they are, into one the rules solve; the generator's
hook keeps a grid solved at the grade asked and draws again for a harder one."""

from __future__ import annotations

import random

from chessplace import api
from chessplace.making.carving import rows_of
from chessplace.making.reshaping import reshape, reshaper
from chessplace.notation.puzzles import region_puzzle
from chessplace.regions.deduction import GUESSING, Explanation
from chessplace.regions.deduction import explain_from as explain
from chessplace.regions.rules import Step
from chessplace.runtime.control import Control
from tests.regions.test_star_deduction import _check_steps

STUCK_GRID = (
    "AABBBCCCDD",
    "AABEBBCDDD",
    "AABEEBCCCD",
    "AGEEEFFDDD",
    "AGGEEFFHDD",
    "AGGGFFHHHH",
    "AGFFFFHHHH",
    "GGGGGIHHJJ",
    "GIIIIIJJJJ",
    "IIIIIIJJJJ",
)
"""A unique 10×10 2-star grid (the generator's seed 10 before reshaping) on which the
rules stop after six steps."""


def test_reshaping_makes_a_stuck_grid_solvable_by_the_rules() -> None:
    problem = region_puzzle("star-battle", STUCK_GRID, 2)
    assert problem.regions is not None
    assert explain(problem.regions).grade == GUESSING
    (solution,) = api.solutions(problem)
    pieces = sorted(solution.armies[0])
    grid = [[problem.regions.region_of((f, r)) for f in range(10)] for r in range(10)]
    reshaped = reshape(grid, 2, pieces, "hard", random.Random(0), Control(120))
    assert reshaped is not None
    moved = sum(grid[r][f] != reshaped[r][f] for r in range(10) for f in range(10))
    assert 0 < moved <= 10
    assert not any(reshaped[r][f] != grid[r][f] for f, r in pieces)  # the stars stay put
    rows = rows_of(reshaped)
    _check_steps(rows, 2)
    assert explain(region_puzzle("star-battle", rows, 2).regions).pieces == tuple(pieces)


def test_the_generator_hook_passes_over_a_grid_easier_than_asked() -> None:
    """A grid already solved at a grade is kept when that grade is wanted (or none is),
    and drawn again (``None``) when a harder one is: it is not counted for nothing."""
    grid = [[0] * 10 for _ in range(10)]
    rng = random.Random(0)

    def medium(rows: tuple[str, ...], ceiling: str) -> Explanation:
        step = Step("confined", (), ((0, 0),), "region A is confined to rank 1")
        assert step.grade == "medium"
        return Explanation((step,), True, ())

    assert reshaper(2, "hard", medium, Control())(grid, [], rng) is None
    assert reshaper(2, "medium", medium, Control())(grid, [], rng) is grid
    assert reshaper(2, None, medium, Control())(grid, [], rng) is grid
