"""Rule books by engine: which engines take each user rule book, and their times, beside
the CPMpy bridge (the same rules handed to CPMpy's default solver) as the baseline in
the same run.

Each rule book is a spelled problem file's worth of rules (count rules over sets and
families, board regions, one-way attack pairs, squares covered a set number of times).
For every task the book asks (solve, count or optimize), every registered engine that
accepts it runs it; a refusal is shown as ``-``. Every answer is checked by
``verify()`` and the engines' answers must agree (counts, optima, feasibility).

    PYTHONPATH=src python benchmarks/rulebooks.py [--time-limit 60]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from chessplace import api
from chessplace.core.board import Board
from chessplace.core.pieces import piece_from_text
from chessplace.core.problem import Army, Problem, Sense
from chessplace.core.rules import CountRule
from chessplace.engines.base import Task
from chessplace.engines.registry import ENGINES
from chessplace.export.cpmpy import to_cpmpy

KING, QUEEN, KNIGHT = (piece_from_text(name) for name in ("K", "Q", "N"))
FAMILIES = ("each rank", "each file")


def kings_two_per_line(n: int) -> Problem:
    """2n kings, none touching, two on each rank and file (the issue's first file)."""
    rules = tuple(CountRule(family, 2, 2) for family in FAMILIES)
    return Problem("kings 2 per line", Board.square(n), (Army("white", KING),), counts=rules)


def queens_in_a_corner(n: int) -> Problem:
    """n queens with at most one in the 2×2 corner (the issue's second file)."""
    corner = CountRule(frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}), 0, 1, "white")
    return Problem(
        "queens, corner", Board.square(n), (Army("white", QUEEN, n, n),), counts=(corner,)
    )


def queens_over_knights(n: int) -> Problem:
    """Two fixed white queens and the most black knights they may not attack (third)."""
    armies = (Army("white", QUEEN, 2, 2, fixed=True), Army("black", KNIGHT))
    return Problem(
        "queens over knights",
        Board.square(n),
        armies,
        independent=False,
        no_attack=(("white", "black"),),
    )


def perfect_kings(n: int) -> Problem:
    """Kings covering every square exactly once (a perfect code; the fourth file)."""
    return Problem(
        "perfect kings",
        Board.square(n),
        (Army("white", KING),),
        independent=False,
        dominating=True,
        sense=Sense.MINIMIZE,
        cover=(1, 1),
    )


def twice_covered_queens(n: int) -> Problem:
    """The fewest queens covering every square at least twice (2-domination)."""
    return Problem(
        "2-dominating queens",
        Board.square(n),
        (Army("white", QUEEN),),
        independent=False,
        dominating=True,
        sense=Sense.MINIMIZE,
        cover=(2, None),
    )


BOOKS: tuple[tuple[str, Callable[[int], Problem], tuple[int, ...], Task], ...] = (
    ("solve", kings_two_per_line, (8, 12), Task.SOLVE),
    ("count", kings_two_per_line, (6, 8), Task.COUNT),
    ("count", queens_in_a_corner, (8, 9), Task.COUNT),
    ("optimize", queens_over_knights, (6, 8), Task.OPTIMIZE),
    ("count", perfect_kings, (6, 9), Task.COUNT),
    ("optimize", twice_covered_queens, (5, 6), Task.OPTIMIZE),
)


def run(problem: Problem, task: Task, engine: str, limit: float) -> tuple[str, float]:
    start = time.perf_counter()
    if task is Task.SOLVE:
        result = api.solve(problem, solver=engine, time_limit=limit)
        value = result.status.value
    elif task is Task.COUNT:
        result = api.count(problem, solver=engine, time_limit=limit)
        value = str(result.count)
    else:
        result = api.optimize(problem, solver=engine, time_limit=limit)
        value = f"{result.status.value} {result.objective}"
    return value, time.perf_counter() - start


def baseline(problem: Problem, task: Task, limit: float) -> tuple[str, float]:
    """The same rules through the CPMpy bridge and CPMpy's default solver."""
    import cpmpy as cp

    start = time.perf_counter()
    model, x = to_cpmpy(problem)
    if task is Task.COUNT:
        value = str(model.solveAll(time_limit=limit))
    elif task is Task.SOLVE:
        value = "feasible" if model.solve(time_limit=limit) else "infeasible"
    else:
        pieces = cp.sum(
            v for a in problem.scored_armies for v in x[problem.armies[a].name].values()
        )
        model.minimize(pieces) if problem.sense is Sense.MINIMIZE else model.maximize(pieces)
        value = f"optimal {model.objective_value()}" if model.solve(time_limit=limit) else "?"
    return value, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    arguments = parser.parse_args()
    names = [name for name, engine in ENGINES.items() if engine.available()]
    print(f"{'rule book':<22} {'n':>3} {'task':<8} {'answer':<14} {'cpmpy s':>8}  engines (s)")
    for _, build, sizes, task in BOOKS:
        for n in sizes:
            problem = build(n)
            value, seconds = baseline(problem, task, arguments.time_limit)
            cells = []
            for name in names:
                if ENGINES[name].refusal(problem, task) is not None:
                    continue
                answer, taken = run(problem, task, name, arguments.time_limit)
                agrees = "" if answer == value else f" (says {answer})"
                cells.append(f"{name} {taken:.2f}{agrees}")
            print(
                f"{problem.puzzle:<22} {n:>3} {task.value:<8} {value:<14} {seconds:>8.2f}  "
                + ", ".join(cells)
            )
    refusing = sorted(set(ENGINES) - set(names))
    if refusing:
        print(f"not installed here: {', '.join(refusing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
