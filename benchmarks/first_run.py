"""A newcomer's first commands, from an empty cache, against an older tree in the same run.

Each command runs as ``python -m chessplace ...`` in a fresh process whose Numba and
chessplace caches (``NUMBA_CACHE_DIR``, ``CHESSPLACE_CACHE``) point at a new empty
folder, so it compiles whatever it compiles as on a machine that never ran
chessplace; nobody's own cache is read or touched. The baseline is the ``src`` folder
of another commit (``--baseline``, extracted with ``git archive`` into a temporary
folder), or this tree with some commits' changes to ``src`` taken back
(``--without``: the exact change, where the commits between hold half-finished
work of others); both trees' bytecode is compiled first (``compileall``), so that
the seconds are chessplace's and Numba's, not Python's. The two trees take turns,
command by command, so that a busy machine weighs on both alike; ``--runs`` takes
the median of that many. A command over 10 s must have said why on stderr (the
``compiling …`` line): the last column says whether it did.

Goals (issue 53): the demo under 30 s, the first ``count queens -n 8`` under 3 s and
the first ``generate queens-game -n 8`` under 10 s, on two cores.

    python benchmarks/first_run.py --without 3f189d0 6bcc8e8 c5c0099 [--runs 1] [--only count]
    python benchmarks/first_run.py --baseline 46cfb49 --kernels
"""

from __future__ import annotations

import argparse
import compileall
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAID_WHY_AFTER = 10.0
"""Seconds after which a first command must have said why it takes long."""


@dataclass(frozen=True)
class Command:
    words: tuple[str, ...]
    goal: float | None = None


COMMANDS = (
    Command(("demo", "--ascii"), 30.0),
    Command(("count", "queens", "-n", "8"), 3.0),
    Command(("generate", "queens-game", "-n", "8", "--seed", "1"), 10.0),
    Command(("count", "queens", "-n", "12", "--unique")),
    Command(("count", "amazons", "-n", "10", "--unique")),
    Command(("optimize", "peaceable-queens", "-n", "8")),
    Command(("optimize", "dominating-queens", "-n", "8")),
)


PROBE = r"""
import os, runpy, sys, threading, time
from numba.core import event

class Compiles(event.Listener):
    started = threading.local()

    def on_start(self, happened):
        self.started.times = [*getattr(self.started, "times", []), time.thread_time()]

    def on_end(self, happened):
        began = self.started.times.pop()
        if not self.started.times:  # not a helper compiled inside another compilation
            function = happened.data["dispatcher"].py_func
            name = f"{function.__module__}.{function.__qualname__}"
            with open(os.environ["FIRST_RUN_KERNELS"], "a") as log:
                log.write(f"{name}\t{time.thread_time() - began}\n")

event.register("numba:compile", Compiles())
runpy.run_module("chessplace", run_name="__main__")
"""
"""Runs chessplace with Numba's compilations written down (``--kernels``)."""


@dataclass(frozen=True)
class Run:
    seconds: float
    cpu: float
    said_why: bool
    kernels: dict[str, float]
    warm: float


def _cpu() -> float:
    """CPU seconds of this process's finished children so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def first_run(source: Path, command: Command, kernels: bool) -> Run:
    """One run of ``command`` with ``source`` on the path and empty caches (``kernels``:
    with its compilations written down), then one with the caches it filled."""
    with tempfile.TemporaryDirectory(prefix="chessplace-first-run-") as cache:
        log = Path(cache, "kernels.tsv")
        environment = {
            **os.environ,
            "PYTHONPATH": str(source),
            "NUMBA_CACHE_DIR": str(Path(cache, "numba")),
            "CHESSPLACE_CACHE": str(Path(cache, "chessplace")),
            "FIRST_RUN_KERNELS": str(log),
        }
        start = ["-c", PROBE] if kernels else ["-m", "chessplace"]
        cpu, started = _cpu(), time.perf_counter()
        done = subprocess.run(
            [sys.executable, *start, *command.words],
            capture_output=True,
            text=True,
            env=environment,
            cwd=cache,
        )
        seconds, cpu = time.perf_counter() - started, _cpu() - cpu
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command.words)} failed:\n{done.stderr[-2000:]}")
        compiled = _compilations(log.read_text() if log.exists() else "")
        started = time.perf_counter()
        again = [sys.executable, "-m", "chessplace", *command.words]
        subprocess.run(again, capture_output=True, env=environment, cwd=cache, check=True)
        warm = time.perf_counter() - started
    return Run(seconds, cpu, "compiling" in done.stdout + done.stderr, compiled, warm)


def _compilations(log: str) -> dict[str, float]:
    """CPU seconds per compiled function, the generated bitboard searches taken together."""
    seconds: dict[str, float] = {}
    for line in log.splitlines():
        name, spent = line.split("\t")
        if name.startswith("chessplace_search_"):
            name = "bitboard search (generated, each side and piece)"
        name = name.removeprefix("chessplace.engines.")
        seconds[name] = seconds.get(name, 0.0) + float(spent)
    return seconds


def extracted(revision: str, into: Path) -> Path:
    """The ``src`` folder of ``revision``, written under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "src"], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def taken_back(commits: list[str], into: Path) -> Path:
    """This tree's ``src`` folder, copied under ``into``, without the changes that
    ``commits`` made to it."""
    source = into / "src"
    shutil.copytree(ROOT / "src", source, ignore=shutil.ignore_patterns("__pycache__"))
    for commit in reversed(commits):
        change = subprocess.run(
            ["git", "-C", str(ROOT), "diff", f"{commit}~1", commit, "--", "src"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["git", "apply", "-R"], input=change, cwd=into, check=True)
    return source


def median_run(runs: list[Run]) -> Run:
    return Run(
        statistics.median(r.seconds for r in runs),
        statistics.median(r.cpu for r in runs),
        all(r.said_why for r in runs),
        runs[len(runs) // 2].kernels,
        statistics.median(r.warm for r in runs),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    against = parser.add_mutually_exclusive_group(required=True)
    against.add_argument("--baseline", help="the commit whose src to compare with")
    against.add_argument("--without", nargs="+", help="commits whose changes to take back")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--only", help="only the commands whose words contain this")
    parser.add_argument("--kernels", action="store_true", help="list each compilation too")
    arguments = parser.parse_args()
    commands = [c for c in COMMANDS if not arguments.only or arguments.only in " ".join(c.words)]
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="chessplace-baseline-") as folder:
        if arguments.baseline:
            baseline = extracted(arguments.baseline, Path(folder))
            named = arguments.baseline
        else:
            baseline = taken_back(arguments.without, Path(folder))
            named = f"this tree without {' '.join(arguments.without)}"
        trees = {"baseline": baseline, "now": ROOT / "src"}
        for source in trees.values():
            compileall.compile_dir(source, quiet=1)
        rows: list[tuple[Command, Run, Run]] = []
        for command in commands:
            runs: dict[str, list[Run]] = {name: [] for name in trees}
            for _ in range(arguments.runs):
                for name, source in trees.items():
                    runs[name].append(first_run(source, command, arguments.kernels))
            rows.append((command, median_run(runs["baseline"]), median_run(runs["now"])))
    print(f"first runs with empty caches, median of {arguments.runs}, on {os.cpu_count()} cores")
    print(f"baseline: {named}; load average {load:.1f} at the start, ", end="")
    print(f"{os.getloadavg()[0]:.1f} at the end")
    print(
        f"{'command':<36} {'baseline s':>10} {'now s':>6} {'goal s':>6} {'said why':>8}"
        f" {'CPU s':>11} {'warm s':>11}"
    )
    for command, before, after in rows:
        goal = f"< {command.goal:.0f}" if command.goal else ""
        why = ("yes" if after.said_why else "NO") if after.seconds > SAID_WHY_AFTER else ""
        print(
            f"{' '.join(command.words):<36} {before.seconds:>10.1f} {after.seconds:>6.1f}"
            f" {goal:>6} {why:>8} {before.cpu:>5.1f} {after.cpu:>5.1f}"
            f" {before.warm:>5.1f} {after.warm:>5.1f}"
        )
    print("(CPU s and warm s: baseline, then now)")
    if arguments.kernels:
        _print_kernels(rows)
    return 0


def _print_kernels(rows: list[tuple[Command, Run, Run]]) -> None:
    print("\ncompilations, CPU s (baseline, now), in all the command's processes:")
    for command, before, after in rows:
        print(" ".join(command.words))
        for name in sorted({*before.kernels, *after.kernels}):
            old, new = before.kernels.get(name), after.kernels.get(name)
            shown = [f"{s:>6.1f}" if s is not None else f"{'-':>6}" for s in (old, new)]
            print(f"  {name:<52} {' '.join(shown)}")


if __name__ == "__main__":
    sys.exit(main())
