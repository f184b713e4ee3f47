"""Shaping a grid's regions while its solution stays unique: growing them square by
square from their cores (:func:`carve`) and evening out their sizes (:func:`even_out`).

Both rest on one fact: a square outside every region may hold no piece, so a
grid with fewer squares in its regions has no solution that the fuller grid
lacks. Adding a square (or moving one that holds no piece of the solution into
another region) can only add solutions, and only ones with a piece on that square,
so a unique grid stays unique exactly when no placement puts a piece there
(:func:`chessplace.api.region_square_used`, a search far smaller than a count of
the grid); taking squares out can only remove solutions. The grid being drawn goes
to the region search as a :class:`~chessplace.core.regions.Sketch`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chessplace import api
from chessplace.core.board import Square
from chessplace.core.regions import LABELS, Sketch, neighbours
from chessplace.runtime.control import Control

Grid = list[list[int]]
"""Region number per square, ``grid[rank][file]``."""

COUNT_BUDGETS = 5
"""Node budgets of the region search (:data:`chessplace.engines.regions.engine.BUDGET`
each) for one step; a step whose search takes longer is not taken."""
SETBACKS_PER_SIDE = 4
"""Times per rank an attempt may force a square into a region when stuck."""
FORCED_STEPS = 12
"""Squares a forced join may take back out of their regions to end the other solutions."""
REROUTES_PER_SIDE = 2
"""Times per rank the paths joining a region's pieces may be drawn again."""
EVENING_STEPS = 2
"""Moves the evening of region sizes may make, per square of the grid."""


def adds_solution(sketch: Sketch, square: Square) -> bool | None:
    """Whether a unique grid gained a solution when ``square`` joined it, or moved to
    another region (holding no piece of the solution): some placement puts a piece
    there. ``None`` when :data:`COUNT_BUDGETS` did not tell."""
    return api.region_square_used(sketch, square, COUNT_BUDGETS)


class GenerationStopped(Exception):
    """The run stopped (time limit or stop request) before the grid was unique."""


def carve(
    grid: Grid, k: int, pieces: list[Square], rng: random.Random, control: Control
) -> Grid | None:
    """Regions grown from the cores of ``grid`` one square at a time, the grid unique
    at every step. When a pass places no square, one of those left joins a region by
    force (:func:`_forced`) and the passes go on; ``None`` after
    :data:`SETBACKS_PER_SIDE` × n such setbacks."""
    n = len(grid)
    region = [list(row) for row in grid]
    owner = [[-1] * n for _ in range(n)]
    cores = _unique_cores(grid, pieces, region, k, rng)
    if cores is None:
        return None
    allowed = set(cores)
    for file, rank in cores:
        owner[rank][file] = grid[rank][file]
    pending = [(f, r) for r in range(n) for f in range(n) if owner[r][f] < 0]
    rng.shuffle(pending)
    setbacks = 0
    near: set[Square] | None = None  # after a setback: the squares near what it changed
    # (square, region) joins set aside until the next setback (see _joins)
    refused: set[tuple[Square, int]] = set()
    while pending:
        tried = [s for s in pending if near is None or s in near]
        waiting = [
            s for s in tried if not _joins(s, region, allowed, owner, k, refused, rng, control)
        ]
        if len(waiting) == len(tried) and near is not None:
            near = None  # nothing joined near the change: try every square again
            continue
        if len(waiting) == len(tried):
            setbacks += 1
            if setbacks > SETBACKS_PER_SIDE * n:
                return None
            changed = _forced(
                rng.choice(waiting), region, allowed, owner, cores, set(pieces), k, rng, control
            )
            refused.clear()  # squares were taken out: solutions may have gone
            near = {
                (f + df, r + dr) for f, r in changed for df in range(-2, 3) for dr in range(-2, 3)
            }
        pending = [(f, r) for r in range(n) for f in range(n) if owner[r][f] < 0]
        rng.shuffle(pending)
    return owner


def _unique_cores(
    grid: Grid, pieces: list[Square], region: Grid, k: int, rng: random.Random
) -> set[Square] | None:
    """Cores (:func:`_cores`) whose grid alone has the one solution ``pieces``: while a
    path square holds a piece of another solution, the paths are drawn again around it
    (for k = 1 the cores are the pieces alone); ``None`` when that does not come about."""
    blocked: set[Square] = set()
    solution = set(pieces)
    n = len(grid)
    for _ in range(REROUTES_PER_SIDE * n):
        cores = _cores(grid, pieces, blocked)
        if cores is None:
            return None
        sketch = Sketch.of(region, cores, k)
        other = api.another_region_solution(sketch, solution, COUNT_BUDGETS)
        if not other:
            return cores if other is not None else None
        blocked.add(rng.choice([s for s in other if s not in solution]))
    return None


def _cores(grid: Grid, pieces: list[Square], blocked: set[Square]) -> set[Square] | None:
    """The pieces, and in each region shortest paths that join its pieces without
    passing ``blocked``; ``None`` when ``blocked`` cuts a region's pieces apart."""
    n = len(grid)
    core = set(pieces)
    for piece in pieces:
        region = grid[piece[1]][piece[0]]
        targets = {p for p in pieces if grid[p[1]][p[0]] == region} - {piece}
        came: dict[Square, Square | None] = {piece: None}
        frontier = [piece]
        while frontier and not targets <= set(came):
            ahead = []
            for square in frontier:
                for f, r in neighbours(square, n):
                    if grid[r][f] == region and (f, r) not in came and (f, r) not in blocked:
                        came[(f, r)] = square
                        ahead.append((f, r))
            frontier = ahead
        if not targets <= set(came):
            return None
        for target in targets:
            step: Square | None = target
            while step is not None:
                core.add(step)
                step = came[step]
    return core


def _joins(
    square: Square,
    region: Grid,
    allowed: set[Square],
    owner: Grid,
    k: int,
    refused: set[tuple[Square, int]],
    rng: random.Random,
    control: Control,
) -> bool:
    """Give ``square`` to a region beside it (in random order) if one keeps the grid
    unique (:func:`adds_solution`). A region whose join adds a solution, or that the
    search could not decide within its budget, goes into ``refused`` and is not tried
    again until squares leave their regions: while squares are only added, a solution
    found stays, and an undecided search would likely spend its budget again."""
    if control.stopped:
        raise GenerationStopped
    file, rank = square
    options = sorted({owner[r][f] for f, r in neighbours(square, len(owner))} - {-1})
    rng.shuffle(options)
    for option in options:
        if (square, option) in refused:
            continue
        region[rank][file] = option
        allowed.add(square)
        if adds_solution(Sketch.of(region, allowed, k), square) is False:
            owner[rank][file] = option
            return True
        allowed.discard(square)
        refused.add((square, option))
    return False


def _forced(
    square: Square,
    region: Grid,
    allowed: set[Square],
    owner: Grid,
    cores: set[Square],
    solution: set[Square],
    k: int,
    rng: random.Random,
    control: Control,
) -> list[Square]:
    """Give ``square`` to a region beside it although that adds solutions, then take
    squares that another solution uses (never the first placement's, never a core) out
    of their regions until the grid is unique again: fewer squares never add a
    solution, and each one taken out ends the solution that used it. When that does
    not come about within a few steps, ``square`` leaves again (the grid, a part of a
    unique one, is unique). The squares that changed hands."""
    n = len(owner)
    file, rank = square
    options = sorted({owner[r][f] for f, r in neighbours(square, n)} - {-1})
    if not options:
        return []
    changed = [square]
    number = rng.choice(options)
    region[rank][file] = number
    allowed.add(square)
    owner[rank][file] = number
    for _ in range(FORCED_STEPS):
        if control.stopped:
            raise GenerationStopped
        sketch = Sketch.of(region, allowed, k)
        other = api.another_region_solution(sketch, solution, COUNT_BUDGETS)
        if not other:
            if other is not None:
                return changed
            break
        used = [s for s in other if s not in solution and s not in cores and s != square]
        if not used:
            break
        changed += _release([rng.choice(used)], owner, allowed, cores)
    return changed + _release([square], owner, allowed, cores)


def _release(
    squares: list[Square], owner: Grid, allowed: set[Square], cores: set[Square]
) -> list[Square]:
    """Take ``squares`` out of their regions, and with them any square no longer joined
    to its region's core; the squares taken out."""
    n = len(owner)
    released = list(squares)
    for file, rank in squares:
        owner[rank][file] = -1
    joined = set(cores)
    frontier = list(cores)
    while frontier:
        frontier = [
            (f, r)
            for q in frontier
            for f, r in neighbours(q, n)
            if (f, r) not in joined and owner[r][f] == owner[q[1]][q[0]]
        ]
        joined.update(frontier)
    for rank in range(n):
        for file in range(n):
            if (file, rank) not in joined:
                if owner[rank][file] >= 0:
                    released.append((file, rank))
                owner[rank][file] = -1
                allowed.discard((file, rank))
    return released


def even_out(
    grid: Grid,
    k: int,
    pieces: list[Square],
    rng: random.Random,
    control: Control,
    keep: Callable[[tuple[str, ...]], bool],
) -> Grid:
    """``grid`` with region sizes evened out, still unique: a square on the edge of a
    region moves into a neighbouring region at least two squares smaller, when its own
    region stays joined without it and the grid keeps exactly one solution (a move may
    add solutions that put a piece on the square moved); largest gaps first, until no move helps
    or :data:`EVENING_STEPS` × n² moves were made."""
    n = len(grid)
    region = [list(row) for row in grid]
    solution = set(pieces)
    budget = EVENING_STEPS * n * n
    while budget > 0 and not control.stopped and _even_once(region, k, solution, rng, keep):
        budget -= 1
    return region


def _even_once(
    region: Grid,
    k: int,
    solution: set[Square],
    rng: random.Random,
    keep: Callable[[tuple[str, ...]], bool],
) -> bool:
    """Make the first move of :func:`even_out` that keeps the grid unique (and ``keep``
    true of its rows), largest gap first; False when there is none."""
    n = len(region)
    every = [(file, rank) for rank in range(n) for file in range(n)]
    sizes = [0] * n
    for row in region:
        for number in row:
            sizes[number] += 1
    moves = sorted(
        (sizes[target] - sizes[here], rng.random(), (file, rank), here, target)
        for rank in range(n)
        for file in range(n)
        if (file, rank) not in solution
        for here in [region[rank][file]]
        for target in {region[r][f] for f, r in neighbours((file, rank), n)}
        if sizes[here] - sizes[target] >= 2
    )
    for _, _, (file, rank), here, target in moves:
        if not joined_without(region, here, (file, rank)):
            continue
        region[rank][file] = target
        if adds_solution(Sketch.of(region, every, k), (file, rank)) is False and keep(
            rows_of(region)
        ):
            return True
        region[rank][file] = here
    return False


def joined_without(region: Grid, number: int, square: Square) -> bool:
    """Whether region ``number`` stays in one piece (orthogonally) without ``square``."""
    n = len(region)
    left = {
        (f, r) for r in range(n) for f in range(n) if region[r][f] == number and (f, r) != square
    }
    if not left:
        return False
    seen = {next(iter(left))}
    frontier = list(seen)
    while frontier:
        frontier = [s for q in frontier for s in neighbours(q, n) if s in left and s not in seen]
        seen.update(frontier)
    return len(seen) == len(left)


def rows_of(grid: Grid) -> tuple[str, ...]:
    """The grid as text rows, top rank first, regions named by letters and digits."""
    return tuple("".join(LABELS[g] for g in row) for row in reversed(grid))
