"""Queen domination benchmark: chessplace before and after, and CP-SAT, in one script.

For each n it proves γ(Q_n) (OEIS A075458) and prints the seconds of:
``before``, ``chessplace optimize dominating-queens`` from a baseline commit
(its ``src`` unpacked with ``git archive``, default: the main this work started
from); ``after``, the same command from this tree; ``refute``, the SAT proof
alone in this tree (γ − 1 queens refuted by the domination formula, cubes and
all, with no lower-bound theorem: the figure to set beside published SAT work,
which refutes 6 queens on 13×13 in 59 s); and ``cpsat`` (``--solver cpsat``).
Each command is a fresh process under ``--time-limit``; ``>T`` marks one
stopped at the limit. Plot to benchmarks/out/domination.png.

    python benchmarks/domination.py [--min-n 8] [--max-n 12] [--time-limit 300]
                                    [--baseline COMMIT] [--cpsat-max-n 9]
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

from chessplace import Board, puzzles
from chessplace.data.reference import known
from chessplace.encodings.formulas import formula_for
from chessplace.engines.sat import SatEngine
from chessplace.runtime.control import Control
from plotting import log_plot

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "98818fa9a597bcfde10700764a3ab8ed30319d6f"
"""main before the domination work (γ(Q₁₂) in about 137 s)."""
SKIPPED = float("nan")
"""A cell not measured (cpsat past ``--cpsat-max-n``)."""


def unpack(commit: str, into: Path) -> Path:
    """The ``src`` folder of ``commit``, unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def optimize_seconds(src: Path, n: int, limit: float, *options: str) -> tuple[float, int | None]:
    """Wall seconds of ``chessplace optimize dominating-queens -n N`` run from ``src``,
    and the objective if proven optimal (``None``: stopped or not proven)."""
    command = [sys.executable, "-m", "chessplace", "optimize", "dominating-queens"]
    command += ["-n", str(n), "--json", "--time-limit", str(limit), *options]
    start = time.perf_counter()
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(src)}
    )
    seconds = time.perf_counter() - start
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError:
        return seconds, None
    proven = answer.get("status") == "optimal"
    return seconds, answer.get("objective") if proven else None


def refute_seconds(n: int, limit: float) -> float | None:
    """Seconds for the SAT engine to refute γ(Q_n) − 1 queens (``None`` past the limit)."""
    optimum = known("A075458", n)
    assert optimum is not None
    problem = puzzles.dominating_queens(Board.square(n)).without_counts()
    control = Control(time_limit=limit)
    start = time.perf_counter()
    formula = formula_for(problem, None, control)
    formula.objective_at_most(optimum - 1)
    outcome, _ = SatEngine()._run(formula, control)
    if outcome is None:
        return None
    assert outcome is False, f"{optimum - 1} queens dominate {n}×{n}?"
    return time.perf_counter() - start


def cell(seconds: float | None, limit: float) -> str:
    if seconds is SKIPPED:
        return "-"
    return f">{limit:.0f}" if seconds is None else f"{seconds:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=8)
    parser.add_argument("--max-n", type=int, default=12)
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--cpsat-max-n", type=int, default=9, help="cpsat only up to this n")
    options = parser.parse_args()
    limit = options.time_limit
    ns = list(range(options.min_n, options.max_n + 1))
    columns: dict[str, list[float | None]] = {"before": [], "after": [], "refute": [], "cpsat": []}
    with tempfile.TemporaryDirectory() as folder:
        before_src = unpack(options.baseline, Path(folder))
        print(f"{'n':>3} {'γ':>3} {'before':>8} {'after':>8} {'refute':>8} {'cpsat':>8}")
        for n in ns:
            optimum = known("A075458", n)
            row: dict[str, float | None] = {}
            for name, src, extra in (
                ("before", before_src, ()),
                ("after", ROOT / "src", ()),
                ("cpsat", ROOT / "src", ("--solver", "cpsat")),
            ):
                if name == "cpsat" and n > options.cpsat_max_n:
                    row[name] = SKIPPED
                    continue
                seconds, objective = optimize_seconds(src, n, limit, *extra)
                if objective is not None and objective != optimum:
                    raise SystemExit(f"{name}: γ(Q_{n}) = {objective}, known {optimum}")
                row[name] = seconds if objective is not None else None
            row["refute"] = refute_seconds(n, limit) if optimum and optimum > 1 else 0.0
            for name in columns:
                columns[name].append(row[name])
            print(
                f"{n:>3} {optimum:>3} "
                + " ".join(f"{cell(row[name], limit):>8}" for name in columns),
                flush=True,
            )
    styles = {"before": "o-", "after": "s-", "refute": "^--", "cpsat": "d:"}
    log_plot(
        "domination",
        "Queen domination γ(Q_n) proven (2 cores)",
        "seconds (stopped runs at the limit)",
        [
            (
                name,
                [n for n, s in zip(ns, values, strict=True) if s is not SKIPPED],
                [limit if s is None else max(s, 0.01) for s in values if s is not SKIPPED],
                styles[name],
            )
            for name, values in columns.items()
        ],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
