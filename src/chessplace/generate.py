"""New region puzzles whose solution is unique.

A random placement with k pieces in every rank and file, none touching,
comes first. Its pieces are grouped into regions of k (each piece's region
grown at random, neighbouring ones merged until each holds k); only the
cores of these regions are kept (the pieces, and for k > 1 paths joining
them), every other square starts outside all regions and may hold no piece.
Then each such square, in random order, joins a region beside it whose
grid still has exactly one solution (the compiled counter, limit 2); a
square that no neighbouring region can take waits for the next pass. More
squares only add solutions, so the grid stays unique all the way. When a
pass places no square, one that is left joins a region by force and the
squares that the new solutions use (never the first placement's) leave their
regions until the grid is unique again (fewer squares never add a solution);
after too many such setbacks the attempt starts over. Then region sizes are evened
out: a square on the edge of a large region moves into a smaller neighbour
whenever the grid stays unique (and the region joined). The finished grid is counted
once more through :mod:`chessplace.api`, whose answers are verified.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations, pairwise

import numpy as np

from chessplace.board import Square
from chessplace.control import Control
from chessplace.engines.regions.engine import RegionRun, count_up_to
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.regions import LABELS, check_room, neighbours

MAX_SIDE = 30
"""The largest grid generated (larger ones take long to make unique)."""
MAX_PATTERNS = 200_000
"""The most ways to fill one rank the random placement chooses among."""
SEARCH_NODES = 200_000
"""Steps of one attempt to draw a random placement before starting over."""

COUNT_BUDGETS = 5
"""Node budgets of the counter (:data:`chessplace.engines.regions.engine.BUDGET` each) for
one step; a step whose count takes longer is not taken."""
SETBACKS_PER_SIDE = 4
"""Times per rank an attempt may force a square into a region when stuck."""
UNEVEN_RETRIES = 3
"""Grids with a region over twice the mean size passed over before one is taken."""
FORCED_STEPS = 12
"""Squares a forced join may take back out of their regions to end the other solutions."""
EVENING_STEPS = 2
"""Moves the evening of region sizes may make, per square of the grid."""

Grid = list[list[int]]
"""Region number per square, ``grid[rank][file]``."""
FirstTwo = Callable[[Problem], list[Placement]]
"""The first two solutions of a problem (fewer when it has fewer)."""


class GenerationStopped(Exception):
    """The run stopped (time limit or stop request) before the grid was unique."""


def generate_grid(
    build: Callable[[tuple[str, ...]], Problem],
    n: int,
    k: int,
    seed: int | None,
    first_two: FirstTwo,
    control: Control,
    accept: Callable[[Placement], bool] = lambda placement: True,
    solvable: Callable[[tuple[str, ...]], bool] = lambda rows: True,
) -> Placement:
    """The unique solution of a new n×n grid with ``k`` pieces per line; ``build``
    makes the problem of a grid's rows (top row first); grids whose solution
    ``accept`` refuses are passed over; evening out the regions never makes a grid
    that ``solvable`` accepts (by its rows) one that it refuses, and the first
    :data:`UNEVEN_RETRIES` grids with a region over twice the mean size are passed
    over too. The same seed gives the same grid. Raises ``ValueError`` when no such
    grid exists, and :class:`GenerationStopped` when ``control`` stops first."""
    if not 1 <= n <= MAX_SIDE:
        raise ValueError(f"grids are generated from 1×1 to {MAX_SIDE}×{MAX_SIDE}, not {n}×{n}")
    check_room(n, k)
    rng = random.Random(seed)
    uneven = 0
    while True:
        pieces = random_placement(n, k, rng, control)
        if pieces is None:
            raise ValueError(f"no {n}×{n} grid has {k} non-touching pieces in every rank and file")
        grid = grow_regions(n, k, pieces, rng)
        carved = None if grid is None else _carved(grid, k, pieces, rng, control)
        if carved is None:
            continue
        keep = solvable if solvable(rows_of(carved)) else lambda rows: True
        evened = _evened(carved, k, pieces, rng, control, keep)
        if max(sum(row.count(g) for row in evened) for g in range(n)) > 2 * n:
            uneven += 1
            if uneven <= UNEVEN_RETRIES:
                continue
        found = first_two(build(rows_of(evened)))
        if len(found) == 1 and found[0].armies[0] == frozenset(pieces):
            if accept(found[0]):
                return found[0]
            continue
        if control.stopped:
            raise GenerationStopped
        raise RuntimeError("a generated grid was not unique: a bug in the region counter")


def _carved(
    grid: Grid, k: int, pieces: list[Square], rng: random.Random, control: Control
) -> Grid | None:
    """Regions grown from the cores of ``grid`` one square at a time, the grid unique
    at every step. When a pass places no square, one of those left joins a region by
    force (:func:`_forced`) and the passes go on; ``None`` after
    :data:`SETBACKS_PER_SIDE` × n such setbacks."""
    n = len(grid)
    region = np.array(grid, dtype=np.int64)
    allowed = np.zeros((n, n), dtype=np.uint8)
    owner = [[-1] * n for _ in range(n)]
    cores = _cores(grid, pieces)
    for file, rank in cores:
        allowed[rank, file] = 1
        owner[rank][file] = grid[rank][file]
    if count_up_to(region, k, allowed, 2, COUNT_BUDGETS) != 1:
        return None
    pending = [(f, r) for r in range(n) for f in range(n) if owner[r][f] < 0]
    rng.shuffle(pending)
    setbacks = 0
    near: set[Square] | None = None  # after a setback: the squares near what it changed
    while pending:
        tried = [s for s in pending if near is None or s in near]
        waiting = [s for s in tried if not _joins(s, region, allowed, owner, k, rng, control)]
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
            near = {
                (f + df, r + dr) for f, r in changed for df in range(-2, 3) for dr in range(-2, 3)
            }
        pending = [(f, r) for r in range(n) for f in range(n) if owner[r][f] < 0]
        rng.shuffle(pending)
    return owner


def _joins(
    square: Square,
    region: np.ndarray,
    allowed: np.ndarray,
    owner: Grid,
    k: int,
    rng: random.Random,
    control: Control,
) -> bool:
    """Give ``square`` to a region beside it (in random order) if one keeps the grid
    unique."""
    if control.stopped:
        raise GenerationStopped
    file, rank = square
    options = sorted({owner[r][f] for f, r in neighbours(square, len(owner))} - {-1})
    rng.shuffle(options)
    for option in options:
        region[rank, file] = option
        allowed[rank, file] = 1
        if count_up_to(region, k, allowed, 2, COUNT_BUDGETS) == 1:
            owner[rank][file] = option
            return True
        allowed[rank, file] = 0
    return False


def _forced(
    square: Square,
    region: np.ndarray,
    allowed: np.ndarray,
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
    region[rank, file] = number
    allowed[rank, file] = 1
    owner[rank][file] = number
    for _ in range(FORCED_STEPS):
        if control.stopped:
            raise GenerationStopped
        run = RegionRun(region, k, keep=2, allowed=allowed)
        complete = run.run(2, budgets=COUNT_BUDGETS)
        others = [found for found in run.kept() if set(found) != solution]
        if not others:
            if complete and run.found == 1:
                return changed
            break
        used = [s for s in others[0] if s not in solution and s not in cores and s != square]
        if not used:
            break
        changed += _release([rng.choice(used)], owner, allowed, cores)
    return changed + _release([square], owner, allowed, cores)


def _release(
    squares: list[Square], owner: Grid, allowed: np.ndarray, cores: set[Square]
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
                allowed[rank, file] = 0
    return released


def _evened(
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
    add solutions, so each is counted, limit 2); largest gaps first, until no move helps
    or :data:`EVENING_STEPS` × n² moves were made."""
    n = len(grid)
    region = np.array(grid, dtype=np.int64)
    solution = set(pieces)
    budget = EVENING_STEPS * n * n
    while budget > 0 and not control.stopped and _even_once(region, k, solution, rng, keep):
        budget -= 1
    return [[int(number) for number in row] for row in region]


def _even_once(
    region: np.ndarray,
    k: int,
    solution: set[Square],
    rng: random.Random,
    keep: Callable[[tuple[str, ...]], bool],
) -> bool:
    """Make the first move of :func:`_evened` that keeps the grid unique (and ``keep``
    true of its rows), largest gap first; False when there is none."""
    n = region.shape[0]
    allowed = np.ones((n, n), dtype=np.uint8)
    sizes = np.bincount(region.ravel(), minlength=n)
    moves = sorted(
        (int(sizes[target] - sizes[here]), rng.random(), (file, rank), here, target)
        for rank in range(n)
        for file in range(n)
        if (file, rank) not in solution
        for here in [int(region[rank, file])]
        for target in {int(region[r, f]) for f, r in neighbours((file, rank), n)}
        if sizes[here] - sizes[target] >= 2
    )
    for _, _, (file, rank), here, target in moves:
        if not _joined_without(region, here, (file, rank)):
            continue
        region[rank, file] = target
        if count_up_to(region, k, allowed, 2, COUNT_BUDGETS) == 1 and keep(
            rows_of(region.tolist())
        ):
            return True
        region[rank, file] = here
    return False


def _joined_without(region: np.ndarray, number: int, square: Square) -> bool:
    """Whether region ``number`` stays in one piece (orthogonally) without ``square``."""
    n = region.shape[0]
    left = {
        (f, r) for r in range(n) for f in range(n) if region[r, f] == number and (f, r) != square
    }
    if not left:
        return False
    seen = {next(iter(left))}
    frontier = list(seen)
    while frontier:
        frontier = [s for q in frontier for s in neighbours(q, n) if s in left and s not in seen]
        seen.update(frontier)
    return len(seen) == len(left)


def _cores(grid: Grid, pieces: list[Square]) -> set[Square]:
    """The pieces, and in each region shortest paths that join its pieces."""
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
                    if grid[r][f] == region and (f, r) not in came:
                        came[(f, r)] = square
                        ahead.append((f, r))
            frontier = ahead
        for target in targets:
            step: Square | None = target
            while step is not None:
                core.add(step)
                step = came[step]
    return core


def random_placement(n: int, k: int, rng: random.Random, control: Control) -> list[Square] | None:
    """``k`` pieces in every rank and file of an n×n board, none touching, drawn at
    random; ``None`` when there is none."""
    patterns = [
        frozenset(files)
        for files in combinations(range(n), k)
        if all(b - a > 1 for a, b in pairwise(files))
    ]
    if len(patterns) > MAX_PATTERNS:
        raise ValueError(f"{k} pieces per rank of {n}: too many ways to fill a rank")
    while True:
        pieces, exhausted = _draw(n, k, patterns, rng, control)
        if pieces is not None:
            return pieces
        if control.stopped:
            raise GenerationStopped
        if exhausted:
            return None


def _draw(
    n: int, k: int, patterns: list[frozenset[int]], rng: random.Random, control: Control
) -> tuple[list[Square] | None, bool]:
    """One randomised depth-first search for a placement, rank by rank: the placement
    (or ``None``), and whether the search covered every way (``None`` is then proven)."""
    nodes = 0
    chosen: list[frozenset[int]] = []
    files = [0] * n
    exhausted = True

    def fill(rank: int) -> bool:
        nonlocal nodes, exhausted
        if rank == n:
            return True
        left = n - rank - 1  # ranks after this one
        order = list(patterns)
        rng.shuffle(order)
        for pattern in order:
            nodes += 1
            if nodes > SEARCH_NODES or control.stopped:
                exhausted = False
                return False
            if chosen and any(abs(a - b) <= 1 for a in pattern for b in chosen[-1]):
                continue
            counts = [files[f] + (f in pattern) for f in range(n)]
            if any(c > k or k - c > (left + 1) // 2 for c in counts):
                continue
            chosen.append(pattern)
            for f in pattern:
                files[f] += 1
            if fill(rank + 1):
                return True
            chosen.pop()
            for f in pattern:
                files[f] -= 1
        return False

    if fill(0):
        return [(f, rank) for rank, pattern in enumerate(chosen) for f in sorted(pattern)], True
    return None, exhausted


def grow_regions(n: int, k: int, pieces: list[Square], rng: random.Random) -> Grid | None:
    """Regions around ``pieces``: a free square next to some region, drawn at random,
    joins one of the regions beside it until the board is full, then neighbouring
    regions merge until each holds ``k`` pieces; ``None`` when the merging gets stuck."""
    grid = [[-1] * n for _ in range(n)]
    for number, (file, rank) in enumerate(pieces):
        grid[rank][file] = number
    frontier = {s for p in pieces for s in neighbours(p, n) if grid[s[1]][s[0]] < 0}
    while frontier:
        file, rank = square = rng.choice(sorted(frontier))
        frontier.remove(square)
        owners = [grid[s[1]][s[0]] for s in neighbours(square, n) if grid[s[1]][s[0]] >= 0]
        grid[rank][file] = rng.choice(owners)
        frontier.update(s for s in neighbours(square, n) if grid[s[1]][s[0]] < 0)
    if k > 1 and not _merge(grid, k, rng):
        return None
    return _renumbered(grid)


def _merge(grid: Grid, k: int, rng: random.Random) -> bool:
    """Merge neighbouring regions (one piece each) until every region holds ``k``."""
    held = dict.fromkeys({g for row in grid for g in row}, 1)
    while True:
        short = [g for g, count in held.items() if count < k]
        if not short:
            return True
        partners = {g: _partners(grid, g, held, k) for g in short}
        region = min(short, key=lambda g: (len(partners[g]), rng.random()))
        if not partners[region]:
            return False
        other = rng.choice(sorted(partners[region]))
        for row in grid:
            for file, g in enumerate(row):
                if g == other:
                    row[file] = region
        held[region] += held.pop(other)


def _partners(grid: Grid, region: int, held: dict[int, int], k: int) -> set[int]:
    """The regions next to ``region`` that it may merge with without passing ``k``."""
    n = len(grid)
    found = set()
    for square in _squares(grid, region):
        for f, r in neighbours(square, n):
            g = grid[r][f]
            if g != region and held[g] + held[region] <= k:
                found.add(g)
    return found


def _squares(grid: Grid, region: int) -> list[Square]:
    return [(f, r) for r, row in enumerate(grid) for f, g in enumerate(row) if g == region]


def _renumbered(grid: Grid) -> Grid:
    """Regions numbered 0, 1, … in reading order (top rank first)."""
    order: dict[int, int] = {}
    for row in reversed(grid):
        for g in row:
            order.setdefault(g, len(order))
    return [[order[g] for g in row] for row in grid]


def rows_of(grid: Grid) -> tuple[str, ...]:
    """The grid as text rows, top rank first, regions named by letters and digits."""
    return tuple("".join(LABELS[g] for g in row) for row in reversed(grid))
