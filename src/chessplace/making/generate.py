"""New region puzzles whose solution is unique.

A random placement with k pieces in every rank and file, none touching,
comes first. Its pieces are grouped into regions of k (each piece's region
grown at random, neighbouring ones merged until each holds k). Only the
cores of these regions are kept (the pieces, and for k > 1 paths joining
them); the regions are regrown from them and their sizes evened out by
:mod:`chessplace.making.carving`, the grid unique at every step; the first few grids
left with a region over twice the mean size are passed over. A star grid the
deduction rules leave stuck is then reshaped around its pieces until they solve it
(:mod:`chessplace.making.reshaping`, through the ``reshaped`` hook). The finished grid is
counted once more through :mod:`chessplace.api`, whose answers are verified.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations, pairwise

from chessplace.core.board import Square
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.regions import check_room, neighbours
from chessplace.making.carving import GenerationStopped, Grid, carve, even_out, rows_of
from chessplace.runtime.control import Control

MAX_SIDE = 30
"""The largest grid generated (larger ones take long to make unique)."""
MAX_PATTERNS = 200_000
"""The most ways to fill one rank the random placement chooses among."""
SEARCH_NODES = 200_000
"""Steps of one attempt to draw a random placement before starting over."""

UNEVEN_RETRIES = 3
"""Grids with a region over twice the mean size passed over before one is taken."""
FirstTwo = Callable[[Problem], list[Placement]]
"""The first two solutions of a problem (fewer when it has fewer)."""
Reshape = Callable[[Grid, list[Square], random.Random], "Grid | None"]
"""A star grid made solvable by the rules around its planned pieces (the grid itself
when it is already), or ``None`` to draw another."""


def generate_grid(
    build: Callable[[tuple[str, ...]], Problem],
    n: int,
    k: int,
    seed: int | None,
    first_two: FirstTwo,
    control: Control,
    accept: Callable[[Placement], bool] = lambda placement: True,
    solvable: Callable[[tuple[str, ...]], bool] = lambda rows: True,
    reshaped: Reshape | None = None,
) -> Placement:
    """The unique solution of a new n×n grid with ``k`` pieces per line; ``build``
    makes the problem of a grid's rows (top row first); grids whose solution
    ``accept`` refuses are passed over; with one piece per line, evening out the
    regions never makes a grid that ``solvable`` accepts (by its rows) one that it
    refuses (with more, where ``solvable`` is slow, ``accept`` alone judges the
    evened grid, after ``reshaped`` when given), and the first
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
        carved = None if grid is None else carve(grid, k, pieces, rng, control)
        if carved is None:
            continue
        # grading a Queens grid takes milliseconds, a star grid's up to seconds: only
        # the first is kept solvable move by move, the second is graded once at the end
        keep = solvable if k == 1 and solvable(rows_of(carved)) else _anything
        evened = even_out(carved, k, pieces, rng, control, keep)
        if max(sum(row.count(g) for row in evened) for g in range(n)) > 2 * n:
            uneven += 1
            if uneven <= UNEVEN_RETRIES:
                continue
        final = evened if k == 1 or reshaped is None else reshaped(evened, pieces, rng)
        if final is None:
            if control.stopped:
                raise GenerationStopped
            continue
        found = first_two(build(rows_of(final)))
        if control.stopped:  # a count cut short proves nothing
            raise GenerationStopped
        if len(found) == 1 and found[0].armies[0] == frozenset(pieces):
            if accept(found[0]):
                return found[0]
            continue
        raise RuntimeError(
            "a generated grid was not unique: a bug in the region counter or the rules"
        )


def _anything(rows: tuple[str, ...]) -> bool:
    return True


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
    masks = [sum(1 << f for f in pattern) for pattern in patterns]
    followers: dict[int, list[int]] = {}  # filled in as patterns are drawn, for every draw
    while True:
        pieces, exhausted = _draw(n, k, patterns, masks, followers, rng, control)
        if pieces is not None:
            return pieces
        if control.stopped:
            raise GenerationStopped
        if exhausted:
            return None


def _draw(
    n: int,
    k: int,
    patterns: list[frozenset[int]],
    masks: list[int],
    followers: dict[int, list[int]],
    rng: random.Random,
    control: Control,
) -> tuple[list[Square] | None, bool]:
    """One randomised depth-first search for a placement, rank by rank: the placement
    (or ``None``), and whether the search covered every way (``None`` is then proven).
    ``masks`` are the patterns' files as bits; ``followers`` keeps, for each pattern
    drawn so far, the patterns the next rank may take (none of their pieces touching)."""
    nodes = 0
    chosen: list[int] = []
    files = [0] * n
    exhausted = True
    everything = list(range(len(patterns)))

    def after(index: int) -> list[int]:
        if index not in followers:
            near = masks[index] | masks[index] << 1 | masks[index] >> 1
            followers[index] = [j for j, mask in enumerate(masks) if not mask & near]
        return followers[index]

    def fill(rank: int) -> bool:
        nonlocal nodes, exhausted
        if rank == n:
            return True
        left = n - rank - 1  # ranks after this one
        order = list(after(chosen[-1]) if chosen else everything)
        rng.shuffle(order)
        for index in order:
            nodes += 1
            if nodes > SEARCH_NODES or (nodes & 1023 == 0 and control.stopped):
                exhausted = False
                return False
            pattern = patterns[index]
            if any(files[f] == k for f in pattern):
                continue
            if any(k - files[f] - (f in pattern) > (left + 1) // 2 for f in range(n)):
                continue
            chosen.append(index)
            for f in pattern:
                files[f] += 1
            if fill(rank + 1):
                return True
            chosen.pop()
            for f in pattern:
                files[f] -= 1
        return False

    if fill(0):
        return [
            (f, rank) for rank, index in enumerate(chosen) for f in sorted(patterns[index])
        ], True
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
