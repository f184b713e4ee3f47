"""Splitting a hard cube of a SAT cross-check: whole, against its pieces.

The cross-checks (``python -m chessplace.research crosscheck-bound``) solve the cubes the line
engine's tree cuts the formula into, and split a cube CaDiCaL has not refuted
within a conflict budget into the pieces ``splitting.children`` gives: the
tree's leaves 4 labels deeper that extend it, or, where the engine cut it,
every colouring of the next 4 lines. For each cube drawn (with a fixed seed,
from the tree's leaves at ``--tree-depth``, or given with ``--words``) this
solves it whole on a fresh CaDiCaL (the baseline) and its pieces one after
another on one fresh CaDiCaL (as a worker keeps its solver), and prints the
CPU seconds of each and their ratio. Every piece must be unsatisfiable when
the whole cube is.

    python benchmarks/cube_splitting.py [-n 10] [--optimum 14] [--tree-depth 8] [--sample 6]
    python benchmarks/cube_splitting.py -n 13 --white 24 --optimum 25 --tree-depth 12 \\
        --words 00111111000010                  # a cube the engine cut at 14 labels
"""

from __future__ import annotations

import argparse
import random
import time

from pysat.solvers import Solver

from chessplace.research.crosscheck_bound import beyond
from chessplace.research.splitting import children
from chessplace.research.tree_cut import TreeCut


def _seconds(clauses: list[list[int]], cubes: list[tuple[int, ...]]) -> tuple[float, bool]:
    """CPU seconds for one fresh CaDiCaL to decide ``cubes`` in turn, and whether any
    was satisfiable."""
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        started = time.process_time()
        found = False
        for cube in cubes:
            found |= bool(solver.solve(assumptions=list(cube)))
        return time.process_time() - started, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10)
    parser.add_argument("--white", type=int, help="W white queens fixed (A308632)")
    parser.add_argument("--optimum", type=int, default=14, help="the claimed most M")
    parser.add_argument("--tree-depth", type=int, default=8)
    parser.add_argument("--sample", type=int, default=6, help="cubes drawn from the tree")
    parser.add_argument("--words", nargs="*", default=[], help="these cubes instead")
    args = parser.parse_args()
    problem = beyond(args.n, False, args.optimum, args.white)
    cut = TreeCut(problem, args.optimum + 1, args.tree_depth)
    words = args.words or sorted(random.Random(19).sample(cut.leaves(args.tree_depth), args.sample))
    clauses = cut.formula.clauses
    print("| cube | labels | whole s | pieces | their labels | pieces s | whole / pieces |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for word in words:
        pieces = children(cut, word, max(args.tree_depth, len(word)))  # a level holds it
        whole, sat = _seconds(clauses, [cut.cube(word)])
        split, sat_pieces = _seconds(clauses, [cut.cube(piece) for piece in pieces])
        assert sat == sat_pieces, f"cube {word}: whole and pieces disagree"
        lengths = "/".join(map(str, sorted({len(piece) for piece in pieces})))
        print(
            f"| {word} | {len(word)} | {whole:.2f} | {len(pieces)} | {lengths} | {split:.2f} "
            f"| {whole / max(split, 1e-9):.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
