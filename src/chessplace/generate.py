"""New region puzzles whose solution is unique.

A random placement with k pieces in every rank and file, none touching,
comes first. Regions grow around its pieces (one region per piece, then
neighbouring regions merged until each holds k), so the placement solves
the grid. While the grid has a second solution, one square that holds a
piece of that other solution, but none of the intended one, moves to a
neighbouring region: the other solution then breaks the count of its
region, the intended one keeps every count. Every step asks the caller's
counter for at most two solutions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from chessplace.board import Square
from chessplace.control import Control
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.regions import LABELS, check_room, neighbours, parts

MAX_SIDE = 30
"""The largest grid generated (larger ones take long to make unique)."""
MAX_PATTERNS = 200_000
"""The most ways to fill one rank the random placement chooses among."""
SEARCH_NODES = 200_000
"""Steps of one attempt to draw a random placement before starting over."""

Grid = list[list[int]]
"""Region number per square, ``grid[rank][file]``."""
FirstTwo = Callable[[Problem], list[Placement]]
"""The first two solutions of a problem (fewer when it has fewer)."""


class GenerationStopped(Exception):
    """The run stopped (time limit or stop request) before the grid was unique."""


def generate(
    build: Callable[[tuple[str, ...]], Problem],
    n: int,
    k: int,
    seed: int | None,
    first_two: FirstTwo,
    control: Control,
) -> Placement:
    """The unique solution of a new n×n grid with ``k`` pieces per line; ``build``
    makes the problem of a grid's rows (top row first). The same seed gives the
    same grid. Raises ``ValueError`` when no such grid exists, and
    :class:`GenerationStopped` when ``control`` stops first."""
    if not 1 <= n <= MAX_SIDE:
        raise ValueError(f"grids are generated from 1×1 to {MAX_SIDE}×{MAX_SIDE}, not {n}×{n}")
    check_room(n, k)
    rng = random.Random(seed)
    pieces = random_placement(n, k, rng, control)
    if pieces is None:
        raise ValueError(f"no {n}×{n} grid has {k} non-touching pieces in every rank and file")
    while True:
        grid = grow_regions(n, k, pieces, rng)
        if grid is None:
            continue
        placement = _made_unique(build, grid, pieces, rng, first_two, control)
        if placement is not None:
            return placement


def _made_unique(
    build: Callable[[tuple[str, ...]], Problem],
    grid: Grid,
    pieces: list[Square],
    rng: random.Random,
    first_two: FirstTwo,
    control: Control,
) -> Placement | None:
    """Reshape ``grid`` until ``pieces`` is its only solution; ``None`` when stuck."""
    n = len(grid)
    intended = frozenset(pieces)
    for _ in range(8 * n * n):
        if control.stopped:
            raise GenerationStopped
        problem = build(rows_of(grid))
        found = first_two(problem)
        others = [p for p in found if p.armies[0] != intended]
        if len(found) == 1 and not others:
            return found[0]
        if not others:  # stopped before two were found
            raise GenerationStopped
        if not _reshape(grid, others[0].armies[0] - intended, rng):
            return None
    return None


def _reshape(grid: Grid, movable: frozenset[Square], rng: random.Random) -> bool:
    """Move one square of ``movable`` into a neighbouring region, keeping every region
    in one piece; False when no square can move."""
    n = len(grid)
    moves = [
        (square, grid[target[1]][target[0]])
        for square in sorted(movable)
        for target in neighbours(square, n)
        if grid[target[1]][target[0]] != grid[square[1]][square[0]]
    ]
    rng.shuffle(moves)
    for (file, rank), region in moves:
        old = grid[rank][file]
        rest = [s for s in _squares(grid, old) if s != (file, rank)]
        if rest and parts(rest) == 1:
            grid[rank][file] = region
            return True
    return False


def random_placement(n: int, k: int, rng: random.Random, control: Control) -> list[Square] | None:
    """``k`` pieces in every rank and file of an n×n board, none touching, drawn at
    random; ``None`` when there is none."""
    patterns = [
        frozenset(files)
        for files in combinations(range(n), k)
        if all(b - a > 1 for a, b in zip(files, files[1:], strict=False))
    ]
    if len(patterns) > MAX_PATTERNS:
        raise ValueError(f"{k} pieces per rank of {n}: too many ways to fill a rank")
    while True:
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
            return [(f, rank) for rank, pattern in enumerate(chosen) for f in sorted(pattern)]
        if control.stopped:
            raise GenerationStopped
        if exhausted:
            return None


def grow_regions(n: int, k: int, pieces: list[Square], rng: random.Random) -> Grid | None:
    """Regions around ``pieces``: a free square next to some region, drawn at random,
    joins one of the regions beside it until the board is full, then neighbouring regions merge until each holds ``k``
    pieces; ``None`` when the merging gets stuck."""
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
