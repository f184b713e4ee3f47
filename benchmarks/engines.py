"""Engine benchmark: seconds to prove optima with CP-SAT and with SAT, per n.

Runs both engines on the same problems in this script (each is the other's
baseline), checks every optimum against OEIS, prints a table and plots time
against n per engine to benchmarks/out/engines.png.

    python benchmarks/engines.py [--max-n 8] [--time-limit 120]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from chessplace import Board, Problem, optimize, puzzles
from chessplace.data.reference import known
from plotting import log_plot

ENGINES = ("cpsat", "sat")
FAMILIES: dict[str, tuple[Callable[[Board], Problem], str]] = {
    "peaceable-queens": (puzzles.peaceable_queens, "A250000"),
    "dominating-queens": (puzzles.dominating_queens, "A075458"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--no-plot", action="store_true")
    arguments = parser.parse_args()
    timings: dict[tuple[str, str], list[tuple[int, float]]] = {}
    print(f"{'puzzle':<18} {'n':>3} {'optimum':>8} " + " ".join(f"{e + ' s':>10}" for e in ENGINES))
    for family, (build, sequence) in FAMILIES.items():
        for n in range(4, arguments.max_n + 1):
            cells = []
            optimum = None
            for engine in ENGINES:
                result = optimize(
                    build(Board.square(n)), solver=engine, time_limit=arguments.time_limit
                )
                if result.status.value == "optimal":
                    assert result.objective == known(sequence, n), (family, n, engine)
                    optimum = result.objective
                    timings.setdefault((family, engine), []).append((n, result.seconds))
                    cells.append(f"{result.seconds:>10.2f}")
                else:
                    cells.append(f"{'>' + str(int(arguments.time_limit)):>10}")
            print(f"{family:<18} {n:>3} {optimum!s:>8} " + " ".join(cells))
    if not arguments.no_plot:
        plot(timings)
    return 0


def plot(timings: dict[tuple[str, str], list[tuple[int, float]]]) -> None:
    series = [
        (f"{family}, {engine}", [n for n, _ in points], [s for _, s in points], "o-")
        for (family, engine), points in sorted(timings.items())
    ]
    log_plot(
        "engines",
        "Proving optima: CP-SAT against SAT",
        "seconds to prove the optimum (log scale)",
        series,
    )


if __name__ == "__main__":
    sys.exit(main())
