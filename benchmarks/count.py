"""Counting benchmark: chessplace's bitboard counter against a plain C counter.

Compiles benchmarks/plain_counter.c with gcc -O3, runs it and chessplace on
the same n in this script, checks every count against OEIS, and prints a
table of seconds (best of --repeats runs) and ratios, plus the seconds to
compile the n×n search (or load it from the disk cache; never inside the
timings) and resident memory, then plots time against n to
benchmarks/out/count.png.

    python benchmarks/count.py [--min-n 12] [--max-n 17] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import psutil

from chessplace import Board, count, puzzles
from chessplace.core import pieces
from chessplace.data.reference import known
from chessplace.data.reference import terms as terms_of
from chessplace.engines.bitboard.kernel import compiled, shape_of
from plotting import log_plot

HERE = Path(__file__).resolve().parent
Timed = TypeVar("Timed", bound=tuple[Any, ...])


def compile_baseline(directory: Path) -> Path:
    binary = directory / "plain_counter"
    subprocess.run(
        ["gcc", "-O3", "-march=native", "-o", str(binary), str(HERE / "plain_counter.c")],
        check=True,
    )
    return binary


def time_baseline(binary: Path, n: int) -> tuple[float, int]:
    started = time.perf_counter()
    out = subprocess.run([str(binary), str(n)], capture_output=True, text=True, check=True)
    return time.perf_counter() - started, int(out.stdout)


def time_compile(n: int, piece: pieces.Piece = pieces.QUEEN) -> float:
    """Seconds to compile (or load from the disk cache) the n×n search for ``piece``."""
    started = time.perf_counter()
    compiled(shape_of(piece, n, collect=False))
    return time.perf_counter() - started


def time_chessplace(
    n: int, workers: int, unique: bool = False, puzzle: str = "queens"
) -> tuple[float, int, int | None]:
    problem = puzzles.build_puzzle(puzzle, Board.square(n))
    started = time.perf_counter()
    result = count(problem, unique=unique, solver="bitboard", workers=workers)
    assert result.count is not None
    return time.perf_counter() - started, result.count, result.unique


def best_of(repeats: int, run: Callable[[], Timed]) -> Timed:
    """The fastest of ``repeats`` runs (the machine's noise only ever adds time)."""
    return min((run() for _ in range(repeats)), key=lambda timed: float(timed[0]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=12)
    parser.add_argument("--max-n", type=int, default=17)
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument("--no-plot", action="store_true")
    arguments = parser.parse_args()
    cores = os.cpu_count() or 1
    repeats = arguments.repeats
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        binary = compile_baseline(Path(scratch))
        for n in range(arguments.min_n, arguments.max_n + 1):
            compile_seconds = time_compile(n)
            c_seconds, c_count = best_of(repeats, partial(time_baseline, binary, n))
            one, one_count, _ = best_of(repeats, partial(time_chessplace, n, 1))
            every, every_count, unique = best_of(repeats, partial(time_chessplace, n, cores, True))
            rss = psutil.Process().memory_info().rss / 2**20
            expected = known("A000170", n)
            assert c_count == one_count == every_count == expected, (n, c_count, one_count)
            assert unique == known("A002562", n), (n, unique)
            rows.append((n, c_seconds, one, every, compile_seconds, rss))
    print(
        f"queens: plain C (gcc -O3, mirror halving, 1 core) vs chessplace bitboard, best of "
        f"{repeats}; {cores} cores here; every count checked against A000170/A002562"
    )
    print(
        f"{'n':>3} {'C s':>8} {'1-core s':>9} {'C/1-core':>9} {'all-core s':>11} "
        f"{'C/all':>7} {'compile s':>10} {'RSS MiB':>8}"
    )
    for n, c_seconds, one, every, compile_seconds, rss in rows:
        print(
            f"{n:>3} {c_seconds:>8.3f} {one:>9.3f} {c_seconds / one:>9.2f} {every:>11.3f} "
            f"{c_seconds / every:>7.2f} {compile_seconds:>10.2f} {rss:>8.0f}"
        )
    amazons(arguments.min_n, arguments.max_n, cores)
    if not arguments.no_plot:
        plot(rows, cores)
    return 0


def amazons(min_n: int, max_n: int, cores: int) -> None:
    """Amazon counts (queen + knight) from n = 15 on, checked against OEIS."""
    ns = range(max(min_n, 15), max_n + 1)
    if not ns:
        return
    print(f"amazons: chessplace bitboard, {cores} cores; checked against A051223/A051224")
    print(f"{'n':>3} {'solutions':>10} {'classes':>8} {'seconds':>8} {'compile s':>10}")
    for n in ns:
        compile_seconds = time_compile(n, pieces.AMAZON)
        seconds, total, classes = time_chessplace(n, cores, unique=True, puzzle="amazons")
        assert (total, classes) == (known("A051223", n), known("A051224", n)), n
        print(f"{n:>3} {total:>10,} {classes:>8,} {seconds:>8.3f} {compile_seconds:>10.2f}")


def plot(rows: list[tuple[int, float, float, float, float, float]], cores: int) -> None:
    ns = [row[0] for row in rows]
    log_plot(
        "count",
        "Counting n-queens solutions",
        "seconds (log scale)",
        [
            ("plain C, 1 core", ns, [row[1] for row in rows], "o-"),
            ("chessplace, 1 core", ns, [row[2] for row in rows], "s-"),
            (f"chessplace, {cores} cores", ns, [row[3] for row in rows], "^-"),
        ],
    )
    series = []
    for sequence, label in (("A000170", "all solutions"), ("A002562", "up to symmetry")):
        terms = terms_of(sequence)
        series.append((f"{label} ({sequence})", list(terms), list(terms.values()), "o-"))
    log_plot("counts", "n-queens solutions against n", "solutions (log scale)", series)


if __name__ == "__main__":
    sys.exit(main())
