"""The line search on the torus with and without its scalings, in one process.

For each n it refutes t(n) + 1 each on the n×n torus from the root, on one
thread, twice: with the board's symmetries alone (the baseline) and with the
scalings too (:func:`chessplace.engines.lines.geometry.scalings`, as solve and
optimize search now). Both must refute; the table gives the symmetries each
breaks, the rank/file labellings left to search below (leaves of the rank/file
phase), nodes, CPU seconds and the ratios.

    python benchmarks/torus_scalings.py [--sides 11,13,15]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from chessplace import Board, Shape
from chessplace.core.pieces import QUEEN
from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.geometry import Geometry, geometry
from line_order import value


def refuted(g: Geometry, target: int) -> tuple[int, int, float]:
    """Rank/file leaves searched below, nodes and CPU seconds of the whole refutation."""
    families = len(g.family_start) - 1
    tally = np.zeros((g.lines + 1, families + 3), dtype=np.int64)
    shared = np.array([0, target], dtype=np.int64)
    started = time.process_time()
    status, best, nodes, *_ = call(
        g, np.full(g.lines, -1, np.int8), -1, np.zeros((1, 1), np.int8), True, shared,
        tally=tally,
    )  # fmt: skip
    seconds = time.process_time() - started
    if status != kernel.EXHAUSTED or best >= target:
        raise SystemExit(f"{target} each was not refuted (status {status}, best {best})")
    leaves = int(tally[g.symmetric, 0] - tally[g.symmetric, 1:].sum())
    return leaves, nodes, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default="11,13,15")
    args = parser.parse_args()
    refuted(geometry(Board.square(5, Shape.TORUS), QUEEN, scaled=True), 3)  # compile first
    print("| n | target | symmetries | leaves | nodes | CPU-s | with scalings | leaves "
          "| nodes | CPU-s | nodes ratio | time ratio |")  # fmt: skip
    print("| --- " * 12 + "|")
    for n in (int(side) for side in args.sides.split(",")):
        board = Board.square(n, Shape.TORUS)
        target = value("A279405", n) + 1
        plain = geometry(board, QUEEN)
        scaled = geometry(board, QUEEN, scaled=True)
        leaves, nodes, seconds = refuted(plain, target)
        leaves_s, nodes_s, seconds_s = refuted(scaled, target)
        print(
            f"| {n} | {target} | {len(plain.source) + 1:,} | {leaves:,} | {nodes:,} | "
            f"{seconds:.2f} | {len(scaled.source) + 1:,} | {leaves_s:,} | {nodes_s:,} | "
            f"{seconds_s:.2f} | {nodes / nodes_s:.1f}× | {seconds / seconds_s:.1f}× |"
        )


if __name__ == "__main__":
    main()
