"""Solving region puzzles (the Queens game, Star Battle) as a person does: named rules,
one step at a time, each saying what it marks and why.

A square is unknown, a piece (crown or star) or empty. Each rank, file and
region (a *unit*) needs ``per_line`` pieces; no two pieces touch. The rules,
easiest first:

- ``touching``: the neighbours of a piece are empty;
- ``unit full``: a unit with all its pieces has its other squares empty;
- ``last squares``: a unit whose unknown squares are exactly the pieces it still
  needs has a piece on each;
- ``confined``: when k regions have all their unknown squares inside k ranks
  (or files) that need no more pieces than the regions still do, those ranks'
  pieces all belong to them, so the other squares of those ranks are empty;
  likewise k ranks (or files) inside k regions. With k = 1 this is "a region
  confined to one rank";
- ``would empty a unit``: a piece on this square would leave some unit too few
  unknown squares, so the square is empty;
- ``tight room``: a unit's free squares fit the pieces it still needs only with a
  piece on certain squares (three free squares in a row needing two: the ends);
- ``would cramp a unit``: a piece on this square would leave some unit room for
  fewer pieces than it needs, counting that pieces may not touch;
- ``short chain``: a piece on this square, followed by the rules above up to
  ``tight room``, ends with a unit too cramped for its pieces, so the square is
  empty: the "what if" a player follows a few moves.

The last three rules are for two or more pieces per line (Star Battle): with
one, room is the number of unknown squares, which the rules above already
count, and a grid the other rules leave stuck is left to guessing. The
``tight room`` and ``would cramp`` rules also look at two neighbouring ranks
(or files) together, a unit of twice the pieces: their squares pair off into
2×2 blocks of one piece at most, the Star Battle player's block counting.

Every step is sound (it only marks what every solution agrees with), so a
puzzle the rules finish has exactly one solution. The grade of a step is
``easy`` for the first three rules, ``medium`` for ``confined`` with one unit and
``tight room`` in one unit, and ``hard`` for the rest. The rules are tried grade by
grade (the medium steps before any hard one, otherwise in the order above), so a
step is never harder than one that applies, and a ``ceiling`` keeps the rules to a
grade (the generator asks whether a grid is solved at that grade). When no rule
applies the puzzle needs a guess (or a rule not written here) and
:func:`explain_from` says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from chessplace.core.board import Square, square_name
from chessplace.core.regions import Regions
from chessplace.regions.rules import (
    MAX_CONFINED,
    State,
    Step,
    confined,
    last_squares,
    touching,
    unit_full,
    would_empty,
)
from chessplace.regions.star_rules import Stop, short_chain, tight_room, would_cramp

__all__ = [
    "GRADES",
    "GUESSING",
    "NO_SOLUTION",
    "Explanation",
    "State",
    "Step",
    "explain_from",
    "next_step",
]

GRADES = ("easy", "medium", "hard")
GUESSING = "needs guessing"
"""The grade of a grid whose rules stop short of the solution."""
NO_SOLUTION = "no solution"
"""The grade of a grid that has no solution."""


class DeadEnd(StrEnum):
    """Why no solution holds the pieces placed, so that no rule leads on."""

    GRID = "grid"
    """The grid has no solution."""
    MISPLACED = "misplaced"
    """Some pieces placed are in no solution."""
    TOGETHER = "together"
    """Each piece placed is in some solution, but no solution holds them all."""


Finder = Callable[[State, Stop], "Step | None"]

FINDERS: tuple[tuple[str, bool, Finder], ...] = (
    ("easy", False, lambda state, stop: touching(state)),
    ("easy", False, lambda state, stop: unit_full(state)),
    ("easy", False, lambda state, stop: last_squares(state)),
    ("medium", False, lambda state, stop: confined(state, range(1, 2))),
    ("medium", True, lambda state, stop: tight_room(state, pairs=False)),
    ("hard", False, lambda state, stop: confined(state, range(2, MAX_CONFINED + 1))),
    ("hard", False, lambda state, stop: would_empty(state)),
    ("hard", True, lambda state, stop: tight_room(state, pairs=True)),
    ("hard", True, lambda state, stop: would_cramp(state)),
    ("hard", True, short_chain),
)
"""The rules easiest first, each with the grade of its steps and whether it is for two
or more pieces per line only (with one, room is the number of unknown squares, which
the rules before it already count)."""


def next_step(
    state: State, stop: Stop = lambda: False, ceiling: str = "hard", chain: bool = True
) -> Step | None:
    """The easiest step that applies among the rules up to the grade ``ceiling`` (without
    the short chain unless ``chain``), or ``None`` when none does (or ``stop`` said to
    stop while a rule was trying squares)."""
    top = GRADES.index(ceiling)
    stars = state.regions.per_line > 1
    for grade, stars_only, finder in FINDERS:
        if GRADES.index(grade) > top or (stars_only and not stars):
            continue
        if finder is short_chain and not chain:
            continue
        step = finder(state, stop)
        if step is not None:
            return step
    return None


@dataclass(frozen=True)
class Explanation:
    """The steps from the start, whether they solve the puzzle, and its grade
    (the hardest step's; ``needs guessing`` when the rules stop short, ``no solution``
    when the grid has none)."""

    steps: tuple[Step, ...]
    solved: bool
    pieces: tuple[Square, ...]
    stopped: bool = False
    """True when ``stop`` cut the rules short: the grade is then unknown."""
    dead_end: DeadEnd | None = None
    """Why no solution holds the pieces placed, when none does: there are then no steps."""
    misplaced: tuple[Square, ...] = ()
    """The pieces placed that are in no solution of the grid (``DeadEnd.MISPLACED``)."""

    @property
    def next_piece(self) -> tuple[Step, tuple[Step, ...]] | None:
        """The first step that places a piece, and the steps before it."""
        for index, step in enumerate(self.steps):
            if step.places:
                return step, self.steps[:index]
        return None

    def dead_end_text(self) -> str:
        """Why there are no steps when no solution holds the pieces placed (one line)."""
        if self.dead_end is DeadEnd.GRID:
            return "the grid has no solution"
        if self.dead_end is DeadEnd.MISPLACED:
            named = " ".join(square_name(s) for s in self.misplaced)
            them = "it" if len(self.misplaced) == 1 else "them"
            text = f"no solution has a piece on {named}: take {them} off"
        else:
            named = " ".join(square_name(s) for s in self.pieces)
            text = f"no solution holds the pieces on {named} together"
        return text + (" (stopped before every piece was tried alone)" if self.stopped else "")

    @property
    def grade(self) -> str:
        if self.dead_end is not None:
            return NO_SOLUTION
        if not self.solved:
            return GUESSING
        grades = [GRADES.index(step.grade) for step in self.steps] or [0]
        return GRADES[max(grades)]


def explain_from(
    regions: Regions,
    placed: tuple[Square, ...] = (),
    stop: Stop = lambda: False,
    ceiling: str = "hard",
) -> Explanation:
    """Apply the rules (up to the grade ``ceiling``) until the puzzle is solved or none
    applies; ``placed`` are pieces already on the board (a player's progress).
    ``stop`` is asked between steps and trials, so a caller's time limit cuts a long
    grading short."""
    state = State(regions, {square: True for square in placed})
    steps: list[Step] = []
    while not state.solved and not stop():
        step = next_step(state, stop, ceiling)
        if step is None:
            break
        state.apply(step)
        steps.append(step)
    pieces = tuple(sorted(s for s, piece in state.marks.items() if piece))
    solved = state.solved and not state.broken()
    return Explanation(tuple(steps), solved, pieces, stopped=not solved and stop())
