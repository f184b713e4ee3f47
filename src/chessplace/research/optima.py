"""Write every class of optimal peaceable queen armies on n×n (A260680) to a JSON file.

    python -m chessplace.research optima 11 -o results/a260680/n11.json

The optimum m is proven first (``chessplace.api.optimize``), then the line
engine enumerates every placement of m against m and keeps one member of each
class under the 16 symmetries (``chessplace.engines.lines.optima``). The file
lists the classes (white and black squares, the smallest member of each), the
counts, and the wall and CPU seconds; ``crosscheck-optima`` checks
it by SAT with blocking clauses.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Sequence
from pathlib import Path

from chessplace import Board, optimize, puzzles
from chessplace.core.board import square_name
from chessplace.engines.lines.geometry import geometry
from chessplace.engines.lines.optima import board_images, enumerate_optima
from chessplace.engines.lines.runner import LineSearch
from chessplace.research import revision
from chessplace.research.commands import prog
from chessplace.runtime.control import Control


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    parser = argparse.ArgumentParser(prog=prog("optima"), description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    board = Board.square(args.n)
    wall, cpu = time.perf_counter(), time.process_time()
    best = optimize(puzzles.peaceable_queens(board))
    if best.status.value != "optimal" or best.objective is None:
        print(f"the optimum was not proven: {best.status.value}")
        return 1
    m = best.objective
    problem = puzzles.peaceable_queens(board).with_counts(exactly=m)
    g = geometry(board, problem.armies[0].piece)
    found = enumerate_optima(LineSearch(g), m, board_images(board), Control())
    if not found.complete:
        print("the enumeration did not finish")
        return 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    classes = sorted(
        (
            {
                "white": [square_name(board.at(s)) for s in white],
                "black": [square_name(board.at(s)) for s in black],
            }
            for white, black in found.classes.representatives()
        ),
        key=lambda entry: (entry["white"], entry["black"]),
    )
    record = {
        "sequence": "A260680",
        "n": args.n,
        "m": m,
        "placements": found.classes.placements,
        "classes_count": found.classes.classes,
        "nodes": found.nodes,
        "labellings": found.leaves,
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "revision": revision.current(),
        "command": f"chessplace count peaceable-queens -n {args.n} --optimal --unique",
        "classes": classes,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"n = {args.n}: optimum {m}, {found.classes.placements:,} placements, "
        f"{found.classes.classes:,} classes ({wall:.1f} s wall, {cpu:.1f} CPU-s)"
    )
    return 0
