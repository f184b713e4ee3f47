"""Blocked n-Queens (CSPLib prob080): chessplace against Lingeling and shiftqueens.

Two races, both on instances nobody here wrote, every answer verified:

1. The ASP-competition instances (n = 28, 48, 50, 56; 100 each): chessplace answers
   them through its API, each status is compared with the published Lingeling result,
   and PySAT's Lingeling solves the same instances in this run through the published
   DIMACS encoding (CSPLib's ``blockedqueens2dimacs.py``, executed from the checkout).
2. Random instances at the phase transition for n = 30..60 (this script's own generator,
   following the description of CSPLib's ``blocked-gen.py``; fixed seeds): chessplace
   against Ian Gent and Christopher Jefferson's ``shiftqueensblock.cc``, compiled here
   with g++.

Nothing of CSPLib is kept in this repository: the script reads the checkout named by
``--csplib`` (a work tree, or a bare git directory read through ``git show``) and builds
into a cache directory. It prints markdown tables and plots time against the number of
blocked squares to benchmarks/out/csplib.png
(csplib-asp.png, csplib-random.png when one race is skipped).

    python benchmarks/csplib.py --csplib DIR [--quick] [--limit K] [--skip-race]
    python benchmarks/csplib.py --csplib DIR --skip-race --sample K --seed S --budget SECONDS
    python benchmarks/csplib.py --csplib DIR --skip-race --sample 100 --seed S --rounds R \
        --old OLD/src

``--sample`` draws K ASP instances of each n at random and runs them in rounds (one of
each n a round), each solver first on every other instance; ``--rounds`` keeps the first
rounds only, ``--budget`` stops starting instances after that many seconds. A table then
projects the totals over all 400 from the published Lingeling times. ``--old SRC`` times
an older tree's chessplace too (its ``src`` folder), in a worker process, on the same
instances in the same run. Each chessplace is called once untimed on the first instance
(imports and first calls are start-up).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import multiprocessing
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any

from chessplace import api
from chessplace.core.board import square_name
from chessplace.core.result import Status
from chessplace.notation.options import problem_from_options

PROB080 = "Problems/prob080"
ASP_TARBALL = f"{PROB080}/data/asp-competition-instances.tar.gz"
ASP_RESULTS = f"{PROB080}/results/run-aspbenchmarks-lingeling-python.txt.gz"
DIMACS_SCRIPT = f"{PROB080}/models/blockedqueens2dimacs.py"
SHIFTQUEENS = f"{PROB080}/models/shiftqueensblock.cc"
OLD = "chessplace-old"
"""The column of ``--old``: the chessplace of an older tree."""
RACE_SEEDS = 1_000
"""Seeds of the random instances: RACE_SEEDS * n + i for the i-th instance of side n."""

Block = tuple[int, int]
"""A blocked square as CSPLib writes it: (row, column), both from 1."""


@dataclass(frozen=True)
class Instance:
    name: str
    n: int
    blocks: tuple[Block, ...]
    published: str | None = None  # "sat" / "unsat" from the published Lingeling run
    published_seconds: float | None = None


@dataclass
class Outcome:
    """One solver's answer to one instance: "sat", "unsat" or "timeout"; wall seconds,
    and CPU seconds of this process and the children it waited for."""

    status: str
    seconds: float
    cpu: float = 0.0


@dataclass
class Row:
    instance: Instance
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    load: float = 0.0  # the 1-minute load average when the instance started


class Checkout:
    """Files of a CSPLib checkout: a work tree, or a bare git directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bare = not (root / "Problems").is_dir()
        if self.bare and not (root / "objects").is_dir():
            raise SystemExit(f"{root} is neither a CSPLib work tree nor a bare git directory")

    def read(self, path: str) -> bytes:
        if not self.bare:
            return (self.root / path).read_bytes()
        shown = subprocess.run(
            ["git", f"--git-dir={self.root}", "show", f"HEAD:{path}"],
            capture_output=True,
            check=False,
        )
        if shown.returncode != 0:
            raise SystemExit(f"cannot read {path} from {self.root}: {shown.stderr.decode()}")
        return shown.stdout

    def copy_to(self, path: str, cache: Path) -> Path:
        """The file, written under ``cache`` (once) so that it can be run or compiled."""
        target = cache / Path(path).name
        if not target.exists():
            target.write_bytes(self.read(path))
        return target


# --- instances -------------------------------------------------------------------------


def parse_instance(name: str, text: str) -> Instance:
    """An Essence' parameter file: ``letting n = N`` and ``letting blocks = [[r, c], ...]``."""
    size = re.search(r"letting\s+n\s*=\s*(\d+)", text)
    listing = re.search(r"letting\s+blocks\s*=\s*\[(.*)\]", text, re.S)
    if size is None or listing is None:
        raise ValueError(f"{name}: not a blocked n-queens parameter file")
    numbers = [int(x) for x in re.findall(r"\d+", listing.group(1))]
    return Instance(name, int(size.group(1)), tuple(zip(numbers[::2], numbers[1::2], strict=True)))


def asp_instances(checkout: Checkout) -> list[Instance]:
    """The 400 ASP-competition instances with the published Lingeling status and time."""
    published: dict[str, tuple[str, float]] = {}
    for line in gzip.decompress(checkout.read(ASP_RESULTS)).decode().splitlines():
        fields = line.split()
        if len(fields) >= 16:  # n, -1, id, status, ..., total wall time (16th)
            status = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat"}.get(fields[3], "?")
            published[fields[2]] = (status, float(fields[15]))
    found = []
    with tarfile.open(fileobj=io.BytesIO(checkout.read(ASP_TARBALL))) as archive:
        for member in archive.getmembers():
            base = Path(member.name).name
            if not member.isfile() or base.startswith("._") or not base.endswith(".param"):
                continue  # macOS resource forks ride along in the tarball
            data = archive.extractfile(member)
            assert data is not None
            instance = parse_instance(base, data.read().decode())
            status, seconds = published.get(base.split(".")[2], ("", 0.0))
            found.append(
                Instance(instance.name, instance.n, instance.blocks, status or None, seconds)
            )
    return sorted(found, key=lambda i: (i.n, i.name))


def transition_free(n: int) -> float:
    """Free squares per row where the expected number of solutions is 1 (Gent, Jefferson
    and Nightingale's estimate, as in CSPLib's analysis of prob080)."""
    size = 0.5 * (1 + math.log2(math.pi) + math.log2(n)) + n * (
        math.log2(n) - math.log2(2.54) - math.log2(math.e)
    )
    return n * 2 ** (-size / n)


def random_instance(n: int, blocks: int, keep: int, seed: int) -> Instance:
    """Block ``blocks`` squares in a random order, skipping a square whose rank or file
    would keep no more than ``keep`` free squares (the rule of CSPLib's generator)."""
    generator = random.Random(seed)
    squares = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    generator.shuffle(squares)
    free_rows = [n] * (n + 1)
    free_cols = [n] * (n + 1)
    chosen: list[Block] = []
    for r, c in squares:
        if len(chosen) == blocks:
            break
        if free_rows[r] > keep and free_cols[c] > keep:
            free_rows[r] -= 1
            free_cols[c] -= 1
            chosen.append((r, c))
    return Instance(f"random-{n}-{blocks}-{seed}", n, tuple(sorted(chosen)))


def race_instances(sides: Iterable[int], per_n: int, keep: int) -> list[Instance]:
    """``per_n`` instances a side, spread over ±0.5 free squares a row round the
    transition (the hardest band)."""
    found = []
    for n in sides:
        free = transition_free(n)
        for i in range(per_n):
            offset = -0.5 + (i + 0.5) / per_n
            blocks = round(n * (n - free - offset))
            found.append(random_instance(n, blocks, keep, RACE_SEEDS * n + i))
    return found


# --- solvers ---------------------------------------------------------------------------


def chessplace_solver(solver: str | None, limit: float) -> Callable[[Instance], Outcome]:
    """chessplace through its API, on the problem the CLI builds from ``--blocked``."""

    def run(instance: Instance) -> Outcome:
        started = time.perf_counter()
        blocked = [square_name((c - 1, r - 1)) for r, c in instance.blocks]
        problem = problem_from_options("queens", n=instance.n, blocked=blocked)
        result = api.solve(problem, solver=solver, time_limit=limit)
        seconds = time.perf_counter() - started
        if result.status is Status.INFEASIBLE:
            return Outcome("unsat", seconds)
        if result.placement is None:
            return Outcome("timeout", seconds)
        violations = result.placement.verify()
        squares = [(rank + 1, file + 1) for file, rank in result.placement.armies[0]]
        if violations or not valid(instance, squares):
            raise AssertionError(f"{instance.name}: invalid answer {violations[:1]}")
        return Outcome("sat", seconds)

    return warmed(run)


def warmed(run: Callable[[Instance], Outcome]) -> Callable[[Instance], Outcome]:
    """``run``, called once untimed on the first instance: imports and first calls are
    start-up, not solving."""
    done = False

    def first_warm(instance: Instance) -> Outcome:
        nonlocal done
        if not done:
            run(instance)
            done = True
        return run(instance)

    return first_warm


def valid(instance: Instance, squares: Sequence[Block]) -> bool:
    """n queens, none on a blocked square, no two on a rank, file or diagonal."""
    lines = [{key(r, c) for r, c in squares} for key in _LINE_KEYS]
    free = not set(squares) & set(instance.blocks)
    return free and all(len(found) == len(squares) == instance.n for found in lines)


_LINE_KEYS: tuple[Callable[[int, int], int], ...] = (
    lambda r, c: r,
    lambda r, c: c,
    lambda r, c: r + c,
    lambda r, c: r - c,
)

OLD_WORKER = """
import json, sys, time
from chessplace import api
from chessplace.core.board import square_name
from chessplace.core.result import Status
try:
    from chessplace.notation.options import problem_from_options
except ImportError:  # a tree from before the notation room
    from chessplace.core.puzzles import problem_from_options
for line in sys.stdin:
    n, blocks, limit = json.loads(line)
    started = time.perf_counter()
    blocked = [square_name((c - 1, r - 1)) for r, c in blocks]
    result = api.solve(problem_from_options("queens", n=n, blocked=blocked), time_limit=limit)
    seconds = time.perf_counter() - started
    squares = None
    if result.placement is not None:
        assert not result.placement.verify()
        squares = [(rank + 1, file + 1) for file, rank in result.placement.armies[0]]
    infeasible = result.status is Status.INFEASIBLE
    print(json.dumps([infeasible, squares, seconds]), flush=True)
"""


def old_solver(source: Path, limit: float) -> Callable[[Instance], Outcome]:
    """The chessplace of an older tree (its ``src``), in one worker process started
    here, timed by the worker as this process times its own chessplace; its CPU time
    counts the worker and the solvers it waited for."""
    environment = {**os.environ, "PYTHONPATH": str(source)}
    worker = subprocess.Popen(
        [sys.executable, "-c", OLD_WORKER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=environment,
    )
    assert worker.stdin is not None and worker.stdout is not None
    pipe_in, pipe_out = worker.stdin, worker.stdout

    def ask(instance: Instance) -> tuple[bool, list[Block] | None, float, float]:
        before = _worker_cpu(worker.pid)
        pipe_in.write(json.dumps([instance.n, instance.blocks, limit]) + "\n")
        pipe_in.flush()
        infeasible, squares, seconds = json.loads(pipe_out.readline())
        found = None if squares is None else [(r, c) for r, c in squares]
        return infeasible, found, seconds, _worker_cpu(worker.pid) - before

    def run(instance: Instance) -> Outcome:
        infeasible, squares, seconds, cpu = ask(instance)
        if infeasible:
            return Outcome("unsat", seconds, cpu)
        if squares is None:
            return Outcome("timeout", seconds, cpu)
        if not valid(instance, squares):
            raise AssertionError(f"{instance.name}: the old tree's answer is invalid")
        return Outcome("sat", seconds, cpu)

    return warmed(run)


def _worker_cpu(pid: int) -> float:
    """CPU seconds of a process and of the children it has waited for (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _lingeling_child(sender: Any, clauses: list[list[int]]) -> None:
    from pysat.solvers import Lingeling

    started = time.perf_counter()
    with Lingeling(bootstrap_with=clauses) as solver:
        outcome = solver.solve()
    sender.send((outcome, time.perf_counter() - started))


def lingeling_solver(script: Path, limit: float) -> Callable[[Instance], Outcome]:
    """PySAT's Lingeling on the published DIMACS encoding; the time counts the
    translation (a Python 3 script, run as published) and the solve, as CSPLib's did."""
    from pysat.formula import CNF

    context = multiprocessing.get_context("fork")

    def run(instance: Instance) -> Outcome:
        started = time.perf_counter()
        text = f"{instance.n} " + " ".join(f"{r} {c}" for r, c in instance.blocks)
        translated = subprocess.run(
            [sys.executable, str(script)], input=text, capture_output=True, text=True, check=True
        )
        clauses = CNF(from_string=translated.stdout).clauses
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(target=_lingeling_child, args=(sender, clauses), daemon=True)
        child.start()
        answered = receiver.poll(max(0.0, limit - (time.perf_counter() - started)))
        seconds = time.perf_counter() - started
        if not answered:
            child.kill()
            child.join()
            return Outcome("timeout", seconds)
        outcome, _ = receiver.recv()
        child.join()
        return Outcome("sat" if outcome else "unsat", seconds)

    return run


def build_shiftqueens(source: Path, cache: Path) -> Path:
    """Compile Jefferson's solver (plain C++, __int128 masks: n up to 128) with g++."""
    binary = cache / "shiftqueensblock"
    if not binary.exists():
        compiler = shutil.which("g++")
        if compiler is None:
            raise SystemExit("g++ is needed to build shiftqueens: apt-get install g++")
        subprocess.run([compiler, "-O3", "-o", str(binary), str(source)], check=True)
    return binary


def shiftqueens_solver(binary: Path, limit: float) -> Callable[[Instance], Outcome]:
    """shiftqueensblock: a row-by-row search that stops at the first solution."""

    def run(instance: Instance) -> Outcome:
        # It reads n, then "x y" pairs and blocks column x of row y.
        text = f"{instance.n}\n" + "".join(f"{c} {r}\n" for r, c in instance.blocks)
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [str(binary)], input=text, capture_output=True, text=True, timeout=limit
            )
        except subprocess.TimeoutExpired:
            return Outcome("timeout", time.perf_counter() - started)
        seconds = time.perf_counter() - started
        if "Solution Found" in done.stdout:
            return Outcome("sat", seconds)
        if "No solution" in done.stdout:
            return Outcome("unsat", seconds)
        raise AssertionError(f"{instance.name}: shiftqueens said {done.stdout[-200:]!r}")

    return run


# --- reporting -------------------------------------------------------------------------


def run_all(
    instances: Sequence[Instance],
    solvers: dict[str, Callable[[Instance], Outcome]],
    budget: float | None = None,
) -> list[Row]:
    """Every solver on each instance in turn, the first one alternating from one
    instance to the next (so that a change of load falls on both alike); no instance
    is started once ``budget`` seconds have passed."""
    rows = []
    started = time.perf_counter()
    for number, instance in enumerate(instances, 1):
        if budget is not None and time.perf_counter() - started > budget:
            print(f"budget of {budget:g} s spent: {number - 1} instances run", file=sys.stderr)
            break
        row = Row(instance, load=os.getloadavg()[0])
        names = list(solvers) if number % 2 else list(reversed(solvers))
        for name in names:
            row.outcomes[name] = _timed(solvers[name], instance)
        row.outcomes = {name: row.outcomes[name] for name in solvers}
        statuses = {o.status for o in row.outcomes.values()} - {"timeout"}
        if instance.published:
            statuses.add(instance.published)
        cells = " ".join(f"{k} {o.status} {o.seconds:.2f}s" for k, o in row.outcomes.items())
        flag = "  DISAGREE" if len(statuses) > 1 else ""
        print(
            f"[{number}/{len(instances)}] {instance.name}: {cells}{flag} (load {row.load:.1f})",
            file=sys.stderr,
        )
        rows.append(row)
    return rows


def _timed(solver: Callable[[Instance], Outcome], instance: Instance) -> Outcome:
    """The solver's outcome with its CPU time: this process's and that of the children
    it waited for (the SAT solvers' processes, killed ones included)."""
    before = _cpu()
    outcome = solver(instance)
    outcome.cpu += _cpu() - before
    return outcome


def _cpu() -> float:
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def seconds_cell(outcomes: list[Outcome]) -> str:
    """Total, median, max; "≥" when some timed out (their limit counts)."""
    times = [o.seconds for o in outcomes]
    over = "≥" if any(o.status == "timeout" for o in outcomes) else ""
    timeouts = sum(o.status == "timeout" for o in outcomes)
    note = f" ({timeouts} t/o)" if timeouts else ""
    return f"{over}{sum(times):.1f} / {statistics.median(times):.2f} / {over}{max(times):.1f}{note}"


def table(rows: Sequence[Row], baseline: str, published: bool, first: str = "chessplace") -> str:
    solvers = list(rows[0].outcomes) if rows else []
    head = ["n", "instances", "sat / unsat", "agree"]
    head += [f"{s} total / median / max s" for s in solvers]
    head += [f"{baseline} ÷ {first}", "CPU s " + " / ".join(solvers)]
    if published:
        head += ["published Lingeling total s"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    groups: dict[object, list[Row]] = {}
    for row in rows:
        groups.setdefault(row.instance.n, []).append(row)
    groups["all"] = list(rows)
    for n, group in groups.items():
        statuses = [_status(row) for row in group]
        agree = sum(_agrees(row) for row in group)
        cells = [str(n), str(len(group))]
        cells.append(f"{statuses.count('sat')} / {statuses.count('unsat')}")
        cells.append(f"{agree}/{len(group)}")
        cells += [seconds_cell([row.outcomes[s] for row in group]) for s in solvers]
        mine = sum(row.outcomes[first].seconds for row in group)
        theirs = [row.outcomes[baseline] for row in group]
        over = "≥" if any(o.status == "timeout" for o in theirs) else ""
        cells.append(f"{over}{sum(o.seconds for o in theirs) / mine:.1f}×")
        cells.append(
            " / ".join(f"{sum(row.outcomes[s].cpu for row in group):.1f}" for s in solvers)
        )
        if published:
            cells.append(f"{sum(row.instance.published_seconds or 0 for row in group):.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _status(row: Row) -> str:
    found = {o.status for o in row.outcomes.values()} - {"timeout"}
    return found.pop() if len(found) == 1 else "?"


def _agrees(row: Row) -> bool:
    found = {o.status for o in row.outcomes.values()} - {"timeout"}
    if row.instance.published:
        found.add(row.instance.published)
    return len(found) == 1 and row.outcomes["chessplace"].status != "timeout"


def hard_table(rows: Sequence[Row], baseline: str, hard: float = 1.0) -> str:
    """The hard instances: those the baseline took ``hard`` seconds or more on, or
    did not answer within the time limit."""
    lines = [
        f"| n | hard for {baseline} (≥ {hard:g} s) | {baseline} timed out | "
        f"chessplace timed out | chessplace total s | {baseline} total s | ratio |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    groups: dict[int, list[Row]] = {}
    for row in rows:
        groups.setdefault(row.instance.n, []).append(row)
    for n, group in groups.items():
        chosen = [r for r in group if r.outcomes[baseline].seconds >= hard]
        if not chosen:
            lines.append(f"| {n} | 0 | | | | | |")
            continue
        mine = [r.outcomes["chessplace"] for r in chosen]
        theirs = [r.outcomes[baseline] for r in chosen]
        out_theirs = sum(o.status == "timeout" for o in theirs)
        out_mine = sum(o.status == "timeout" for o in mine)
        total, own = sum(o.seconds for o in theirs), sum(o.seconds for o in mine)
        over = "≥" if out_theirs else ""
        lines.append(
            f"| {n} | {len(chosen)} | {out_theirs} | {out_mine} | {'≥' if out_mine else ''}"
            f"{own:.1f} | {over}{total:.1f} | {over if not out_mine else '~'}{total / own:.1f}× |"
        )
    return "\n".join(lines)


def projection(rows: Sequence[Row], population: Sequence[Instance], baseline: str) -> str:
    """Totals over every instance of each n sampled, projected from the sample by the
    published Lingeling times: a solver's projected total is its sample total times
    (published total over all the n's instances ÷ published total over the sample).
    "sample ÷ all" compares the sample's mean published time with the mean over all
    instances of its n (1 for a perfectly representative sample), and "here ÷
    published" is the baseline's own total against the published one on the sample."""
    groups: dict[int, list[Row]] = {}
    for row in rows:
        groups.setdefault(row.instance.n, []).append(row)
    lines = [
        f"| n | sampled | published s: sample / all | sample ÷ all (mean) | {baseline} here ÷ "
        f"published | projected chessplace s | projected {baseline} s | {baseline} ÷ chessplace |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    totals = {"chessplace": 0.0, baseline: 0.0}
    capped = {"chessplace": False, baseline: False}
    for n, group in sorted(groups.items()):
        every = [i for i in population if i.n == n]
        published_all = sum(i.published_seconds or 0.0 for i in every)
        published = sum(row.instance.published_seconds or 0.0 for row in group)
        if published <= 0:
            continue
        scale = published_all / published
        projected = {}
        for name in totals:
            outcomes = [row.outcomes[name] for row in group]
            projected[name] = scale * sum(o.seconds for o in outcomes)
            capped[name] |= any(o.status == "timeout" for o in outcomes)
            totals[name] += projected[name]
        mean_ratio = (published / len(group)) / (published_all / len(every))
        here = sum(row.outcomes[baseline].seconds for row in group) / published
        over = {name: _over([row.outcomes[name] for row in group]) for name in totals}
        lines.append(
            f"| {n} | {len(group)}/{len(every)} | {published:.1f} / {published_all:.1f} | "
            f"{mean_ratio:.2f} | {over[baseline]}{here:.2f} | {over['chessplace']}"
            f"{projected['chessplace']:.0f} | {over[baseline]}{projected[baseline]:.0f} | "
            f"{_ratio_mark(over)}{projected[baseline] / projected['chessplace']:.1f}× |"
        )
    mark = {name: "≥" if capped[name] else "" for name in totals}
    ratio = totals[baseline] / totals["chessplace"] if totals["chessplace"] else math.nan
    lines.append(
        f"| all | {len(rows)} | | | | {mark['chessplace']}{totals['chessplace']:.0f} | "
        f"{mark[baseline]}{totals[baseline]:.0f} | {_ratio_mark(mark)}{ratio:.1f}× |"
    )
    return "\n".join(lines)


def _over(outcomes: Sequence[Outcome]) -> str:
    """ "≥" when some outcome timed out (its limit counts), else nothing."""
    return "≥" if any(o.status == "timeout" for o in outcomes) else ""


def _ratio_mark(over: dict[str, str]) -> str:
    """A baseline ÷ chessplace ratio is a lower bound when only the baseline timed out,
    unknown either way ("~") when chessplace did."""
    if over["chessplace"]:
        return "~"
    return "≥" if any(over.values()) else ""


def load_line(rows: Sequence[Row]) -> str:
    loads = [row.load for row in rows]
    if not loads:
        return "no instance run"
    return (
        f"1-minute load average as each instance started: mean {statistics.mean(loads):.1f}, "
        f"min {min(loads):.1f}, max {max(loads):.1f} ({os.cpu_count()} cores)"
    )


def plot(series: dict[str, list[tuple[int, float, bool]]], name: str) -> Path:
    """Time against blocked squares, one marker per solver; hollow: timed out."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from plotting import OUT

    OUT.mkdir(exist_ok=True)
    figure, axes = plt.subplots(figsize=(8, 5))
    styles = {"chessplace": "o", "lingeling": "s", "shiftqueens": "^"}
    for label, points in series.items():
        marker = styles.get(label.split()[0], "x")
        done = [(b, s) for b, s, out in points if not out]
        out = [(b, s) for b, s, out in points if out]
        line = axes.semilogy(
            [b for b, _ in done], [s for _, s in done], marker, label=label, alpha=0.6, ms=4
        )
        if out:
            axes.semilogy(
                [b for b, _ in out],
                [s for _, s in out],
                marker,
                mfc="none",
                color=line[0].get_color(),
                label=f"{label}, timed out",
                ms=5,
            )
    axes.set_xlabel("blocked squares")
    axes.set_ylabel("seconds (log)")
    axes.set_title("Blocked n-Queens: ASP instances (n = 28..56), random (n = 30..60)")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    path = OUT / f"{name}.png"
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


# --- main ------------------------------------------------------------------------------


def pick(instances: list[Instance], per_n: int | None) -> list[Instance]:
    """``per_n`` instances a side, spread evenly over each side's sorted list."""
    if per_n is None:
        return instances
    groups: dict[int, list[Instance]] = {}
    for instance in instances:
        groups.setdefault(instance.n, []).append(instance)
    chosen = []
    for group in groups.values():
        step = len(group) / min(per_n, len(group))
        chosen += [group[int(i * step)] for i in range(min(per_n, len(group)))]
    return chosen


def sample(instances: list[Instance], per_n: int, seed: int) -> list[Instance]:
    """``per_n`` instances of each n drawn at random (``seed``), in rounds of one
    instance per n: a run cut short by its budget still has about as many of each."""
    generator = random.Random(seed)
    groups: dict[int, list[Instance]] = {}
    for instance in sorted(instances, key=lambda i: (i.n, i.name)):
        groups.setdefault(instance.n, []).append(instance)
    drawn = [generator.sample(group, min(per_n, len(group))) for _, group in sorted(groups.items())]
    return [i for round_ in zip_longest(*drawn) for i in round_ if i is not None]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--csplib", type=Path, required=True, help="CSPLib checkout or bare git dir"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a few minutes: 2 + 1 instances a side, 10 s each"
    )
    parser.add_argument("--limit", type=int, help="ASP instances per n (default: all 100)")
    parser.add_argument(
        "--sample", type=int, help="ASP instances per n drawn at random (with --seed), in rounds"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of --sample")
    parser.add_argument(
        "--rounds", type=int, help="run only the first K rounds of --sample (K instances per n)"
    )
    parser.add_argument(
        "--old", type=Path, help="also time this older tree's chessplace (its src folder)"
    )
    parser.add_argument(
        "--budget", type=float, help="seconds after which no further ASP instance starts"
    )
    parser.add_argument("--solver", help="chessplace engine (default: the registry's choice)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per solve")
    parser.add_argument("--race-sides", default="30,35,40,45,50,55,60")
    parser.add_argument("--race-per-n", type=int, default=6)
    parser.add_argument("--keep", type=int, default=1, help="free squares a rank/file keeps")
    parser.add_argument("--skip-asp", action="store_true")
    parser.add_argument("--skip-race", action="store_true")
    parser.add_argument("--cache", type=Path, help="where to build (default: a temp dir)")
    parser.add_argument("--no-plot", action="store_true")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.limit = arguments.limit or 2
        arguments.race_per_n = 1
        arguments.race_sides = "30,40,50,60"
        arguments.time_limit = min(arguments.time_limit, 10.0)
    checkout = Checkout(arguments.csplib)
    cache = arguments.cache or Path(tempfile.mkdtemp(prefix="csplib-"))
    cache.mkdir(parents=True, exist_ok=True)
    limit = arguments.time_limit
    mine = chessplace_solver(arguments.solver, limit)
    series: dict[str, list[tuple[int, float, bool]]] = {}
    when = time.strftime("%Y-%m-%d %H:%M")
    load = os.getloadavg()[0]
    print(f"# CSPLib prob080, {when}, {os.cpu_count()} cores, load {load:.1f}")
    print(f"command: {' '.join(sys.argv)}\n")
    started = time.perf_counter()
    if not arguments.skip_asp:
        population = asp_instances(checkout)
        if arguments.sample:
            instances = sample(population, arguments.sample, arguments.seed)
            if arguments.rounds:
                instances = instances[: arguments.rounds * len({i.n for i in population})]
        else:
            instances = pick(population, arguments.limit)
        script = checkout.copy_to(DIMACS_SCRIPT, cache)
        solvers = {"chessplace": mine}
        if arguments.old:
            solvers[OLD] = old_solver(arguments.old, limit)
        solvers["lingeling"] = lingeling_solver(script, limit)
        rows = run_all(instances, solvers, arguments.budget)
        print("## ASP-competition instances: chessplace against Lingeling (PySAT)\n")
        print(table(rows, "lingeling", published=True))
        print()
        if arguments.old:
            print(f"chessplace against the older tree ({arguments.old}):\n")
            print(table(rows, OLD, published=False))
            print()
        print(hard_table(rows, "lingeling"))
        print()
        print(projection(rows, population, "lingeling"))
        print()
        print(load_line(rows))
        print()
        _collect(series, rows, "ASP")
    if not arguments.skip_race:
        sides = [int(s) for s in arguments.race_sides.split(",")]
        instances = race_instances(sides, arguments.race_per_n, arguments.keep)
        binary = build_shiftqueens(checkout.copy_to(SHIFTQUEENS, cache), cache)
        rows = run_all(
            instances, {"chessplace": mine, "shiftqueens": shiftqueens_solver(binary, limit)}
        )
        print("## Random instances at the phase transition: chessplace against shiftqueens\n")
        print(table(rows, "shiftqueens", published=False))
        print()
        print(hard_table(rows, "shiftqueens"))
        print()
        _collect(series, rows, "random")
    if not arguments.no_plot and series:
        name = "csplib" + ("-random" if arguments.skip_asp else "")
        name += "-asp" if arguments.skip_race else ""
        print(f"plot: {plot(series, name)}")
    load = os.getloadavg()[0]
    print(f"wall time {time.perf_counter() - started:.0f} s; load at the end {load:.1f}")
    return 0


def _collect(series: dict[str, list[tuple[int, float, bool]]], rows: list[Row], kind: str) -> None:
    for row in rows:
        for name, outcome in row.outcomes.items():
            series.setdefault(f"{name} ({kind})", []).append(
                (len(row.instance.blocks), outcome.seconds, outcome.status == "timeout")
            )


if __name__ == "__main__":
    sys.exit(main())
