"""Peaceable queens: the ``lines`` engine against ``sat``, one after the other, in one script.

For each n both engines prove a(n) (OEIS A250000) with ``optimize`` under a
per-run time limit; the table gives the seconds (``> limit`` where a run did
not finish), the value each reached, and the ratio sat / lines. Every answer
is verified by the api; proven values are checked against OEIS.

    python benchmarks/linesearch.py [--min-n 8] [--max-n 12] [--time-limit 900]
                                    [--engines lines,sat]
"""

from __future__ import annotations

import argparse
import sys
import time

from chessplace import Board, Status, optimize, puzzles
from chessplace.reference import known


def timed(engine: str, n: int, limit: float) -> tuple[float | None, int | None]:
    """Seconds to prove a(n) with ``engine`` (``None`` past the limit) and the value reached."""
    started = time.perf_counter()
    result = optimize(puzzles.peaceable_queens(Board.square(n)), solver=engine, time_limit=limit)
    seconds = time.perf_counter() - started
    if result.status is not Status.OPTIMAL:
        return None, result.objective
    if result.objective != known("A250000", n):
        sys.exit(f"{engine} proved {result.objective} for n = {n}, OEIS says {known('A250000', n)}")
    return seconds, result.objective


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=8)
    parser.add_argument("--max-n", type=int, default=12)
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--engines", default="lines,sat")
    args = parser.parse_args()
    engines = args.engines.split(",")
    timed("lines", 4, args.time_limit)  # load the compiled kernels before timing
    print(f"| n | a(n) | {' | '.join(engines)} | sat / lines |")
    print(f"| --- | --- | {' | '.join('---' for _ in engines)} | --- |")
    for n in range(args.min_n, args.max_n + 1):
        cells, seconds = [], {}
        for engine in engines:
            took, value = timed(engine, n, args.time_limit)
            seconds[engine] = took
            cells.append(
                f"{took:.2f} s" if took is not None else f"> {args.time_limit:g} s ({value})"
            )
        both = seconds.get("lines"), seconds.get("sat")
        ratio = f"{both[1] / both[0]:.1f}×" if both[0] and both[1] else ""
        print(f"| {n} | {known('A250000', n)} | {' | '.join(cells)} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
