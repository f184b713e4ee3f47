"""Certificate benchmark: solve, certify and check, side by side.

For each problem: the engine's seconds to the proven optimum, the cubes the
refutation was cut into, the seconds to write the certificate (mostly the
Glucose refutations with proof logging), the proofs' steps and gzipped size,
and the seconds ``chessplace check`` takes. The baseline, in the same run, is
the whole refutation as one proof (no cubes), as certificates were written
before they followed the line engine's tree; it is run where cubes are used,
up to 9×9 (a(10) as one proof ran past 2 minutes unfinished). Optima are
compared with OEIS.

    python benchmarks/certificates.py [--large]   # --large adds a(9) = 12 and a(10) = 14
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from chessplace import Board, optimize, puzzles
from chessplace.certificates.checker.verdict import check_certificate
from chessplace.certificates.writer import cubes
from chessplace.certificates.writer.certificate import write_certificate
from chessplace.core.problem import Problem
from chessplace.core.result import Result
from chessplace.data.reference import known

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
BASELINE_UP_TO = 9


def measure(problem: Problem, result: Result, label: str) -> tuple[int, float, int, float, float]:
    """Cubes, seconds to certify, proof steps, proof MB and seconds to check; raises
    when the checker does not certify."""
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        started = time.perf_counter()
        write_certificate(directory, problem, "optimize", result, f"benchmark {label}")
        certify = time.perf_counter() - started
        refutation = json.loads((directory / "manifest.json").read_text())["refutation"]
        proofs = refutation["proofs"]
        megabytes = sum((directory / proof["proof"]).stat().st_size for proof in proofs) / 1e6
        started = time.perf_counter()
        verdict = check_certificate(directory)
        check = time.perf_counter() - started
    if not verdict.certified:
        raise AssertionError(f"{label}: {verdict.line}")
    return len(proofs), certify, refutation["proof_steps"], megabytes, check


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--large", action="store_true", help="add a(9) = 12 and a(10) = 14 (minutes)"
    )
    arguments = parser.parse_args()
    print(
        f"{'puzzle':<18} {'n':>3} {'opt':>4} {'solve s':>8} {'cubes':>6} {'certify s':>10} "
        f"{'proof steps':>12} {'MB (gz)':>8} {'check s':>8} {'total s':>8}"
        f"  {'one proof: certify s':>20} {'check s':>8}"
    )
    for name, build, sequence, n in CASES + (LARGE if arguments.large else []):
        problem = build(Board.square(n))
        result = optimize(problem)
        assert result.objective == known(sequence, n), (name, n, result.objective)
        count, certify, steps, megabytes, check = measure(problem, result, f"{name} {n}")
        total = result.seconds + certify + check
        baseline = ""
        if count > 1 and n <= BASELINE_UP_TO:
            split_from = cubes.SPLIT_FROM_SIDE
            cubes.SPLIT_FROM_SIDE = 1 << 20  # no cubes: the whole refutation at once
            try:
                _, one_certify, _, _, one_check = measure(problem, result, f"{name} {n} whole")
            finally:
                cubes.SPLIT_FROM_SIDE = split_from
            baseline = f"  {one_certify:>20.2f} {one_check:>8.2f}"
        print(
            f"{name:<18} {n:>3} {result.objective:>4} {result.seconds:>8.2f} {count:>6} "
            f"{certify:>10.2f} {steps:>12,} {megabytes:>8.1f} {check:>8.2f} {total:>8.2f}"
            f"{baseline}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
