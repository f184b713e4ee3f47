"""Blocked n-queens (CSPLib prob080) and n-queens completion (prob079) instances made
here with fixed seeds: every engine's status agrees with a brute force and with PySAT
on an encoding written in this file, and every answer verifies.

benchmarks/csplib.py runs the published instances; these stay small enough for the suite.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest

from chessplace import api
from chessplace.core.board import square_name
from chessplace.core.problem import Problem
from chessplace.core.result import Status
from chessplace.encodings.boolean import counts_follow, filled_lines
from chessplace.encodings.formulas import formula_for
from chessplace.engines import sat
from chessplace.engines.base import Task
from chessplace.engines.registry import choose
from chessplace.notation.options import problem_from_options
from chessplace.runtime.control import Control

Square = tuple[int, int]  # (file, rank), from 0


def blocked_instance(n: int, free: float, seed: int) -> frozenset[Square]:
    """Block squares in a random order until about ``free`` squares a rank are left,
    each rank and file keeping at least one (the rule of CSPLib's generator)."""
    generator = random.Random(seed)
    squares = [(f, r) for f in range(n) for r in range(n)]
    generator.shuffle(squares)
    rank_free, file_free = [n] * n, [n] * n
    blocked: set[Square] = set()
    for f, r in squares:
        if len(blocked) >= round(n * (n - free)):
            break
        if rank_free[r] > 1 and file_free[f] > 1:
            rank_free[r] -= 1
            file_free[f] -= 1
            blocked.add((f, r))
    return frozenset(blocked)


def completion_instance(n: int, given: int, seed: int) -> frozenset[Square]:
    """``given`` queens from a random row of distinct files (they may attack along a
    diagonal, and then there is no answer)."""
    generator = random.Random(seed)
    files = generator.sample(range(n), given)
    ranks = generator.sample(range(n), given)
    return frozenset(zip(files, ranks, strict=True))


def problem_of(n: int, blocked: frozenset[Square], given: frozenset[Square]) -> Problem:
    """The problem the CLI builds from ``--blocked`` and ``--given``."""
    return problem_from_options(
        "queens",
        n=n,
        blocked=[square_name(s) for s in sorted(blocked)] or None,
        given=[f"Q{square_name(s)}" for s in sorted(given)] or None,
    )


def brute_force(n: int, blocked: frozenset[Square], given: frozenset[Square]) -> bool:
    """Is there a permutation (file of each rank) off the blocked squares, through every
    given square, with no two queens on a diagonal?"""
    for files in permutations(range(n)):
        squares = {(f, r) for r, f in enumerate(files)}
        if squares & blocked or not given <= squares:
            continue
        if len({f + r for f, r in squares}) == n and len({f - r for f, r in squares}) == n:
            return True
    return False


def pysat_says(n: int, blocked: frozenset[Square], given: frozenset[Square]) -> bool:
    """PySAT (Glucose) on a plain encoding: one variable per free square, exactly one a
    rank and a file (pairwise), at most one a diagonal (pairwise), the givens as units."""
    from pysat.solvers import Glucose4

    def var(square: Square) -> int:
        return square[0] * n + square[1] + 1

    free = [(f, r) for f in range(n) for r in range(n) if (f, r) not in blocked]
    clauses: list[list[int]] = [[var(s)] for s in given]
    clauses += [[-var(s)] for s in given if s in blocked]
    lines: dict[tuple[str, int], list[Square]] = {}
    for f, r in free:
        for key in (("rank", r), ("file", f), ("sum", f + r), ("difference", f - r)):
            lines.setdefault(key, []).append((f, r))
    for kind in ("rank", "file"):
        for i in range(n):
            clauses.append([var(s) for s in lines.get((kind, i), [])])
    for squares in lines.values():
        clauses += [[-var(a), -var(b)] for i, a in enumerate(squares) for b in squares[i + 1 :]]
    with Glucose4(bootstrap_with=clauses) as solver:
        return bool(solver.solve())


def cases() -> list[tuple[int, frozenset[Square], frozenset[Square]]]:
    found = []
    for seed in range(8):
        n = 5 + seed % 4
        found.append((n, blocked_instance(n, 2.5 + (seed % 3) * 0.75, seed), frozenset()))
    for seed in range(6):
        n = 6 + seed % 3
        found.append((n, frozenset(), completion_instance(n, 2 + seed % 3, seed)))
    for seed in range(4):  # both at once
        n = 7
        blocked = blocked_instance(n, 4.5, 100 + seed)
        given = frozenset(s for s in completion_instance(n, 2, 100 + seed) if s not in blocked)
        found.append((n, blocked, given))
    return found


CASES = cases()


def test_the_cases_have_both_answers() -> None:
    answers = {brute_force(n, blocked, given) for n, blocked, given in CASES}
    assert answers == {True, False}


@pytest.mark.parametrize("solver", [None, "sat", "cpsat"])
@pytest.mark.parametrize(("n", "blocked", "given"), CASES)
def test_status_agrees_and_answers_verify(
    solver: str | None, n: int, blocked: frozenset[Square], given: frozenset[Square]
) -> None:
    expected = brute_force(n, blocked, given)
    assert pysat_says(n, blocked, given) == expected
    result = api.solve(problem_of(n, blocked, given), solver=solver)
    if not expected:
        assert result.status is Status.INFEASIBLE
        return
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert result.placement is not None
    assert result.placement.verify() == ()
    squares = result.placement.armies[0]
    assert len(squares) == n and not squares & blocked and given <= squares


def test_every_rank_and_file_holds_one_queen() -> None:
    problem = problem_of(8, frozenset({(0, 0), (3, 4)}), frozenset())
    (filled,) = filled_lines(problem)
    assert len(filled) == 16  # 8 ranks and 8 files, blocked squares left out
    assert sum(len(part) for part in filled) == 2 * (64 - 2)
    assert counts_follow(problem)
    assert filled_lines(problem_from_options("bishops", n=8)) == ((),)


def test_a_file_with_no_free_square_is_refuted_at_once() -> None:
    """A pigeonhole a cardinality bound would leave to the solver (40 queens, 39 files)."""
    n = 40
    blocked = frozenset((3, r) for r in range(n))
    problem = problem_of(n, blocked, frozenset())
    assert filled_lines(problem) == (((),),)
    for solver in ("sat", "cpsat"):
        assert api.solve(problem, solver=solver, time_limit=60).status is Status.INFEASIBLE


def test_sat_takes_boards_past_32_where_counts_follow_from_lines() -> None:
    n = 36
    blocked = blocked_instance(n, 12, 7)  # well below the transition: many answers
    problem = problem_of(n, blocked, frozenset())
    assert choose(problem, Task.SOLVE).engine.name == "sat"
    result = api.solve(problem, solver="sat", time_limit=120)
    assert result.placement is not None and result.placement.verify() == ()
    assert not result.placement.armies[0] & blocked
    optimum = problem_from_options("queens", n=n).without_counts()
    assert choose(optimum, Task.OPTIMIZE).engine.name != "sat"


@pytest.mark.parametrize(("n", "blocked", "given"), CASES[:10])
def test_cubes_part_the_placements(
    n: int, blocked: frozenset[Square], given: frozenset[Square]
) -> None:
    """One cube per free square of the shortest rank or file: some cube is satisfiable
    exactly when the instance is, and no two cubes share a placement."""
    from pysat.solvers import Solver

    formula = formula_for(problem_of(n, blocked, given), None)
    cubes = formula.cubes()
    assert len(cubes) > 1 and all(len(cube) == 1 for cube in cubes)
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        assert any(solver.solve(assumptions=cube) for cube in cubes) == brute_force(
            n, blocked, given
        )
        for first, second in combinations(cubes, 2):
            assert not solver.solve(assumptions=first + second)


@pytest.mark.parametrize(("n", "blocked", "given"), CASES)
def test_sat_answers_through_its_processes_when_the_budget_here_is_spent(
    monkeypatch: pytest.MonkeyPatch, n: int, blocked: frozenset[Square], given: frozenset[Square]
) -> None:
    """With no conflicts to spend in this process the engine solves in child processes
    (the cubes on two cores, the race on one), and answers as the brute force does."""
    monkeypatch.setattr(sat, "HERE_CONFLICTS", 0)
    problem = problem_of(n, blocked, given)
    for cores in (1, 2):
        control = Control()
        control.workers = cores
        result = sat.SatEngine().solve(problem, control)
        if not brute_force(n, blocked, given):
            assert result.status is Status.INFEASIBLE
            continue
        assert result.placement is not None and result.placement.verify() == ()
        squares = result.placement.armies[0]
        assert len(squares) == n and not squares & blocked and given <= squares
