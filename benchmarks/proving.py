"""Proving power: puzzles × n × each engine alone × the portfolio × MiniZinc with Gecode.

Every run is ``optimize`` under a per-run time limit, timed on the wall clock
(model building included). A cell is the seconds to a proven optimum, or
``>limit (v)`` with the best value v reached. MiniZinc solves a plain model of
each puzzle (a Boolean per square, one clause per attacking pair) with
Gecode; Debian's ``minizinc`` package is installed when missing and this
runs as root, otherwise its column says "not installed". Proven values are
checked against OEIS where it has them and against each other everywhere.
The last columns name the engine chosen when none is named (the construction,
else the portfolio, else a single engine) and its time over the best single
engine's.
Proof time against n (the chosen engine and MiniZinc) goes to
benchmarks/out/proving.png.

    python benchmarks/proving.py [--min-n 4] [--max-n 8] [--time-limit 30]
                                 [--puzzles peaceable-queens,knights] [--no-minizinc]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from chessplace import Board, Problem, Status, optimize, puzzles
from chessplace.core.pieces import piece_from_text
from chessplace.data.reference import known
from chessplace.engines.base import Task
from chessplace.engines.registry import NoSolver, choose
from plotting import log_plot

ENGINES = ("construction", "lines", "sat", "cpsat", "portfolio")
MINIZINC = "minizinc-gecode"
CHOSEN = "chessplace"
"""The engine chessplace picks when none is named."""


def _independent(betza: str, name: str) -> Callable[[Board], Problem]:
    return lambda board: puzzles.independent(board, piece_from_text(betza), name)


PUZZLES: dict[str, Callable[[Board], Problem]] = {
    "peaceable-queens": puzzles.peaceable_queens,
    "dominating-queens": puzzles.dominating_queens,
    "bishops": puzzles.bishops,
    "knights": _independent("N", "knights"),
    "nightriders": _independent("NN", "nightriders"),
    "amazons": puzzles.amazons,
}
OEIS = {"peaceable-queens": "A250000", "dominating-queens": "A075458", "bishops": "bishops"}

ATTACKS = """
function bool: queen(int: a, int: b, int: c, int: d) =
    a == c \\/ b == d \\/ abs(a - c) == abs(b - d);
function bool: bishop(int: a, int: b, int: c, int: d) = abs(a - c) == abs(b - d);
function bool: knight(int: a, int: b, int: c, int: d) = abs(a - c) * abs(b - d) == 2;
function bool: nightrider(int: a, int: b, int: c, int: d) =
    2 * abs(a - c) == abs(b - d) \\/ abs(a - c) == 2 * abs(b - d);
function bool: amazon(int: a, int: b, int: c, int: d) = queen(a, b, c, d) \\/ knight(a, b, c, d);
int: n;
set of int: R = 1..n;
"""
INDEPENDENT = """
array[R, R] of var bool: x;
constraint forall(a, b, c, d in R where (a < c \\/ (a == c /\\ b < d)) /\\ ATTACK(a, b, c, d))
    (not x[a, b] \\/ not x[c, d]);
var int: obj = sum(a, b in R)(bool2int(x[a, b]));
solve maximize obj;
output ["obj = \\(obj)\\n"];
"""
DOMINATING = """
array[R, R] of var bool: x;
constraint forall(c, d in R)
    (exists(a, b in R where (a == c /\\ b == d) \\/ queen(a, b, c, d))(x[a, b]));
var int: obj = sum(a, b in R)(bool2int(x[a, b]));
solve minimize obj;
output ["obj = \\(obj)\\n"];
"""
PEACEABLE = """
array[R, R] of var bool: w;
array[R, R] of var bool: k;
constraint forall(a, b in R)(not w[a, b] \\/ not k[a, b]);
constraint forall(a, b, c, d in R where (a != c \\/ b != d) /\\ queen(a, b, c, d))
    (not w[a, b] \\/ not k[c, d]);
var int: obj = sum(a, b in R)(bool2int(w[a, b]));
constraint obj == sum(a, b in R)(bool2int(k[a, b]));
solve maximize obj;
output ["obj = \\(obj)\\n"];
"""
MODELS = {
    "peaceable-queens": PEACEABLE,
    "dominating-queens": DOMINATING,
    "bishops": INDEPENDENT.replace("ATTACK", "bishop"),
    "knights": INDEPENDENT.replace("ATTACK", "knight"),
    "nightriders": INDEPENDENT.replace("ATTACK", "nightrider"),
    "amazons": INDEPENDENT.replace("ATTACK", "amazon"),
}

Run = tuple[float | None, int | None]
"""Seconds to a proven optimum (``None`` past the limit) and the best value reached."""


def chessplace_run(engine: str, problem: Problem, limit: float) -> Run | None:
    """One engine (or the portfolio) alone; ``None`` when it does not take the problem."""
    started = time.perf_counter()
    try:
        result = optimize(problem, solver=engine, time_limit=limit)
    except NoSolver:
        return None
    seconds = time.perf_counter() - started
    return (seconds if result.status is Status.OPTIMAL else None), result.objective


def minizinc_ready() -> bool:
    """MiniZinc with Gecode on the path, installed from Debian's package when possible."""
    if shutil.which("minizinc") is None and hasattr(os, "geteuid") and os.geteuid() == 0:
        policy = subprocess.run(
            ["apt-cache", "policy", "minizinc"], capture_output=True, text=True, check=False
        ).stdout
        if "Candidate:" in policy and "Candidate: (none)" not in policy:
            print("installing minizinc: apt-get install -y minizinc", file=sys.stderr)
            subprocess.run(
                ["apt-get", "install", "-y", "minizinc"], capture_output=True, check=False
            )
    if shutil.which("minizinc") is None:
        return False
    solvers = subprocess.run(
        ["minizinc", "--solvers"], capture_output=True, text=True, check=False
    ).stdout
    return "gecode" in solvers.lower()


def minizinc_run(puzzle: str, n: int, limit: float) -> Run:
    with tempfile.TemporaryDirectory() as folder:
        model = Path(folder) / f"{puzzle}.mzn"
        model.write_text(ATTACKS + MODELS[puzzle], encoding="utf-8")
        command = ["minizinc", "--solver", "gecode", "--time-limit", str(int(limit * 1000))]
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [*command, str(model), "-D", f"n = {n};"],
                capture_output=True,
                text=True,
                timeout=limit + 30,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return None, None
        seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"minizinc failed on {puzzle} n = {n}: {done.stderr.strip()}")
    values = [int(v) for v in re.findall(r"obj = (-?\d+)", done.stdout)]
    best = values[-1] if values else None
    proven = "==========" in done.stdout
    return (seconds if proven else None), best


def cell(run: Run | None, limit: float) -> str:
    if run is None:
        return "—"
    seconds, value = run
    if seconds is not None:
        return f"{seconds:.2f}"
    return f">{limit:g} ({'-' if value is None else value})"


def check(puzzle: str, n: int, runs: dict[str, Run | None]) -> int | None:
    """The proven optimum, the same from every engine that proved it and from OEIS."""
    proven = {name: run[1] for name, run in runs.items() if run is not None and run[0] is not None}
    expected = known(OEIS[puzzle], n) if puzzle in OEIS else None
    values = set(proven.values()) | ({expected} if expected is not None else set())
    if len(values) > 1:
        sys.exit(f"{puzzle} n = {n}: proven optima disagree: {proven}, OEIS {expected}")
    return values.pop() if values else None


def warm_up() -> None:
    """Load the compiled kernels and the solvers' libraries before any timing."""
    for engine in ("lines", "sat", "cpsat"):
        optimize(puzzles.peaceable_queens(Board.square(4)), solver=engine)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=4)
    parser.add_argument("--max-n", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--puzzles", default=",".join(PUZZLES))
    parser.add_argument("--no-minizinc", action="store_true")
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args()
    wanted = args.puzzles.split(",")
    unknown = set(wanted) - set(PUZZLES)
    if unknown:
        parser.error(
            f"unknown puzzle {', '.join(sorted(unknown))}; choose from {', '.join(PUZZLES)}"
        )
    with_minizinc = not args.no_minizinc and minizinc_ready()
    warm_up()
    limit = args.time_limit
    columns = (*ENGINES, MINIZINC)
    print(f"cores: {os.cpu_count()}, time limit per run: {limit:g} s")
    print(f"| puzzle | n | optimum | {' | '.join(columns)} | chosen | chosen / best alone |")
    print(f"| --- | --- | --- | {' | '.join('---' for _ in columns)} | --- | --- |")
    timings: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for puzzle in wanted:
        for n in range(args.min_n, args.max_n + 1):
            problem = PUZZLES[puzzle](Board.square(n))
            runs: dict[str, Run | None] = {
                engine: chessplace_run(engine, problem, limit) for engine in ENGINES
            }
            if with_minizinc:
                runs[MINIZINC] = minizinc_run(puzzle, n, limit)
            optimum = check(puzzle, n, runs)
            cells = [cell(runs[c], limit) if c in runs else "not installed" for c in columns]
            for name, run in runs.items():
                if run is not None and run[0] is not None:
                    timings.setdefault((puzzle, name), []).append((n, run[0]))
            chosen_engine = choose(problem, Task.OPTIMIZE).engine.name
            answer = runs[chosen_engine]
            if answer is not None and answer[0] is not None:
                timings.setdefault((puzzle, CHOSEN), []).append((n, answer[0]))
            print(
                f"| {puzzle} | {n} | {optimum} | {' | '.join(cells)} | {chosen_engine} "
                f"| {ratio(runs, chosen_engine)} |"
            )
            sys.stdout.flush()
    if not args.no_plot:
        plot(timings)
    return 0


def ratio(runs: dict[str, Run | None], chosen: str) -> str:
    """The chosen engine's time to a proof over the best single engine's."""
    alone = [
        run[0]
        for name, run in runs.items()
        if name not in ("portfolio", MINIZINC) and run is not None and run[0] is not None
    ]
    answer = runs[chosen]
    if not alone or answer is None or answer[0] is None:
        return ""
    return f"{answer[0] / min(alone):.1f}×"


def plot(timings: dict[tuple[str, str], list[tuple[int, float]]]) -> None:
    """Per puzzle, in one colour: chessplace's chosen engine and MiniZinc, seconds to a
    proof against n."""
    colours = {puzzle: f"C{i}" for i, puzzle in enumerate(PUZZLES)}
    styles = {CHOSEN: "o-", MINIZINC: "x--"}
    series = [
        (f"{puzzle}, {name}", [n for n, _ in points], [s for _, s in points], colour + style)
        for (puzzle, name), points in sorted(timings.items())
        for colour, style in [(colours[puzzle], styles.get(name))]
        if style is not None
    ]
    if series:
        log_plot("proving", "Seconds to prove the optimum", "seconds (log)", series)


if __name__ == "__main__":
    sys.exit(main())
