"""Certificate benchmark: solve, certify and check, side by side.

For each problem: the engine's seconds to the proven optimum, the seconds to
write the certificate (mostly the Glucose refutation with proof logging), the
proof's size, and the seconds ``chessplace check`` takes. Optima are compared
with OEIS.

    python benchmarks/certificates.py [--large]   # --large adds a(9) = 12 and a(10) = 14
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from chessplace import Board, optimize, puzzles
from chessplace.certificates.check import check_certificate
from chessplace.certificates.writer import write_certificate
from chessplace.reference import known

CASES = [
    ("peaceable-queens", puzzles.peaceable_queens, "A250000", 6),
    ("peaceable-queens", puzzles.peaceable_queens, "A250000", 7),
    ("peaceable-queens", puzzles.peaceable_queens, "A250000", 8),
    ("dominating-queens", puzzles.dominating_queens, "A075458", 6),
    ("dominating-queens", puzzles.dominating_queens, "A075458", 7),
    ("dominating-queens", puzzles.dominating_queens, "A075458", 8),
]
LARGE = [
    ("peaceable-queens", puzzles.peaceable_queens, "A250000", 9),
    ("peaceable-queens", puzzles.peaceable_queens, "A250000", 10),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--large", action="store_true", help="add a(9) = 12 and a(10) = 14 (minutes)"
    )
    arguments = parser.parse_args()
    print(
        f"{'puzzle':<18} {'n':>3} {'opt':>4} {'solve s':>8} {'certify s':>10} "
        f"{'proof steps':>12} {'proof MB':>9} {'check s':>8} {'total s':>8}  verdict"
    )
    for name, build, sequence, n in CASES + (LARGE if arguments.large else []):
        problem = build(Board.square(n))
        result = optimize(problem)
        assert result.objective == known(sequence, n), (name, n, result.objective)
        with tempfile.TemporaryDirectory() as folder:
            directory = Path(folder)
            started = time.perf_counter()
            write_certificate(directory, problem, "optimize", result, f"benchmark {name} {n}")
            certify = time.perf_counter() - started
            refutation = json.loads((directory / "manifest.json").read_text())["refutation"]
            megabytes = (
                sum((directory / proof["proof"]).stat().st_size for proof in refutation["proofs"])
                / 1e6
            )
            started = time.perf_counter()
            verdict = check_certificate(directory)
            check = time.perf_counter() - started
        total = result.seconds + certify + check
        print(
            f"{name:<18} {n:>3} {result.objective:>4} {result.seconds:>8.2f} {certify:>10.2f} "
            f"{refutation['proof_steps']:>12,} {megabytes:>9.1f} {check:>8.2f} {total:>8.2f}  "
            f"{'certified' if verdict.certified else verdict.line}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
