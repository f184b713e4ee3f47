"""Reshaping a star grid's regions until the deduction rules solve it at a grade.

The rules of :mod:`chessplace.regions.deduction` are sound, so a grid they finish has
exactly one solution: reshaping needs no counting. Where the rules stop, a
*move* takes a square that is still unknown there and holds no piece of the
planned solution out of its region into a neighbouring one (its region stays
joined, none grows past twice the mean size), so the planned solution stays a
solution of every grid on the way. How far the rules got is scored by the
squares they decided and, where they decided few, by how close each region's
open squares come to one rank or file (a region confined to a line is where a
player starts). Moves are weighed by running the rules on from where they
stopped (quick, though not a proof for the new grid); the first of them, best
first, that makes the rules, run again from the start, score higher than before
is kept. This is the
reshaping players' generators do when deduction stalls.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chessplace.core.board import Square
from chessplace.core.regions import Regions, neighbours
from chessplace.making.carving import Grid, joined_without, rows_of
from chessplace.regions.deduction import (
    GRADES,
    GUESSING,
    Explanation,
    State,
    explain_from,
    next_step,
)
from chessplace.runtime.control import Control

ROUNDS_PER_SIDE = 3
"""Rounds of moves, per rank, before a grid is given up."""
WEIGHED = 24
"""Moves weighed (by running the rules on) per round."""
LONG_SHOTS = 3
"""Moves tried per round when none scores higher on the quick rules (the short chain,
which they leave out, may still get further)."""
MISSES = 3
"""Rounds in a row whose moves all fail before a grid is given up."""


Explain = Callable[[tuple[str, ...], str], Explanation]
"""A grid's explanation (by its rows) with the rules up to a grade; the generator's
caches them, so a grid graded once is not explained again."""


def reshaper(
    k: int, difficulty: str | None, explain: Explain, control: Control
) -> Callable[[Grid, list[Square], random.Random], Grid | None]:
    """The generator's hook for star grids: a grid the rules solve with the grade
    ``difficulty`` (at any grade without one) is kept, one they leave stuck or solve
    only with harder steps is reshaped toward it, and ``None`` (draw another) when it
    comes out easier or reshaping fails; without a ``difficulty`` a grid reshaping
    cannot fix is kept as it is (unique, but it needs guessing). ``explain`` explains
    a grid by its rows (every rule: ``hard``)."""
    target = difficulty or GRADES[-1]

    def grade(grid: Grid) -> str:
        return explain(rows_of(grid), GRADES[-1]).grade

    def reshaped(grid: Grid, pieces: list[Square], rng: random.Random) -> Grid | None:
        made = grade(grid)
        if made != GUESSING and GRADES.index(made) <= GRADES.index(target):
            return grid if difficulty in (None, made) else None
        found = reshape(grid, k, pieces, target, rng, control, explain)
        if found is None:
            return grid if difficulty is None else None
        return found if difficulty in (None, grade(found)) else None

    return reshaped


def reshape(
    grid: Grid,
    k: int,
    pieces: list[Square],
    ceiling: str,
    rng: random.Random,
    control: Control,
    explain: Explain | None = None,
) -> Grid | None:
    """``grid`` reshaped until the rules up to ``ceiling`` solve it (its one solution is
    then ``pieces``); ``None`` when they still stop after :data:`ROUNDS_PER_SIDE` × n
    rounds, or :data:`MISSES` rounds in a row find no move that gets them further, or
    ``control`` stops. ``explain`` (default: the rules run afresh) gives the rules' run
    on a grid."""
    if explain is None:

        def explain(rows: tuple[str, ...], ceiling: str) -> Explanation:
            return explain_from(Regions(rows, k), stop=lambda: control.stopped, ceiling=ceiling)

    n = len(grid)
    region = [list(row) for row in grid]
    solution = set(pieces)
    state, score = _stuck(region, k, explain(rows_of(region), ceiling))
    misses = 0
    for _ in range(ROUNDS_PER_SIDE * n):
        if state is None or control.stopped or misses == MISSES:
            break
        misses += 1
        for square, target in _weighed(region, k, state, score, solution, ceiling, rng, control):
            file, rank = square
            here = region[rank][file]
            region[rank][file] = target
            after, reached = _stuck(region, k, explain(rows_of(region), ceiling))
            if after is None or reached > score:
                state, score, misses = after, reached, 0
                break
            region[rank][file] = here
    return region if state is None and not control.stopped else None


def _stuck(grid: Grid, k: int, explanation: Explanation) -> tuple[State | None, int]:
    """Where the rules stopped on ``grid`` in ``explanation`` (``None`` when they
    solved it), and its :func:`_score`."""
    if explanation.solved:
        return None, 0
    state = State(Regions(rows_of(grid), k), {})
    for step in explanation.steps:
        state.apply(step)
    return state, _score(state)


def _score(state: State) -> int:
    """How far the rules got: the squares decided, each worth n, then for each region
    how few ranks or files its open squares span (n less the fewer of the two)."""
    n = state.n
    near = 0
    for number in range(n):
        rest = state.unknown(state.regions.squares(number))
        if rest:
            near += n - min(len({f for f, _ in rest}), len({r for _, r in rest}))
    return n * len(state.marks) + near


def _weighed(
    grid: Grid,
    k: int,
    state: State,
    score: int,
    solution: set[Square],
    ceiling: str,
    rng: random.Random,
    control: Control,
) -> list[tuple[Square, int]]:
    """Of :data:`WEIGHED` moves drawn at random, those after which the quick rules (all up
    to ``ceiling`` but the short chain), going on from ``state``, reach a higher
    :func:`_score` than ``state``'s ``score``, best first; the best :data:`LONG_SHOTS` when
    none does. Each is then tried by running every rule from the start, so this
    spares those runs on moves that change nothing."""
    n = len(grid)
    sizes = [0] * n
    for row in grid:
        for number in row:
            sizes[number] += 1
    moves = [
        (square, target)
        for square in ((f, r) for r in range(n) for f in range(n))
        if square not in state.marks and square not in solution
        for target in sorted({grid[r][f] for f, r in neighbours(square, n)})
        if target != grid[square[1]][square[0]] and sizes[target] < 2 * n
    ]
    rng.shuffle(moves)
    scored: list[tuple[int, float, Square, int]] = []
    for square, target in moves:
        if len(scored) == WEIGHED or control.stopped:
            break
        file, rank = square
        here = grid[rank][file]
        if not joined_without(grid, here, square):
            continue
        grid[rank][file] = target
        try:
            after = State(Regions(rows_of(grid), k), dict(state.marks))
        finally:
            grid[rank][file] = here
        scored.append((-_quick(after, ceiling), rng.random(), square, target))
    scored.sort()
    better = [(square, target) for quick, _, square, target in scored if -quick > score]
    return better or [(square, target) for _, _, square, target in scored[:LONG_SHOTS]]


def _quick(state: State, ceiling: str) -> int:
    """The :func:`_score` once the quick rules stop (0 when they break the marks)."""
    while not state.solved:
        step = next_step(state, ceiling=ceiling, chain=False)
        if step is None:
            break
        state.apply(step)
        if state.broken():
            return 0
    return _score(state)
