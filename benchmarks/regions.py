"""Region puzzles: solve + prove uniqueness, and generate, against a baseline.

For each size a grid is generated (fixed seeds), then the preferred engine
(the compiled region search) and CP-SAT each count its solutions up to 2
(CP-SAT enumerates, stopping is not needed: a unique grid has one). Times are
medians of a few runs after a warm-up (Numba's load and CP-SAT's import are
start-up, not solving). Generation is timed per seed, with and without a difficulty (the plain
generation is the baseline), and the rules' grading of each grid on its own; for Star
Battle also at the difficulty without reshaping (grids the rules do not solve at that
grade passed over, as before reshaping), which ``--large`` runs on 14×14 3-star too.

``--carve`` times plain generation with carve's uniqueness test as it is (is the
square changed used by some placement? :func:`chessplace.making.carving.adds_solution`)
against the baseline that counts the whole grid up to two after each change (carve
before session 12; setting joins aside and the 2×2-box cut of the region search are
in both), on the same seeds in one process.

Targets (issue 13): 10×10 Queens game solved and proven unique < 20 ms,
17×17 < 1 s, 10×10 2-star Star Battle < 0.2 s; generating a unique 9×9
Queens game < 2 s, a 10×10 2-star Star Battle < 10 s.

    PYTHONPATH=src python benchmarks/regions.py [--quick] [--large] [--carve]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from types import ModuleType
from typing import Any

from chessplace import api
from chessplace.core.problem import Problem
from chessplace.faces.explain import explain
from chessplace.making import new_puzzle

SOLVE_CASES = (
    ("queens-game", 10, None, 0.02),
    ("queens-game", 15, None, 1.0),
    ("queens-game", 17, None, 1.0),
    ("star-battle", 10, 2, 0.2),
)
GENERATE_SECONDS = 60.0
"""How long a grid to solve may take to generate (17×17 often takes longer: skipped)."""
GENERATE_CASES = (("queens-game", 9, None, 2.0), ("star-battle", 10, 2, 10.0))
GRADED_CASES = (("queens-game", 9, None, "hard"), ("star-battle", 10, 2, "hard"))
"""Generation with ``difficulty``: the grid must be solved by the rules at that grade."""
LARGE_GRADED = (("star-battle", 14, 3, "hard"),)
"""With ``--large``: 14×14 3-star at ``hard`` (minutes a seed)."""
CARVE_CASES = (("queens-game", 15, None), ("star-battle", 10, 2))
"""Plain generation, carve's test against counting (``--large`` adds 14×14 3-star)."""
LARGE_CARVE = (("star-battle", 14, 3),)
UNRESHAPED_SECONDS = 300.0
"""The time limit of generation without reshaping (``> limit`` when it runs out)."""


@contextmanager
def swapped(module: ModuleType, name: str, value: object) -> Iterator[None]:
    """``module.name`` is ``value`` inside the block (the module's own functions look it
    up there at each call)."""
    names = vars(module)
    keep = names[name]
    names[name] = value
    try:
        yield
    finally:
        names[name] = keep


def counting_carve() -> AbstractContextManager[None]:
    """Carve and even out testing each change by counting the whole grid up to two, as
    before session 12 (joins that add a solution or run out of budget are set aside
    in both, as carve does now)."""
    from chessplace.core.regions import Sketch
    from chessplace.engines.regions.engine import RegionRun
    from chessplace.making import carving

    def counted(sketch: Sketch, square: Any) -> bool | None:
        run = RegionRun.of_sketch(sketch, keep=1)
        complete = run.run(2, budgets=carving.COUNT_BUDGETS)
        return False if complete and run.found == 1 else None

    return swapped(carving, "adds_solution", counted)


def without_reshaping() -> AbstractContextManager[None]:
    """Generation as before reshaping: a star grid is kept as it is, and one the rules
    do not solve at the grade asked is passed over (generate looks its hook maker up
    in the api module)."""

    def unchanged(*args: Any) -> Callable[..., Any]:
        return lambda grid, pieces, rng: grid

    return swapped(api, "reshaper", unchanged)


def timed(work: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls."""
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def unique_by(problem: Problem, solver: str) -> Callable[[], object]:
    def work() -> object:
        if solver == "regions":
            result = api.count(problem, limit=2, solver=solver)
        else:
            result = api.count(problem, solver=solver)
        assert result.count == 1, (solver, result.count)
        return result

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and seeds")
    parser.add_argument("--large", action="store_true", help="14×14 3-star at hard too")
    parser.add_argument("--carve", action="store_true", help="carve's test against counting")
    arguments = parser.parse_args()
    if arguments.carve:
        carve_against_counting(2 if arguments.quick else 4, arguments.large)
        return
    quick = arguments.quick
    runs, seeds = (3, 2) if quick else (7, 5)
    new_puzzle.generate("queens-game", 6, seed=0)  # warm-up: load the compiled search
    print("solve and prove unique (median s)")
    print(f"{'puzzle':<14}{'n':>4}{'k':>3}  {'regions':>9}  {'cpsat':>9}  {'target':>7}")
    for puzzle, n, stars, target in SOLVE_CASES:
        made = new_puzzle.generate(puzzle, n, stars=stars, seed=1, time_limit=GENERATE_SECONDS)
        if made.placement is None:
            print(f"{puzzle:<14}{n:>4}{stars or 1:>3}  no grid generated in {GENERATE_SECONDS:g} s")
            continue
        problem = made.placement.problem
        ours = timed(unique_by(problem, "regions"), runs)
        base = timed(unique_by(problem, "cpsat"), max(1, runs // 2))
        print(f"{puzzle:<14}{n:>4}{stars or 1:>3}  {ours:>9.4f}  {base:>9.4f}  {target:>7g}")
    print()
    print("generate a unique grid (s per seed: median, worst)")
    print(f"{'puzzle':<14}{'n':>4}{'k':>3}  {'median':>8}  {'worst':>8}  {'target':>7}")
    for puzzle, n, stars, target in GENERATE_CASES:
        seconds = []
        for seed in range(seeds):
            started = time.perf_counter()
            new_puzzle.generate(puzzle, n, stars=stars, seed=seed)
            seconds.append(time.perf_counter() - started)
        print(
            f"{puzzle:<14}{n:>4}{stars or 1:>3}  {statistics.median(seconds):>8.3f}  "
            f"{max(seconds):>8.3f}  {target:>7g}"
        )
    print()
    graded(seeds, GRADED_CASES + (LARGE_GRADED if arguments.large else ()))


def carve_against_counting(seeds: int, large: bool) -> None:
    """Plain generation per seed, carve testing each change as it does and by counting
    the grid (the baseline); both must make a grid within the time limit."""
    new_puzzle.generate("queens-game", 6, seed=0)  # warm-up: load the compiled search
    print("generate a unique grid: carve's test against counting (s per seed)")
    print(f"{'puzzle':<14}{'n':>4}{'k':>3}  {'seed':>4}  {'used':>8}  {'counting':>9}")
    totals = [0.0, 0.0]
    for puzzle, n, stars in CARVE_CASES + (LARGE_CARVE if large else ()):
        for seed in range(seeds):
            seconds = []
            for baseline in (False, True):
                started = time.perf_counter()
                with counting_carve() if baseline else nullcontext():
                    made = new_puzzle.generate(puzzle, n, stars=stars, seed=seed, time_limit=600)
                seconds.append(time.perf_counter() - started)
                totals[baseline] += seconds[-1]
                assert made.placement is not None, (puzzle, n, seed, baseline)
            print(
                f"{puzzle:<14}{n:>4}{stars or 1:>3}  {seed:>4}  {seconds[0]:>8.2f}  "
                f"{seconds[1]:>9.2f}"
            )
    print(f"{'all':<14}{'':>4}{'':>3}  {'':>4}  {totals[0]:>8.2f}  {totals[1]:>9.2f}")


def graded(seeds: int, cases: tuple[tuple[str, int, int | None, str], ...]) -> None:
    """Generation at a difficulty against plain generation (same seeds), and the time
    the rules take to grade the grid made."""
    print("generate at a difficulty (s per seed: median, worst) against plain generation")
    print(
        f"{'puzzle':<14}{'n':>4}{'k':>3}  {'grade':<6}  {'median':>8}  {'worst':>8}  "
        f"{'plain':>8}  {'grading':>8}  {'unreshaped: median, worst':>26}"
    )
    for puzzle, n, stars, grade in cases:
        at_grade, plain, grading, before = [], [], [], []
        for seed in range(seeds):
            started = time.perf_counter()
            made = new_puzzle.generate(puzzle, n, stars=stars, seed=seed, difficulty=grade)
            at_grade.append(time.perf_counter() - started)
            started = time.perf_counter()
            new_puzzle.generate(puzzle, n, stars=stars, seed=seed)
            plain.append(time.perf_counter() - started)
            assert made.placement is not None
            started = time.perf_counter()
            found = explain(made.placement.problem)
            grading.append(time.perf_counter() - started)
            assert found.solved and found.grade == grade
            if stars is not None:
                before.append(unreshaped(puzzle, n, stars, seed, grade))
        print(
            f"{puzzle:<14}{n:>4}{stars or 1:>3}  {grade:<6}  {statistics.median(at_grade):>8.3f}  "
            f"{max(at_grade):>8.3f}  {statistics.median(plain):>8.3f}  "
            f"{statistics.median(grading):>8.3f}  {_spread(before):>26}"
        )


def unreshaped(puzzle: str, n: int, stars: int, seed: int, grade: str) -> float:
    """Seconds to generate at ``grade`` without reshaping (infinity past the limit)."""
    started = time.perf_counter()
    with without_reshaping():
        made = new_puzzle.generate(
            puzzle, n, stars=stars, seed=seed, difficulty=grade, time_limit=UNRESHAPED_SECONDS
        )
    return time.perf_counter() - started if made.placement is not None else float("inf")


def _spread(seconds: list[float]) -> str:
    """Median and worst, ``> limit`` for runs that ran out; ``-`` for none."""
    if not seconds:
        return "-"
    shown = [
        f"> {UNRESHAPED_SECONDS:g}" if s == float("inf") else f"{s:.3f}"
        for s in (statistics.median(seconds), max(seconds))
    ]
    return ", ".join(shown)


if __name__ == "__main__":
    main()
