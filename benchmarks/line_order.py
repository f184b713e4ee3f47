"""The line search's own choice of lines after the ranks and files, against the fixed order.

For each case it refutes one more than the optimum (every chunk must be
exhausted) with one thread, twice per chunk: following the geometry's order
all the way (the baseline, as the engine searched until 6d5afc7) and picking
its lines itself below the ranks and files (the engine now). Small boards are
searched from the root; large ones on a sample of the chunks their proof
splits into (drawn with a fixed seed, from those its checkpoint in
results/<sequence>/nN-engine.jsonl has not proved yet when it has one). Both searches must
end the same way; the table gives nodes, seconds and the ratio.

    python benchmarks/line_order.py [--cases 13,14,t13,w12,17] [--sample 12]

A case is n (n×n, refute A250000(n) + 1), tN (the N×N torus, refute
A279405(N) + 1), wN (N×N beside A250000(N) white, refute A308632(N) + 1) or
aN (three armies on N×N, refute A328283(N) + 1; the fixed order is the only
one there).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from chessplace import Board, Shape
from chessplace.core.pieces import QUEEN
from chessplace.data.reference import known
from chessplace.engines.lines import kernel
from chessplace.engines.lines.checkpoint import recorded_depth, search_journal
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.geometry import Geometry, geometry
from chessplace.engines.lines.runner import LineSearch, geometry_digest

RESULTS = Path(__file__).resolve().parent.parent / "results"
ROOT_SIDE = 14
"""Boards up to this side are searched whole, from the root."""


def case(text: str, scaled: bool = False) -> tuple[str, Geometry, LineSearch, int, Path | None]:
    """(name, geometry, search, target to refute, checkpoint) of a case's text; with
    ``scaled`` a torus's geometry breaks its scalings, as solve and optimize do."""
    kind, n = (text[0], int(text[1:])) if text[0] in "twa" else ("", int(text))
    if kind == "a":
        g = geometry(Board.square(n), QUEEN, colours=3)
        return f"{n}×{n}, 3 armies", g, LineSearch(g, 1), value("A328283", n) + 1, None
    if kind == "t":
        torus = Board.square(n, Shape.TORUS)
        g = geometry(torus, QUEEN, scaled=True) if scaled else geometry(torus, QUEEN)
        return (
            f"{n}×{n} torus",
            g,
            LineSearch(g, 1),
            value("A279405", n) + 1,
            RESULTS / "a279405" / f"n{n}-engine.jsonl",
        )
    if kind == "w":
        white = value("A250000", n)
        g = geometry(Board.square(n), QUEEN, swap=False)
        search = LineSearch(g, 1, white_target=white)
        return f"{n}×{n}, {white} white", g, search, value("A308632", n) + 1, None
    g = geometry(Board.square(n), QUEEN)
    return (
        f"{n}×{n}",
        g,
        LineSearch(g, 1),
        value("A250000", n) + 1,
        RESULTS / "a250000" / f"n{n}-engine.jsonl",
    )


def value(sequence: str, n: int) -> int:
    """Term ``n``: from the reference table, else from its record in results/."""
    stored = known(sequence, n)
    if stored is not None:
        return stored
    from chessplace.research.records import about, term_records, term_value

    folder = RESULTS / sequence.lower()
    record = term_records(folder).get(n)
    if record is None:
        raise SystemExit(f"{sequence}({n}) is neither in the reference table nor in {folder}")
    return int(term_value(about(folder), record))


def chunks(
    g: Geometry, search: LineSearch, target: int, journal: Path | None, sample: int
) -> tuple[list[np.ndarray], str]:
    """The prefixes to search: the root for small boards, else a sample of the chunks."""
    if max(g.board.rows, g.board.cols) <= ROOT_SIDE:
        return [np.zeros(0, dtype=np.int8)], "root"
    done: set[str] = set()
    recorded = journal if journal is not None and journal.exists() else None
    depth = (recorded_depth(recorded) if recorded else None) or search.split_depth()
    if recorded:
        header = {
            "rows": g.board.rows,
            "cols": g.board.cols,
            "depth": depth,
            "geometry": geometry_digest(g),
        }
        book = search_journal(recorded, header, g.lines)
        done = set(book.done)
        book.close()
    rows = search.prefixes(depth, target)
    keys = ["".join(map(str, row[g.order[:depth]])) for row in rows]
    left = [row for row, key in zip(rows, keys, strict=True) if key not in done]
    pool = left or list(rows)
    picked = random.Random(19).sample(pool, min(sample, len(pool)))
    if left:
        return picked, f"{len(picked)} of {len(left)} chunks left (of {len(rows)})"
    return picked, f"{len(picked)} of {len(rows)} chunks"


def timed(
    g: Geometry, search: LineSearch, prefix: np.ndarray, target: int, static: int
) -> tuple[int, int, float]:
    """(status, nodes, seconds) of one refutation below ``prefix``."""
    out = np.zeros((1, g.lines), dtype=np.int8)
    started = time.perf_counter()
    status, _, nodes, _, _, _ = call(g, prefix, -1, out, False, search.shared(target), static)
    return status, nodes, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="12,13,14,t13,w12,17")
    parser.add_argument("--sample", type=int, default=12, help="chunks per large case")
    args = parser.parse_args()
    small = geometry(Board.square(5), QUEEN)
    timed(small, LineSearch(small, 1), np.zeros(0, dtype=np.int8), 5, 0)  # compile once
    print(f"{'case':<18} {'searched':<34} {'nodes fixed':>13} {'nodes own':>13} "
          f"{'s fixed':>9} {'s own':>9} {'speed-up':>8}")  # fmt: skip
    for text in args.cases.split(","):
        name, g, search, target, journal = case(text.strip())
        prefixes, searched = chunks(g, search, target, journal, args.sample)
        totals = np.zeros((2, 2))
        for prefix in prefixes:
            for row, static in enumerate((g.lines, 0)):
                status, nodes, seconds = timed(g, search, prefix, target, static)
                if status != kernel.EXHAUSTED:
                    raise SystemExit(f"{name}: a chunk was not exhausted (status {status})")
                totals[row] += (nodes, seconds)
        (fixed_nodes, fixed_s), (own_nodes, own_s) = totals
        print(f"{name:<18} {searched:<34} {fixed_nodes:>13,.0f} {own_nodes:>13,.0f} "
              f"{fixed_s:>9.2f} {own_s:>9.2f} {fixed_s / own_s:>7.2f}x", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
