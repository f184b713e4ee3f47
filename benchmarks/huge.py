"""Huge answers: ``chessplace solve queens -n N --json`` before and after, in one script.

A placement of a million queens is built in well under a second; what the user
waits for is its verification and its JSON. For each n this runs the command
from a baseline commit (its ``src`` unpacked with ``git archive``; default: the
main before the JSON and verify speed-ups) and from this tree, each a fresh
process writing to /dev/null, best of ``--rounds``, and prints wall seconds and
peak resident memory.

    python benchmarks/huge.py [--sizes 100000 1000000] [--rounds 3] [--baseline COMMIT]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from domination import unpack

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "48750f15989251e1aeb0fbe8c7390974ce18cb75"
"""main before the speed-ups (a million queens' JSON object took 3.7 s to build)."""


WIDTHS = (10, 9, 8, 8, 10, 9)
"""Column widths of the table."""


def run_once(src: Path, n: int) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one ``solve queens -n N --json`` from ``src``."""
    command = [sys.executable, "-m", "chessplace", "solve", "queens", "-n", str(n), "--json"]
    start = time.perf_counter()
    with subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(src)},
    ) as process:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"huge: {' '.join(command)} exited {process.returncode}")
    return seconds, usage.ru_maxrss / 1024


def best(src: Path, n: int, rounds: int) -> tuple[float, float]:
    """The fastest of ``rounds`` runs, and the largest peak memory among them."""
    runs = [run_once(src, n) for _ in range(rounds)]
    return min(s for s, _ in runs), max(m for _, m in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default=BASELINE)
    arguments = parser.parse_args()
    if arguments.rounds < 1 or any(n < 4 for n in arguments.sizes):
        parser.error("--rounds must be at least 1 and every size at least 4")
    with tempfile.TemporaryDirectory() as folder:
        before = unpack(arguments.baseline, Path(folder))
        after = ROOT / "src"
        print(f"baseline {arguments.baseline[:10]}; best of {arguments.rounds}; wall s, peak MiB")
        heads = ("n", "before s", "after s", "speed-up", "before MiB", "after MiB")
        print(" ".join(f"{head:>{width}}" for head, width in zip(heads, WIDTHS, strict=True)))
        for n in arguments.sizes:
            old_seconds, old_memory = best(before, n, arguments.rounds)
            new_seconds, new_memory = best(after, n, arguments.rounds)
            print(
                f"{n:>10,} {old_seconds:>9.2f} {new_seconds:>8.2f} "
                f"{old_seconds / new_seconds:>7.2f}x {old_memory:>10.0f} {new_memory:>9.0f}"
            )


if __name__ == "__main__":
    main()
