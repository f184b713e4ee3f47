"""Where the line search spends its nodes: by depth, and which check cuts them.

For one case it splits the proof as the engine does (the depth read from the
engine's checkpoint in results/<sequence>/nN-engine.jsonl when there is one,
as ``research sample-lines`` reads it), draws chunks with a fixed seed and
searches each in full for the target with the kernel's tally on. It prints,
per depth, the nodes entered, the share of all nodes, and how many the
symmetry check, the product table and each family's bound cut there, then
the same summed over the two phases (ranks and files in the geometry's order;
lines the search picks itself).

    python benchmarks/line_profile.py [--case t17] [--sample 8] [--seed 1]

A case is n (n×n, refute A250000(n) + 1), tN (the N×N torus, refute
A279405(N) + 1) or wN (N×N beside A250000(N) white, refute A308632(N) + 1).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from chessplace import Board, Shape, puzzles
from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.geometry import Geometry, geometry
from chessplace.engines.lines.runner import LineSearch, chunk_key
from chessplace.research.sampling import shuffled
from chessplace.runtime.journal import recorded_header

A250000 = (0, 0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32, 37, 42, 47, 52)
A279405 = {13: 16, 15: 20, 17: 28, 19: 32}
A308632 = {12: 21, 13: 25, 14: 29, 15: 34, 16: 37, 17: 42, 18: 48}
RESULTS = Path(__file__).resolve().parent.parent / "results"
FAMILIES = ("ranks", "files", "diagonals", "anti-diagonals")


def case(text: str) -> tuple[Geometry, LineSearch, int, Path]:
    """The geometry, the split search, the target to refute and the checkpoint path."""
    kind, n = (text[0], int(text[1:])) if text[0] in "tw" else ("", int(text))
    shape = Shape.TORUS if kind == "t" else Shape.PLANE
    white = A250000[n] if kind == "w" else None
    board = Board.square(n, shape)
    problem = puzzles.peaceable_queens(board, white=white)
    g = geometry(board, problem.armies[0].piece, True, white is None, scaled=True)
    target = {"t": A279405.get(n, 0), "w": A308632.get(n, 0)}.get(kind, A250000[n]) + 1
    sequence = {"t": "a279405", "w": "a308632"}.get(kind, "a250000")
    checkpoint = RESULTS / sequence / f"n{n}-engine.jsonl"
    return g, LineSearch(g, 1, white_target=white), target, checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="t17")
    parser.add_argument("--sample", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    g, search, target, checkpoint = case(args.case)
    header = recorded_header(checkpoint) if checkpoint.exists() else None
    depth = int(header["depth"]) if header else search.split_depth()
    prefixes = search.prefixes(depth, target)
    keys = [chunk_key(row[g.order[:depth]]) for row in prefixes]
    row = {key: index for index, key in enumerate(keys)}
    families = len(g.family_start) - 1
    tally = np.zeros((g.lines + 1, families + 3), dtype=np.int64)
    started = time.process_time()
    for key in shuffled(keys, args.seed)[: args.sample]:
        status, best, *_ = call(
            g, prefixes[row[key]], -1, np.zeros((1, 1), np.int8), True,
            search.shared(target), tally=tally,
        )  # fmt: skip
        if status != kernel.EXHAUSTED or best >= target:
            raise SystemExit(f"chunk {key} was not refuted (status {status}, best {best})")
    seconds = time.process_time() - started
    total = int(tally[:, 0].sum())
    print(
        f"case {args.case}: target {target}, {len(keys):,} chunks at depth {depth}, "
        f"{args.sample} searched: {total:,} nodes in {seconds:.1f} CPU-s"
    )
    names = ["symmetry", "product", *FAMILIES[:families]]
    print("| depth | nodes | share | " + " | ".join(f"cut: {n}" for n in names) + " |")
    print("| --- " * (3 + len(names)) + "|")
    for d in np.flatnonzero(tally[:, 0]):
        counts = " | ".join(f"{int(c):,}" for c in tally[d, 1:])
        print(f"| {d} | {int(tally[d, 0]):,} | {tally[d, 0] / total:.1%} | {counts} |")
    for phase, rows in (("ranks and files", slice(0, g.symmetric + 1)),
                        ("picked lines", slice(g.symmetric + 1, None))):  # fmt: skip
        part = tally[rows].sum(axis=0)
        cuts = ", ".join(f"{n} {int(c):,}" for n, c in zip(names, part[1:], strict=True))
        print(f"{phase}: {int(part[0]):,} nodes ({part[0] / total:.1%}); cut by {cuts}")


if __name__ == "__main__":
    main()
