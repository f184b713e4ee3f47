"""The region search's cuts and its ``used`` question, against brute force on random
grids: the 2×2-box bound on a region's room (Star Battle) must never cut a solution,
and ``used`` must say exactly whether some solution puts a piece on a square."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessplace import api
from chessplace.core.board import Square
from chessplace.core.problem import Problem
from chessplace.core.regions import LABELS, Sketch, neighbours
from chessplace.engines.regions.engine import used
from chessplace.making.carving import joined_without
from chessplace.making.generate import grow_regions, random_placement
from chessplace.notation.puzzles import region_puzzle
from chessplace.runtime.control import Control


def _grown(n: int, k: int, seed: int) -> list[list[int]]:
    """Regions grown around a random placement of k per line (the generator's first
    steps, which use no search): the grid has that solution and often many more."""
    rng = random.Random(seed)
    while True:
        pieces = random_placement(n, k, rng, Control())
        assert pieces is not None
        grid = grow_regions(n, k, pieces, rng)
        if grid is not None:
            return grid


def _rows(grid: list[list[int]]) -> list[str]:
    return ["".join(LABELS[g] for g in row) for row in reversed(grid)]


def _one_per_line(grid: list[list[int]], allowed: set[Square]) -> list[tuple[int, ...]]:
    """Every Queens-game solution by brute force: a file per rank (``files[rank]``), on
    allowed squares, neighbouring ranks never touching, one piece per region."""
    n = len(grid)
    found = []
    for files in itertools.permutations(range(n)):
        if not all((f, r) in allowed for r, f in enumerate(files)):
            continue
        if any(abs(files[r] - files[r + 1]) < 2 for r in range(n - 1)):
            continue
        if len({grid[r][f] for r, f in enumerate(files)}) == n:
            found.append(files)
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 7), seed=st.integers(0, 10**6), holes=st.integers(0, 6))
def test_used_says_whether_a_solution_puts_a_piece_there(n: int, seed: int, holes: int) -> None:
    grid = _grown(n, 1, seed)
    allowed = set(itertools.product(range(n), repeat=2))
    rng = random.Random(seed + 1)
    for _ in range(holes):
        rank, file = rng.randrange(n), rng.randrange(n)
        allowed.discard((file, rank))
    solutions = _one_per_line(grid, allowed)
    sketch = Sketch.of(grid, allowed)
    for rank, file in itertools.product(range(n), repeat=2):
        if (file, rank) not in allowed:
            continue
        expected = any(files[rank] == file for files in solutions)
        assert used(sketch, (file, rank), 1_000) is expected, (rank, file)


def test_used_refuses_a_square_that_may_hold_no_piece() -> None:
    grid = _grown(5, 1, 0)
    allowed = set(itertools.product(range(5), repeat=2)) - {(3, 2)}
    with pytest.raises(ValueError, match="no piece can be put"):
        used(Sketch.of(grid, allowed), (3, 2), 10)


def _reshaped(grid: list[list[int]], moves: int, seed: int) -> list[list[int]]:
    """``grid`` after up to ``moves`` random squares went to a neighbouring region (each
    region stays joined and keeps three squares), so its solutions come and go."""
    rng = random.Random(seed)
    rows = [list(row) for row in grid]
    n = len(rows)
    made = 0
    for _ in range(20 * moves):
        f, r = rng.randrange(n), rng.randrange(n)
        here = rows[r][f]
        options = sorted({rows[s][g] for g, s in neighbours((f, r), n)} - {here})
        size = sum(row.count(here) for row in rows)
        if options and size > 3 and joined_without(rows, here, (f, r)):
            rows[r][f] = rng.choice(options)
            made += 1
            if made == moves:
                break
    return rows


def _star_problem(grid: list[list[int]]) -> Problem | None:
    try:
        return region_puzzle("star-battle", _rows(grid), stars=2)
    except ValueError:  # a region too small to hold two stars apart: refused as input
        return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 12))
def test_two_star_counts_agree_with_the_oracle(seed: int, moves: int) -> None:
    """The regions engine (with its region-room cut) counts what the exhaustive oracle
    counts on 8×8 2-star grids, grown around a placement and then reshaped at random
    so that their solutions come and go."""
    problem = _star_problem(_reshaped(_grown(8, 2, seed), moves, seed))
    if problem is None:
        return
    oracle = api.count(problem, solver="exhaustive")
    found = api.count(problem, solver="regions")
    assert found.count == oracle.count
    if found.placement is not None:
        assert found.placement.verify() == ()


@pytest.mark.parametrize(("seed", "solutions"), [(2, 72), (4, 547)])
def test_ten_by_ten_counts_agree_with_cpsat(seed: int, solutions: int) -> None:
    """Grown 10×10 2-star grids with many solutions: the regions engine and CP-SAT
    (enumerating) count the same."""
    problem = _star_problem(_grown(10, 2, seed))
    assert problem is not None
    assert api.count(problem, solver="cpsat").count == solutions
    assert api.count(problem, solver="regions").count == solutions


def _two_per_line(grid: list[list[int]]) -> list[frozenset[tuple[int, int]]]:
    """Every 2-star solution by brute force: two files per rank, apart, neighbouring
    ranks never touching, at most two per file and region on the way, two at the end."""
    n = len(grid)
    patterns = [(a, b) for a in range(n) for b in range(a + 2, n)]
    found: list[frozenset[tuple[int, int]]] = []
    files, regions = [0] * n, [0] * n

    def place(rank: int, before: tuple[int, ...], stars: list[tuple[int, int]]) -> None:
        if rank == n:
            if all(c == 2 for c in files + regions):
                found.append(frozenset(stars))
            return
        for pair in patterns:
            if any(abs(a - b) < 2 for a in pair for b in before):
                continue
            units = [grid[rank][f] for f in pair]
            for f, g in zip(pair, units, strict=True):
                files[f] += 1
                regions[g] += 1
            if max(files) <= 2 and max(regions) <= 2:
                place(rank + 1, pair, [*stars, *((f, rank) for f in pair)])
            for f, g in zip(pair, units, strict=True):
                files[f] -= 1
                regions[g] -= 1

    place(0, (), [])
    return found


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 12))
def test_used_with_two_stars_agrees_with_the_listed_solutions(seed: int, moves: int) -> None:
    """With two stars per line (where the region-room cut works too), ``used`` says
    whether some solution (listed by brute force, counted by the oracle too) puts a
    star on the square."""
    grid = _reshaped(_grown(8, 2, seed), moves, seed)
    problem = _star_problem(grid)
    if problem is None:
        return
    solutions = _two_per_line(grid)
    assert len(solutions) == api.count(problem, solver="exhaustive").count
    stars = set().union(*solutions)
    sketch = Sketch.of(grid, itertools.product(range(8), repeat=2), 2)
    for square in itertools.product(range(8), repeat=2):
        assert used(sketch, square, 1_000) is (square in stars), square
