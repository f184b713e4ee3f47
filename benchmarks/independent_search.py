"""What the independent check costs: the C search (research/line_search.c) against the engine.

For each case both run as child processes on one core, and the table gives
the CPU seconds of each (best of ``--rounds``, from the children's rusage) and
their ratio. The engine (`chessplace optimize` or `count --optimal`, one
worker) finds the optimum and proves it, or counts the optimal placements;
the C search (compiled once, timed apart) refutes one more, or counts the
placements of the optimum, over both colours of the first rank. Both answers
are checked against the reference values.

    python benchmarks/independent_search.py [--cases w11,w12,12,13,c11,c12] [--rounds 2]

A case is wN (N×N beside A250000(N) white: A308632, past the OEIS terms the
value in results/a308632/), N (A250000) or cN (every placement of A250000(N)
each: the count A260680's classes hold, from results/a260680/).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from chessplace.data.reference import known
from chessplace.research.c_search import compiled

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list[str], words: str | None = None) -> tuple[float, str]:
    """CPU seconds of one child run and what it printed."""
    before = _children_cpu()
    run = subprocess.run(command, input=words, capture_output=True, text=True, check=True)
    return _children_cpu() - before, run.stdout


def _runs(case: str, program: Path) -> tuple[list[str], list[str], str, int]:
    """The engine's command, the C search's, what the C search's answers must show, and
    the value both must reach."""
    engine = [sys.executable, "-m", "chessplace"]
    if case.startswith("w"):
        n = int(case[1:])
        white, most = known("A250000", n), known("A308632", n)
        if most is None:  # past the OEIS terms: the value published in results/
            most = json.loads((ROOT / "results" / "a308632" / f"n{n}.json").read_text())["value"]
        assert white is not None and most is not None
        return (
            [*engine, "optimize", "peaceable-queens", "-n", str(n), "--white", str(white)],
            [str(program), str(n), str(white), str(most + 1)],
            "refuted",
            most,
        )
    n = int(case.lstrip("c"))
    m = known("A250000", n)
    assert m is not None
    if case.startswith("c"):
        held = json.loads((ROOT / "results" / "a260680" / f"n{n}.json").read_text())
        return (
            [*engine, "count", "peaceable-queens", "-n", str(n), "--optimal"],
            [str(program), str(n), str(m), str(m), "count"],
            "counted",
            int(held["placements"]),
        )
    return (
        [*engine, "optimize", "peaceable-queens", "-n", str(n)],
        [str(program), str(n), str(m + 1), str(m + 1)],
        "refuted",
        m,
    )


def _checked(engine_out: str, search_out: str, verdict: str, value: int) -> None:
    """Both answers agree with the reference value: the engine's JSON answer (its proven
    optimum, or its count) and the C search's two chunks (refuted, or their counts)."""
    answer = json.loads(engine_out)
    assert answer["status"] in ("optimal", "complete"), answer["status"]
    assert answer["count" if verdict == "counted" else "objective"] == value, answer
    answers = search_out.split("\n")[:2]
    assert all(a.startswith(verdict) for a in answers), search_out
    if verdict == "counted":
        assert sum(int(a.split()[2]) for a in answers) == value, search_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="w11,w12,12,13,c11,c12")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        program = compiled(Path(directory))
        print(f"line_search.c compiled in {time.perf_counter() - started:.2f} s wall")
        print("| case | engine CPU-s | C search CPU-s | C / engine |")
        print("| --- | --- | --- | --- |")
        for case in args.cases.split(","):
            engine, search, verdict, value = _runs(case, program)
            engine_best = search_best = float("inf")
            for _ in range(args.rounds):
                engine_seconds, engine_out = _timed([*engine, "--workers", "1", "--json"])
                search_seconds, search_out = _timed(search, "0\n1\n")
                _checked(engine_out, search_out, verdict, value)
                engine_best = min(engine_best, engine_seconds)
                search_best = min(search_best, search_seconds)
            print(
                f"| {case} | {engine_best:.2f} | {search_best:.2f} "
                f"| {search_best / engine_best:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
