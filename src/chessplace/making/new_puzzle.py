"""A new region puzzle, as the faces ask for one: the grid made unique (and graded when a
difficulty is asked for) through :mod:`chessplace.api`, whose answers are verified."""

from __future__ import annotations

import time
from itertools import islice

from chessplace import api
from chessplace.core.errors import BadRequest
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result, Status
from chessplace.making.carving import GenerationStopped
from chessplace.making.generate import generate_grid
from chessplace.making.reshaping import reshaper
from chessplace.notation.puzzles import REGION_PUZZLES, region_puzzle
from chessplace.regions.deduction import GRADES, GUESSING, Explanation, explain_from
from chessplace.runtime.control import Control


def generate(
    puzzle: str,
    n: int,
    *,
    stars: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    control: Control | None = None,
    difficulty: str | None = None,
) -> Result:
    """A new grid for a region puzzle (``queens-game``, ``star-battle``) whose solution
    is unique, proven by counting (limit 2); the placement's problem holds the grid.
    With ``difficulty`` (easy, medium, hard) the rules of :mod:`chessplace.regions.deduction`
    solve it with that grade. The same ``seed`` gives the same grid; the note names its
    grade."""
    if difficulty is not None and difficulty not in GRADES:
        raise BadRequest(f"difficulty is one of {', '.join(GRADES)}, not {difficulty!r}")
    if puzzle not in REGION_PUZZLES:
        raise BadRequest(f"generate makes {' and '.join(REGION_PUZZLES)} grids, not {puzzle!r}")
    if puzzle == "queens-game" and stars not in (None, 1):
        raise BadRequest("stars are for star-battle; the Queens game has one queen per row")
    if difficulty == GRADES[0] and (stars or 1) > 1:
        raise BadRequest(
            f"no grid with {stars} stars per line is easy: the easy rules could only start "
            f"on a region of {stars} squares, whose stars would touch; ask for medium or hard"
        )
    control = control or Control(time_limit)
    started = time.perf_counter()
    maker = _Maker(puzzle, stars, difficulty, control)
    reshaped = reshaper(stars or 1, difficulty, maker.explained, control)
    try:
        placement = generate_grid(
            maker.build,
            n,
            stars or 1,
            seed,
            maker.first_two,
            control,
            maker.graded,
            maker.by_rules,
            reshaped,
        )
    except GenerationStopped:
        return Result(Status.UNKNOWN, control.engine, seconds=time.perf_counter() - started)
    return Result(
        Status.FEASIBLE,
        control.engine,
        placement,
        count=1,
        seconds=time.perf_counter() - started,
        note=f"the grid's only solution; difficulty: {maker.grade_of(_rows(placement))}",
    )


class _Maker:
    """What the generator asks of a grid: its problem, its first two solutions, its
    explanation by the rules (worked out once per grid and ceiling) and grade."""

    def __init__(
        self, puzzle: str, stars: int | None, difficulty: str | None, control: Control
    ) -> None:
        self.puzzle, self.stars, self.difficulty, self.control = puzzle, stars, difficulty, control
        self._explained: dict[tuple[tuple[str, ...], str], Explanation] = {}

    def build(self, rows: tuple[str, ...]) -> Problem:
        return region_puzzle(self.puzzle, rows, self.stars)

    def first_two(self, problem: Problem) -> list[Placement]:
        return list(islice(api.solutions(problem, control=self.control), 2))

    def explained(self, rows: tuple[str, ...], ceiling: str) -> Explanation:
        key = (rows, ceiling)
        if key not in self._explained:
            regions = self.build(rows).regions
            assert regions is not None
            control = self.control
            self._explained[key] = explain_from(
                regions, stop=lambda: control.stopped, ceiling=ceiling
            )
        return self._explained[key]

    def grade_of(self, rows: tuple[str, ...]) -> str:
        return self.explained(rows, GRADES[-1]).grade

    def by_rules(self, rows: tuple[str, ...]) -> bool:
        return self.grade_of(rows) != GUESSING

    def graded(self, placement: Placement) -> bool:
        return self.difficulty is None or self.grade_of(_rows(placement)) == self.difficulty


def _rows(placement: Placement) -> tuple[str, ...]:
    """The grid of a region puzzle's placement."""
    regions = placement.problem.regions
    assert regions is not None
    return regions.rows
