"""Peaceable queens: the ``lines`` engine against ``sat``, one after the other, in one script.

For each n each engine proves a(n) (OEIS A250000) with ``optimize`` under a
per-run time limit; the table gives the seconds (``> limit`` where a run did
not finish, with the value reached), the nodes the line search visited, and
the ratio sat / lines. Every answer is verified by the api; proven values
are checked against OEIS. The seconds against n go to
benchmarks/out/linesearch.png.

    python benchmarks/linesearch.py [--min-n 8] [--max-n 12] [--time-limit 900]
                                    [--engines lines,sat] [--armies 3]

With ``--armies 3`` it proves three equal armies (OEIS A328283) instead, and
plots to benchmarks/out/linesearch-3.png.
"""

from __future__ import annotations

import argparse
import re
import sys
import time

from chessplace import Board, Status, optimize, puzzles
from chessplace.data.reference import known
from chessplace.runtime.control import Control, Progress
from plotting import log_plot

STYLES = {"lines": "o-", "sat": "s--"}
NODES = re.compile(r"([\d,]+) nodes")
SEQUENCE = {2: "A250000", 3: "A328283"}


def timed(
    engine: str, n: int, limit: float, armies: int = 2
) -> tuple[float | None, int | None, int | None]:
    """Seconds to prove a(n) with ``engine`` (``None`` past the limit), the value reached
    and the nodes the line search reported (``None`` for other engines)."""
    messages: list[str] = []

    def listen(progress: Progress) -> None:
        if progress.message:
            messages.append(progress.message)

    started = time.perf_counter()
    problem = puzzles.peaceable_queens(Board.square(n), armies=armies)
    result = optimize(problem, solver=engine, control=Control(limit, listen))
    seconds = time.perf_counter() - started
    counted = [int(m.group(1).replace(",", "")) for m in map(NODES.match, messages) if m]
    nodes = counted[-1] if counted else None
    if result.status is not Status.OPTIMAL:
        return None, result.objective, nodes
    expected = known(SEQUENCE[armies], n)
    if result.objective != expected:
        sys.exit(f"{engine} proved {result.objective} for n = {n}, OEIS says {expected}")
    return seconds, result.objective, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=8)
    parser.add_argument("--max-n", type=int, default=12)
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--engines", default="lines,sat")
    parser.add_argument("--armies", type=int, choices=sorted(SEQUENCE), default=2)
    args = parser.parse_args()
    engines = args.engines.split(",")
    timed("lines", 4, args.time_limit, args.armies)  # load the compiled kernels before timing
    print(f"| n | a(n) | {' | '.join(engines)} | lines nodes | sat / lines |")
    print(f"| --- | --- | {' | '.join('---' for _ in engines)} | --- | --- |")
    proven: dict[str, tuple[list[int], list[float]]] = {engine: ([], []) for engine in engines}
    for n in range(args.min_n, args.max_n + 1):
        cells, seconds, nodes = [], {}, None
        for engine in engines:
            took, value, counted = timed(engine, n, args.time_limit, args.armies)
            seconds[engine] = took
            nodes = counted if engine == "lines" else nodes
            if took is not None:
                proven[engine][0].append(n)
                proven[engine][1].append(took)
            cells.append(
                f"{took:.2f} s" if took is not None else f"> {args.time_limit:g} s ({value})"
            )
        both = seconds.get("lines"), seconds.get("sat")
        ratio = f"{both[1] / both[0]:.1f}×" if both[0] and both[1] else ""
        shown = f"{nodes:,}" if nodes is not None else ""
        print(
            f"| {n} | {known(SEQUENCE[args.armies], n)} | {' | '.join(cells)} | {shown} "
            f"| {ratio} |",
            flush=True,
        )
    log_plot(
        "linesearch" if args.armies == 2 else f"linesearch-{args.armies}",
        f"Peaceable queens, {args.armies} armies: seconds to prove a(n)",
        "seconds",
        [(e, ns, ys, STYLES.get(e, "^:")) for e, (ns, ys) in proven.items() if ns],
    )


if __name__ == "__main__":
    main()
