"""Region puzzles on the ordinary-problem path against an older tree's own path.

Region puzzles became ordinary problems (kings, board areas, count rules on each rank,
file and region, recognised as a grid by ``Problem.regions``). This script times, in
one run, the same grids through this tree and through an older checkout (``--old``,
its ``src`` folder, for example a ``git worktree`` of the commit before the change):
building the problem, solving it and counting its answers up to two (what proving a
grid unique costs), each in a child process per tree, medians of ``--runs`` after a
warm-up (Numba's cache load and CP-SAT's import are start-up, not solving). The grids
come from this tree's generator with fixed seeds (Queens game 8×8 to 14×14, Star Battle
10×10 with 2 stars), so both trees solve the same ones.

    PYTHONPATH=src python benchmarks/region_paths.py --old ../old/src [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CASES = (
    ("queens-game", 8, 1),
    ("queens-game", 10, 1),
    ("queens-game", 12, 1),
    ("queens-game", 14, 1),
    ("star-battle", 10, 2),
)
SEED = 7

CHILD = """
import json, statistics, sys, time
from chessplace import api
from chessplace.notation.puzzles import region_puzzle
grids, runs = json.loads(sys.stdin.read())
times = []
for puzzle, rows, stars in grids:
    def once():
        start = time.perf_counter()
        problem = region_puzzle(puzzle, rows, stars if stars > 1 else None)
        api.solve(problem)
        api.count(problem, limit=2)
        return time.perf_counter() - start
    once()
    times.append(statistics.median(once() for _ in range(runs)))
print(json.dumps(times))
"""


def grids() -> list[tuple[str, list[str], int]]:
    """One generated grid per case, from this tree's generator."""
    from chessplace.making import new_puzzle

    found = []
    for puzzle, n, stars in CASES:
        made = new_puzzle.generate(puzzle, n, stars=stars if stars > 1 else None, seed=SEED)
        assert made.placement is not None and made.placement.problem.areas is not None
        found.append((puzzle, list(made.placement.problem.areas), stars))
    return found


def timed(source: str, cases: list[tuple[str, list[str], int]], runs: int) -> list[float]:
    environment = {**os.environ, "PYTHONPATH": source}
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps([cases, runs]),
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return list(json.loads(done.stdout))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the src folder of the older tree")
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    new_source = str(Path(__file__).resolve().parent.parent / "src")
    cases = grids()
    new = timed(new_source, cases, arguments.runs)
    old = timed(arguments.old, cases, arguments.runs)
    print(f"{'puzzle':<12} {'n':>3} {'stars':>5} {'old s':>8} {'new s':>8} {'new/old':>8}")
    for (puzzle, rows, stars), before, after in zip(cases, old, new, strict=True):
        print(
            f"{puzzle:<12} {len(rows):>3} {stars:>5} {before:>8.4f} {after:>8.4f} "
            f"{after / before:>8.2f}"
        )
    ratio = statistics.geometric_mean(a / b for a, b in zip(new, old, strict=True))
    print(f"geometric mean new/old: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
