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

A case is read as ``benchmarks/line_order.py`` reads it: n (n×n, refute
A250000(n) + 1), tN (the N×N torus, refute A279405(N) + 1, its scalings broken
as the engine breaks them) or wN (N×N beside A250000(N) white, refute
A308632(N) + 1).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from chessplace.engines.lines import kernel
from chessplace.engines.lines.checkpoint import recorded_depth
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.runner import chunk_key
from chessplace.research.sampling import shuffled
from line_order import case

FAMILIES = ("ranks", "files", "diagonals", "anti-diagonals")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="t17")
    parser.add_argument("--sample", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    _, g, search, target, checkpoint = case(args.case, scaled=True)
    recorded = recorded_depth(checkpoint) if checkpoint is not None else None
    depth = search.split_depth() if recorded is None else recorded
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
