"""Large peaceable boards: how fast the local search reaches the best known armies.

For each n from 16 to 30 it runs ``solve peaceable-queens -n N --heuristic
--at-least B`` with B the best known army size (no optimum is known past
n = 15) and prints the seconds it took, or what it had reached at the limit;
then what ``optimize --heuristic`` finds in a short run, to see whether it
ever goes past the best known. Plots to benchmarks/out/heuristic.png.

    python benchmarks/heuristic.py [--min-n 16] [--max-n 30] [--time-limit 60]
"""

from __future__ import annotations

import argparse
import sys

from chessplace import Board, optimize, puzzles, solve
from chessplace.data.reference import known
from plotting import log_plot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=16)
    parser.add_argument("--max-n", type=int, default=30)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--search-seconds", type=float, default=10.0)
    parser.add_argument("--no-plot", action="store_true")
    arguments = parser.parse_args()
    print(
        f"{'n':>3} {'best known':>11} {'seconds to reach':>17} {'in ':>3}"
        f"{arguments.search_seconds:.0f} s of optimize"
    )
    ns, seconds = [], []
    for n in range(arguments.min_n, arguments.max_n + 1):
        target = known("peaceable-best-known", n)
        assert target is not None
        problem = puzzles.peaceable_queens(Board.square(n))
        reached = solve(
            problem.with_counts(at_least=target),
            solver="heuristic",
            time_limit=arguments.time_limit,
        )
        assert reached.placement is None or reached.placement.verify() == ()
        took = f"{reached.seconds:.2f}" if reached.status.value == "feasible" else "not reached"
        if reached.status.value == "feasible":
            ns.append(n)
            seconds.append(reached.seconds)
        longer = optimize(problem, solver="heuristic", time_limit=arguments.search_seconds)
        assert longer.placement is not None and longer.placement.verify() == ()
        print(f"{n:>3} {target:>11} {took:>17} {longer.objective:>14}", flush=True)
    if not arguments.no_plot and ns:
        log_plot(
            "heuristic",
            "Local search on large boards",
            "seconds to reach the best known armies (log scale)",
            [("chessplace --heuristic", ns, seconds, "o-")],
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
