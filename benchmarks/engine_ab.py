"""The line search against an earlier revision of itself, on the same chunks.

Each case's sample (the same chunks, drawn as `line_order.py` draws them) is
refuted on one thread by this tree's engine and by a baseline revision's
(checked out into a temporary git worktree), alternating the two over
`--rounds`, each in its own process. The table gives both node counts (they
differ only when the change alters the search), the best seconds of the rounds
and the ratio.

    python benchmarks/engine_ab.py [--baseline REV] [--cases 13,t13,17,19]
                                   [--sample 4] [--rounds 2]

The baseline must still offer what this script calls (`chunk.call` with
`static`, the checkpoint readers of `line_order.py`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def worker(text: str, sample: int) -> None:
    """Refute one case's sample with the engine on ``PYTHONPATH``; print nodes, seconds
    (run as a script, so that ``line_order`` beside it imports)."""
    import numpy as np

    from chessplace import Board
    from chessplace.core.pieces import QUEEN
    from chessplace.engines.lines import kernel
    from chessplace.engines.lines.geometry import geometry
    from chessplace.engines.lines.runner import LineSearch
    from line_order import case, chunks, timed

    for colours in (2, 3):  # compile both kernels first
        small = geometry(Board.square(5), QUEEN, colours=colours)
        timed(small, LineSearch(small, 1), np.zeros(0, dtype=np.int8), 5, 0)
    _, g, search, target, journal = case(text)
    prefixes, searched = chunks(g, search, target, journal, sample)
    nodes = 0
    started = time.perf_counter()
    for prefix in prefixes:
        status, count, _ = timed(g, search, prefix, target, 0)
        if status != kernel.EXHAUSTED:
            raise SystemExit(f"{text}: a chunk was not exhausted (status {status})")
        nodes += count
    seconds = time.perf_counter() - started
    print(json.dumps({"nodes": nodes, "seconds": seconds, "searched": searched}))


def run(source: Path, text: str, sample: int) -> dict[str, object]:
    """One worker process on the engine under ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    command = [sys.executable, __file__, "--worker", text, "--sample", str(sample)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{text} under {source}: {done.stderr.strip().splitlines()[-1:]}")
    answer: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="HEAD", help="git revision to compare with")
    parser.add_argument("--cases", default="13,t13,17,19")
    parser.add_argument("--sample", type=int, default=4, help="chunks per large case")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sample < 1 or args.rounds < 1:
        parser.error("--sample and --rounds must be at least 1")
    if args.worker:
        worker(args.worker, args.sample)
        return
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.baseline],
            check=True,
        )
        try:
            compare(tree / "src", args)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)])


def compare(baseline: Path, args: argparse.Namespace) -> None:
    """Print one row per case: both engines' nodes, best seconds and the ratio."""
    print(f"baseline {args.baseline}; best of {args.rounds} rounds, one thread each")
    print(f"{'case':<6} {'searched':<34} {'nodes before':>13} {'nodes now':>13} "
          f"{'s before':>9} {'s now':>9} {'speed-up':>8}")  # fmt: skip
    for text in args.cases.split(","):
        best = {"before": float("inf"), "now": float("inf")}
        nodes: dict[str, object] = {}
        searched = ""
        for _ in range(args.rounds):
            for name, source in (("before", baseline), ("now", ROOT / "src")):
                answer = run(source, text.strip(), args.sample)
                best[name] = min(best[name], float(str(answer["seconds"])))
                nodes[name] = answer["nodes"]
                searched = str(answer["searched"])
        print(f"{text:<6} {searched:<34} {nodes['before']:>13,} {nodes['now']:>13,} "
              f"{best['before']:>9.2f} {best['now']:>9.2f} "
              f"{best['before'] / best['now']:>7.2f}x", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
