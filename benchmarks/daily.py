"""How long the daily puzzles take to make: each daily of the web app
(:data:`chessplace.faces.web.daily.DAILIES`) generated for a run of days, from the day's
seed, as the server makes it, in one process after a warm-up grid (compilation and
imports are start-up, not making). Prints, per kind, the median, the 90th percentile
and the longest, and how many days stopped at the time limit without a grid.

    PYTHONPATH=src python benchmarks/daily.py [--days 60] [--last 2026-11-29]
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date, timedelta

from chessplace.faces.web.daily import DAILIES, seed_of
from chessplace.making import new_puzzle

TIME_LIMIT = 120.0
"""The web server's longest time limit (``Limits.max_seconds``), which a daily gets."""


def made(puzzle: str, n: int, stars: int | None, seed: int) -> tuple[float, bool]:
    """Seconds to make one grid, and whether one was made."""
    started = time.perf_counter()
    result = new_puzzle.generate(puzzle, n, stars=stars, seed=seed, time_limit=TIME_LIMIT)
    return time.perf_counter() - started, result.placement is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=60, help="how many days, up to --last")
    parser.add_argument("--last", type=date.fromisoformat, default=date.today())
    options = parser.parse_args()
    days = [options.last - timedelta(days=back) for back in range(options.days)]
    head = ("daily", "days", "median s", "p90 s", "longest s", "stopped")
    print("{:<24} {:>5} {:>9} {:>7} {:>10} {:>8}".format(*head))
    for daily in DAILIES.values():
        made(daily.puzzle, daily.n, daily.stars, 0)  # warm-up
        runs = [made(daily.puzzle, daily.n, daily.stars, seed_of(day)) for day in days]
        seconds = sorted(run[0] for run in runs)
        p90 = seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]
        stopped = sum(not run[1] for run in runs)
        name = f"{daily.puzzle} {daily.n}×{daily.n}" + (f" {daily.stars}★" if daily.stars else "")
        print(
            f"{name:<24} {len(runs):>5} {statistics.median(seconds):>9.2f} {p90:>7.2f}"
            f" {seconds[-1]:>10.2f} {stopped:>8}",
            flush=True,
        )


if __name__ == "__main__":
    main()
