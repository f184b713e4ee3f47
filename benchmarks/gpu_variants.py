"""The GPU counter's kernel variants timed against each other and against ygch/n_queens.

Issue 53, part 2: chessplace's ``gpu`` engine trailed ygch/n_queens (arXiv
2511.12009) about 4.5× on an H100 at n = 19..20, and the suspects were never
measured. This script times each :class:`KernelVariant` (stack in shared or
local memory, class weighing in the search loop or on the host by Burnside's
lemma, threads per block) and prefix grain on queens for n = --queens, in one
process, with ygch's counter beside them when its source is given (built and
run by benchmarks/gpu.py's helpers). Every count is checked against OEIS where
the table stores the term, against the default variant and against ygch.

Per run it reports the CPU's prefix expansion, the kernel's compilation (a
warm-up on a few prefixes, apart), the count on the GPU, the host's share
(Burnside's fixed solutions), their sum (``seconds``, the compilation left
out) and the kernel's registers, local and shared memory. A run that passes
--cap seconds is cut there, and the variant's larger n are skipped; the whole
keeps within --budget seconds, leaving time for Nsight Compute (``ncu``) to
profile one kernel launch when it is installed. It writes gpu_variants.json,
gpu_variants.md and gpu_variants.png (and ncu.txt, ncu.ncu-rep) to --out.

    python benchmarks/gpu_variants.py --ygch .ygch/src --out "$OUT"
    python benchmarks/gpu_variants.py --simulate --out /tmp/variants

``--simulate`` runs the same steps on Numba's CUDA simulator with tiny boards
(no ygch, no ncu): a check of the script, not a measurement.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import plotting
from chessplace.data.reference import known
from chessplace.engines.gpu.devices import SIMULATOR
from chessplace.engines.gpu.prefixes import ENOUGH_PREFIXES
from chessplace.engines.gpu.variant import KernelVariant
from gpu import build_ygch, gpu_name, run_ygch, sizes

VARIANTS: dict[str, tuple[KernelVariant, int]] = {
    "default": (KernelVariant(), ENOUGH_PREFIXES),
    "local": (KernelVariant(stack="local"), ENOUGH_PREFIXES),
    "on-host": (KernelVariant(weighing="on_host"), ENOUGH_PREFIXES),
    "local-on-host": (KernelVariant(stack="local", weighing="on_host"), ENOUGH_PREFIXES),
    "prefixes-2^17": (KernelVariant(), 1 << 17),
    "prefixes-2^22": (KernelVariant(), 1 << 22),
    "block-64": (KernelVariant(block=64), ENOUGH_PREFIXES),
    "local-block-256": (KernelVariant(stack="local", block=256), ENOUGH_PREFIXES),
}
"""Each variant timed: the kernel's choices and the prefixes the CPU aims for."""

QUEENS = "WWFF"
SIMULATED_SHIFT = 14
"""On the simulator the prefix targets shrink 2^14 times, so tiny boards still get
prefixes of different depths."""
WARM_PREFIXES = 64
"""Prefixes of the warm-up run that compiles a kernel."""
GROWTH = 6.0
"""A variant whose seconds at n, times this, pass the cap is not run at n + 1."""
NCU_SECONDS = 120.0
"""Time kept back for Nsight Compute at the end."""
NCU_SECTIONS = (
    "LaunchStats",
    "Occupancy",
    "SpeedOfLight",
    "ComputeWorkloadAnalysis",
    "MemoryWorkloadAnalysis",
    "WarpStateStats",
    "SchedulerStats",
)


def main() -> int:
    arguments = _arguments()
    if arguments.simulate:
        os.environ[SIMULATOR] = "1"  # before Numba is imported
    if arguments.profile:
        return profile(arguments.profile, arguments.profile_n)
    out: Path = arguments.out
    out.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + arguments.budget
    ncu = None if arguments.simulate else shutil.which("ncu")
    report = _header(arguments)
    print(f"device: {report['device']}", flush=True)
    _warm_host()
    with tempfile.TemporaryDirectory() as scratch:
        report["ygch"] = _ygch(arguments, Path(scratch))
    cut: set[str] = set()
    last: dict[str, float] = {}
    for n in arguments.queens:
        for label in arguments.variants:
            left = deadline - (NCU_SECONDS if ncu else 0) - time.monotonic()
            row = _planned(label, n, cut, last, min(arguments.cap, left))
            if row is None:
                row = measure(label, n, min(arguments.cap, left))
                if row["status"] == "complete":
                    last[label] = row["seconds"]
                else:
                    cut.add(label)
            row["check"] = check(n, row, report)
            report["rows"].append(row)
            print(json.dumps(row), flush=True)
            _write(out, report)
    report["ncu"] = _ncu(arguments, ncu, out, deadline - time.monotonic())
    _write(out, report)
    table = markdown(report)
    print(table)
    (out / "gpu_variants.md").write_text(table)
    _plot(report, out)
    bad = [row for row in report["rows"] if row["check"].startswith("MISMATCH")]
    return 1 if bad else 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ygch", type=Path, help="ygch/n_queens's source (its src/ folder)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out"))
    parser.add_argument("--queens", type=sizes, help="board sides (default 16-20; 6-8 simulated)")
    parser.add_argument(
        "--variants",
        type=lambda text: text.split(","),
        default=list(VARIANTS),
        help=f"comma-separated, of: {', '.join(VARIANTS)}",
    )
    parser.add_argument("--cap", type=float, default=40.0, help="seconds one count may take")
    parser.add_argument("--budget", type=float, default=420.0, help="seconds for everything")
    parser.add_argument("--simulate", action="store_true", help="on Numba's CUDA simulator")
    parser.add_argument("--ncu-variant", default="default", help="the variant ncu profiles")
    parser.add_argument("--ncu-n", type=int, default=18, help="the board ncu profiles")
    parser.add_argument("--profile", help=argparse.SUPPRESS)  # ncu's child: one variant's count
    parser.add_argument("--profile-n", type=int, default=18, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.queens is None:
        arguments.queens = sizes("6-8" if arguments.simulate else "16-20")
    unknown = sorted(set(arguments.variants) - set(VARIANTS))
    if unknown:
        parser.error(f"no variant {', '.join(unknown)}: the variants are {', '.join(VARIANTS)}")
    if "default" not in arguments.variants:
        arguments.variants.insert(0, "default")  # the ratios' baseline
    return arguments


def _header(arguments: argparse.Namespace) -> dict[str, Any]:
    import numba

    from chessplace.engines.gpu.devices import probe

    return {
        "date": datetime.date.today().isoformat(),
        "device": probe().describe(),
        "simulated": arguments.simulate,
        "python": sys.version.split()[0],
        "numba": numba.__version__,
        "cap": arguments.cap,
        "budget": arguments.budget,
        "variants": {
            label: {**asdict(VARIANTS[label][0]), "prefixes": VARIANTS[label][1]}
            for label in arguments.variants
        },
        "rows": [],
    }


def _warm_host() -> None:
    """Compile the host's Burnside search before anything is timed."""
    from chessplace.engines.bitboard.codegen import Shape
    from chessplace.engines.gpu.burnside import classes

    classes(Shape(4, True, (), False), 2)


def _ygch(arguments: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    """ygch's counts and seconds by n, or why there are none."""
    if arguments.simulate:
        return {"skipped": "the simulator runs no CUDA C++"}
    if arguments.ygch is None:
        return {"skipped": "no --ygch source given"}
    if shutil.which("nvcc") is None:
        return {"skipped": "nvcc not found"}
    _, capability = gpu_name()
    try:
        binary = build_ygch(arguments.ygch.resolve(), scratch, capability)
    except subprocess.CalledProcessError as error:
        return {"skipped": f"nvcc failed ({error.returncode})"}
    runs = {}
    for n in arguments.queens:
        runs[str(n)] = run_ygch(binary, n, arguments.cap)
        print(f"ygch n={n}: {runs[str(n)]}", flush=True)
        if runs[str(n)]["status"] != "ok":
            break
    return {"runs": runs}


def _planned(
    label: str, n: int, cut: set[str], last: dict[str, float], cap: float
) -> dict[str, Any] | None:
    """A row saying why ``label`` is not run at ``n``, or ``None`` to run it."""
    why = ""
    if label in cut:
        why = "skipped: cut or failed at a smaller n"
    elif cap < 5:
        why = "skipped: budget spent"
    elif label in last and last[label] * GROWTH > cap:
        why = f"skipped: {last[label]:.2f} s at n-1 points past the {cap:.0f} s cap"
    return {"variant": label, "n": n, "status": why} if why else None


def measure(label: str, n: int, cap: float) -> dict[str, Any]:
    """One count of n queens with ``label``'s variant, timed by its parts."""
    from chessplace.core.pieces import piece_from_text
    from chessplace.engines.bitboard.kernel import shape_of
    from chessplace.engines.gpu.burnside import classes
    from chessplace.engines.gpu.devices import probe
    from chessplace.engines.gpu.kernel import kernel, launch_of
    from chessplace.engines.gpu.prefixes import Plan, plan
    from chessplace.engines.gpu.runner import run_count
    from chessplace.runtime.control import Control

    variant, prefixes = VARIANTS[label]
    simulated = probe().simulated
    if simulated:
        prefixes = max(1, prefixes >> SIMULATED_SHIFT)
    on_host = variant.weighing == "on_host"
    shape = shape_of(piece_from_text(QUEENS), n, collect=False)
    row: dict[str, Any] = {"variant": label, "n": n}
    started = time.perf_counter()
    work = plan(shape, prefixes, mirror=on_host)
    row["plan_s"] = time.perf_counter() - started
    row.update(rows=work.rows, prefixes=work.size)
    launch = launch_of(shape, work.rows, simulated, variant)
    if launch is None:
        return {**row, "status": "does not fit in shared memory"}
    row["block"] = launch.block
    devices = len(probe().names)
    try:
        started = time.perf_counter()
        warm = Plan(shape, work.rows, work.tasks[:WARM_PREFIXES], work.forbid, work.mirror)
        run_count(warm, launch, QUEENS, Control(), devices)
        row["compile_s"] = time.perf_counter() - started
        row.update(_resources(kernel(launch)))
        started = time.perf_counter()
        tally = run_count(work, launch, QUEENS, Control(time_limit=max(cap, 1.0)), devices)
        row["kernel_s"] = time.perf_counter() - started
    except Exception as error:  # a launch the device refuses (registers, say) is a finding
        return {**row, "status": f"failed: {type(error).__name__}: {error}"[:300]}
    if not tally.finished:
        return {**row, "status": "cut", "count": tally.solutions}
    started = time.perf_counter()
    unique = classes(shape, tally.solutions) if on_host else tally.canonical
    row["host_s"] = time.perf_counter() - started
    row["seconds"] = row["plan_s"] + row["kernel_s"] + row["host_s"]
    return {**row, "status": "complete", "count": tally.solutions, "unique": unique}


def _resources(dispatcher: Any) -> dict[str, int]:
    """The compiled kernel's registers per thread, local bytes per thread and shared
    bytes per block (nothing on the simulator)."""
    found = {}
    for key, method in (
        ("registers", "get_regs_per_thread"),
        ("local_bytes", "get_local_mem_per_thread"),
        ("shared_bytes", "get_shared_mem_per_block"),
    ):
        getter = getattr(dispatcher, method, None)
        if getter is None:
            continue
        value = getter()
        values = list(value.values()) if isinstance(value, dict) else [value]
        if values:
            found[key] = max(int(v) for v in values)
    return found


def check(n: int, row: dict[str, Any], report: dict[str, Any]) -> str:
    """``ok (OEIS)`` when the count and classes agree with the stored terms, the
    default variant's and ygch's count; ``ok`` without stored terms; else why not."""
    if row["status"] != "complete":
        return ""
    pairs = [
        ("A000170", row["count"], known("A000170", n)),
        ("A002562", row["unique"], known("A002562", n)),
    ]
    default = next((r for r in report["rows"] if r["n"] == n and r["variant"] == "default"), None)
    if default and default["status"] == "complete":
        pairs += [("default", row["count"], default["count"])]
        pairs += [("default classes", row["unique"], default["unique"])]
    ygch = report["ygch"].get("runs", {}).get(str(n), {})
    if ygch.get("status") == "ok":
        pairs.append(("ygch", row["count"], ygch["count"]))
    wrong = [
        f"{name} {ours} != {theirs}"
        for name, ours, theirs in pairs
        if theirs is not None and ours != theirs
    ]
    if wrong:
        return "MISMATCH: " + "; ".join(wrong)
    return "ok (OEIS)" if known("A000170", n) is not None else "ok"


def profile(label: str, n: int) -> int:
    """Nsight Compute's child: count the first prefixes of n queens with ``label``."""
    from chessplace.core.pieces import piece_from_text
    from chessplace.engines.bitboard.kernel import shape_of
    from chessplace.engines.gpu.devices import probe
    from chessplace.engines.gpu.kernel import launch_of, processors
    from chessplace.engines.gpu.prefixes import Plan, plan
    from chessplace.engines.gpu.runner import run_count
    from chessplace.runtime.control import Control

    variant, prefixes = VARIANTS[label]
    shape = shape_of(piece_from_text(QUEENS), n, collect=False)
    work = plan(shape, prefixes, mirror=variant.weighing == "on_host")
    launch = launch_of(shape, work.rows, probe().simulated, variant)
    assert launch is not None
    first = work.tasks[: 8 * launch.block * processors()]
    part = Plan(shape, work.rows, first, work.forbid, work.mirror)
    tally = run_count(part, launch, QUEENS, Control(time_limit=30), 1)
    print(json.dumps({"variant": label, "n": n, "prefixes": len(first), "count": tally.solutions}))
    return 0


def _ncu(arguments: argparse.Namespace, ncu: str | None, out: Path, left: float) -> dict[str, Any]:
    """Nsight Compute's sections for one launch of the profiled variant, or why none."""
    if arguments.simulate:
        return {"skipped": "the simulator has no hardware counters"}
    if ncu is None:
        print("ncu (Nsight Compute) not installed: no kernel profile", flush=True)
        return {"skipped": "ncu not installed"}
    if left < 20:
        return {"skipped": f"budget spent ({left:.0f} s left)"}
    command = [ncu, "--target-processes", "all", "--kernel-name", "regex:count"]
    command += ["--launch-count", "1", "--clock-control", "none", "-f", "-o", str(out / "ncu")]
    for section in NCU_SECTIONS:
        command += ["--section", section]
    command += [sys.executable, __file__, "--profile", arguments.ncu_variant]
    command += ["--profile-n", str(arguments.ncu_n)]
    print("$", " ".join(command), flush=True)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=left, check=False)
    except subprocess.TimeoutExpired:
        return {"status": f"cut after {left:.0f} s"}
    details = ""
    if (out / "ncu.ncu-rep").exists():
        shown = [ncu, "--import", str(out / "ncu.ncu-rep"), "--page", "details"]
        details = subprocess.run(shown, capture_output=True, text=True, check=False).stdout
        (out / "ncu.txt").write_text(details)
        print(details, flush=True)
    status = "ok" if done.returncode == 0 and details else f"failed ({done.returncode})"
    if status != "ok":
        print(f"ncu {status}:\n{(done.stdout + done.stderr)[-2000:]}", flush=True)
    return {
        "status": status,
        "variant": arguments.ncu_variant,
        "n": arguments.ncu_n,
        "tail": (done.stdout + done.stderr)[-2000:],
    }


def markdown(report: dict[str, Any]) -> str:
    """The table: each variant and n, its parts' seconds and its ratios."""
    run = "Run on the CUDA simulator: not a measurement" if report["simulated"] else "Measured"
    lines = [
        f"{run} {report['date']} on {report['device']}, "
        f"Python {report['python']}, Numba {report['numba']}.",
        "",
        "| variant | n | rows | prefixes | block | registers | local B | shared B | plan s "
        "| kernel s | host s | seconds | vs default | vs ygch | count | unique | check |",
        "| --- " * 17 + "|",
    ]
    for row in report["rows"]:
        lines.append(_line(row, report))
    runs = report["ygch"].get("runs", {})
    ygch = ", ".join(
        f"n={n}: {run['seconds']:.2f} s" if run["status"] == "ok" else f"n={n}: {run['status']}"
        for n, run in runs.items()
    )
    lines += [
        "",
        "seconds: plan + kernel + host (the compilation, timed apart, left out). "
        "vs default, vs ygch: their seconds over the variant's (above 1: the variant "
        "is faster).",
        f"ygch/n_queens: {ygch or report['ygch'].get('skipped', 'not run')}.",
    ]
    ncu = report.get("ncu", {})
    lines.append(f"Nsight Compute: {ncu.get('status') or ncu.get('skipped', 'not run')}.")
    return "\n".join(lines) + "\n"


def _line(row: dict[str, Any], report: dict[str, Any]) -> str:
    def seconds(key: str) -> str:
        return f"{row[key]:.2f}" if key in row else ""

    ratios = ["", ""]
    if row["status"] == "complete":
        default: dict[str, Any] = next(
            (r for r in report["rows"] if r["n"] == row["n"] and r["variant"] == "default"), {}
        )
        if default.get("status") == "complete":
            ratios[0] = f"{default['seconds'] / row['seconds']:.2f}×"
        ygch = report["ygch"].get("runs", {}).get(str(row["n"]), {})
        if ygch.get("status") == "ok":
            ratios[1] = f"{ygch['seconds'] / row['seconds']:.2f}×"
    status = "" if row["status"] == "complete" else row["status"]
    cells = [
        row["variant"],
        str(row["n"]),
        str(row.get("rows", "")),
        f"{row['prefixes']:,}" if "prefixes" in row else "",
        str(row.get("block", "")),
        str(row.get("registers", "")),
        str(row.get("local_bytes", "")),
        str(row.get("shared_bytes", "")),
        seconds("plan_s"),
        seconds("kernel_s"),
        seconds("host_s"),
        seconds("seconds") or status,
        *ratios,
        f"{row['count']:,}" if row.get("count") is not None else "",
        f"{row['unique']:,}" if row.get("unique") is not None else "",
        row["check"],
    ]
    return "| " + " | ".join(cells) + " |"


def _plot(report: dict[str, Any], out: Path) -> None:
    """Seconds against n, a line per variant and one for ygch, drawn to ``out``."""
    series = []
    styles = ["o-", "s-", "^-", "v-", "D--", "x--", "+:", "*:"]
    for index, label in enumerate(report["variants"]):
        done = [r for r in report["rows"] if r["variant"] == label and r["status"] == "complete"]
        if done:
            ns, seconds = [r["n"] for r in done], [r["seconds"] for r in done]
            series.append((label, ns, seconds, styles[index % len(styles)]))
    runs = report["ygch"].get("runs", {})
    ok = [(int(n), run["seconds"]) for n, run in runs.items() if run.get("status") == "ok"]
    if ok:
        series.append(("ygch/n_queens", [n for n, _ in ok], [s for _, s in ok], "k-"))
    if not series:
        return
    title = "GPU kernel variants, n queens" + (" (simulator)" if report["simulated"] else "")
    plotting.OUT = out  # the plot goes beside the table, not to benchmarks/out
    plotting.log_plot("gpu_variants", title, "seconds", series)


def _write(out: Path, report: dict[str, Any]) -> None:
    (out / "gpu_variants.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
