"""How long the daily puzzles take to make: each daily of the web app
(:data:`chessplace.faces.web.daily.DAILIES`) generated for a run of days, from the day's
seed, as the server makes it, in one process after a warm-up grid (compilation and
imports are start-up, not making). Prints, per kind, the CPU seconds' median, 90th
percentile and longest, the longest in wall-clock seconds, and how many days stopped
at the time limit without a grid.

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


def made(puzzle: str, n: int, stars: int | None, seed: int) -> tuple[float, float, bool]:
    """CPU seconds and seconds to make one grid, and whether one was made (CPU time,
    this process's, is what a busy machine does not inflate)."""
    started, cpu = time.perf_counter(), time.process_time()
    result = new_puzzle.generate(puzzle, n, stars=stars, seed=seed, time_limit=TIME_LIMIT)
    return time.process_time() - cpu, time.perf_counter() - started, result.placement is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=60, help="how many days, up to --last")
    parser.add_argument("--last", type=date.fromisoformat, default=date.today())
    options = parser.parse_args()
    days = [options.last - timedelta(days=back) for back in range(options.days)]
    head = ("daily", "days", "CPU s: median", "p90", "longest", "wall s: longest", "stopped")
    print("{:<22} {:>5} {:>14} {:>6} {:>8} {:>16} {:>8}".format(*head))
    for daily in DAILIES.values():
        made(daily.puzzle, daily.n, daily.stars, 0)  # warm-up
        runs = [made(daily.puzzle, daily.n, daily.stars, seed_of(day)) for day in days]
        cpu = sorted(run[0] for run in runs)
        p90 = cpu[min(len(cpu) - 1, int(0.9 * len(cpu)))]
        wall = max(run[1] for run in runs)
        stopped = sum(not run[2] for run in runs)
        name = f"{daily.puzzle} {daily.n}×{daily.n}" + (f" {daily.stars}★" if daily.stars else "")
        print(
            f"{name:<22} {len(runs):>5} {statistics.median(cpu):>14.2f} {p90:>6.2f}"
            f" {cpu[-1]:>8.2f} {wall:>16.2f} {stopped:>8}",
            flush=True,
        )


if __name__ == "__main__":
    main()
