"""GPU counting benchmark: chessplace's gpu engine against ygch/n_queens's CUDA counter.

Builds ygch/n_queens (arXiv 2511.12009; its public source, given by --ygch and
never kept in this repository) with nvcc as its src/compile.sh does, for this
GPU's architecture, then counts queens for n = --queens with both, side by
side on this machine, and amazons for n = --amazons with chessplace alone.
Every count is checked against the OEIS table where it stores the term and
against the other program. A smoke check (12 queens: 14,200) runs first. A
run that passes --cap seconds is cut off there and larger n are skipped.

chessplace runs as the CLI does (``python -m chessplace count ... --solver
gpu --json``); its time is the engine's own ``seconds`` (prefixes, kernel
and all; Python's start is left out) after a short warm-up run that compiles
the kernel into the disk cache, and the process's wall time beside it.

    python benchmarks/gpu.py --ygch .ygch/src --out "$OUT"
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from chessplace.data.reference import known

SOURCES = ("n_queens_cuda.cu", "n_queens.cpp", "utils.cpp", "main.cpp")
YGCH_ROWS = 6
"""Rows ygch pre-places: its README's setting for its published table."""
YGCH_RESULT = re.compile(r"result (\d+), calc time: \[([\d.]+)ms\]")
SEQUENCES = {"queens": "A000170", "amazons": "A051223"}


def sizes(text: str) -> list[int]:
    """``16-21`` or ``16,18``: the board sides."""
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",") if part]


def gpu_name() -> tuple[str, str]:
    """The GPU's name and compute capability (``9.0``), from nvidia-smi."""
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,compute_cap", "--format=csv,noheader"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()[0]
    name, capability = (part.strip() for part in out.split(","))
    return name, capability


def build_ygch(source: Path, directory: Path, capability: str) -> Path:
    """ygch's program, built as its compile.sh builds it (configuration 2, OpenMP)."""
    if not (source / SOURCES[0]).exists() and (source / "src" / SOURCES[0]).exists():
        source = source / "src"
    arch = capability.replace(".", "")
    binary = directory / "n_queens"
    command = [
        "nvcc",
        "-gencode",
        f"arch=compute_{arch},code=sm_{arch}",
        "-O3",
        "-Xcompiler",
        "-fopenmp",
        "-D_USE_CONFIG2_",
        *(str(source / name) for name in SOURCES),
        "-o",
        str(binary),
    ]
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=source)
    return binary


def run_ygch(binary: Path, n: int, cap: float) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [str(binary), str(n), str(YGCH_ROWS)],
            capture_output=True,
            text=True,
            timeout=cap,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"status": "cut", "wall": cap}
    wall = time.perf_counter() - started
    found = YGCH_RESULT.search(done.stdout)
    if done.returncode != 0 or not found:
        return {"status": f"failed ({done.returncode})", "wall": wall, "tail": done.stdout[-400:]}
    return {"status": "ok", "count": int(found[1]), "seconds": float(found[2]) / 1000, "wall": wall}


def run_chessplace(puzzle: str, n: int, cap: float, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    command = [sys.executable, "-m", "chessplace", "count", puzzle, "-n", str(n)]
    command += ["--solver", "gpu", "--unique", "--json", *extra]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=cap, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "cut", "wall": cap}
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        return {"status": f"failed ({done.returncode})", "wall": wall, "tail": done.stderr[-600:]}
    answer = json.loads(done.stdout)
    return {
        "status": answer["status"],
        "count": answer.get("count"),
        "unique": answer.get("unique"),
        "seconds": answer["seconds"],
        "wall": wall,
    }


def warm(puzzle: str, n: int) -> float:
    """Compile the n×n kernel into the disk cache (a count cut short after a few
    seconds: compiling is not interrupted); its seconds."""
    started = time.perf_counter()
    run_chessplace(puzzle, n, 600, ("--time-limit", "5"))
    return time.perf_counter() - started


def verdict(puzzle: str, n: int, *counts: int | None) -> str:
    """``ok`` when every count given agrees with each other and with OEIS where stored."""
    values = {c for c in counts if c is not None}
    table = known(SEQUENCES[puzzle], n)
    if table is not None:
        values.add(table)
    if len(values) > 1:
        return f"MISMATCH {sorted(values)}"
    return "ok (OEIS)" if table is not None else "ok"


def seconds(run: dict[str, Any] | None) -> str:
    if run is None:
        return ""
    if run["status"] not in ("ok", "complete"):
        return str(run["status"])
    return f"{run['seconds']:.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ygch", type=Path, help="ygch/n_queens's source (its src/ folder)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out"))
    parser.add_argument("--queens", type=sizes, default=sizes("16-21"))
    parser.add_argument("--amazons", type=sizes, default=sizes("18-20"))
    parser.add_argument("--cap", type=float, default=90.0, help="seconds a run may take")
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    name, capability = gpu_name()
    print(f"GPU: {name} (compute {capability})", flush=True)
    report: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "gpu": name,
        "python": sys.version.split()[0],
        "rows": [],
    }

    smoke = run_chessplace("queens", 12, 600)
    print(f"smoke: 12 queens -> {smoke}", flush=True)
    report["smoke"] = smoke
    if smoke.get("count") != 14200:
        print("smoke check failed: 12 queens should be 14,200", file=sys.stderr)
        (arguments.out / "gpu.json").write_text(json.dumps(report, indent=1))
        return 1

    with tempfile.TemporaryDirectory() as scratch:
        binary = None
        if arguments.ygch:
            if shutil.which("nvcc") is None:
                print("nvcc not found: ygch skipped", file=sys.stderr)
            else:
                binary = build_ygch(arguments.ygch.resolve(), Path(scratch), capability)
        for puzzle, ns in (("queens", arguments.queens), ("amazons", arguments.amazons)):
            cut = {"ygch": False, "chessplace": False}
            for n in ns:
                row: dict[str, Any] = {"puzzle": puzzle, "n": n}
                if binary is not None and puzzle == "queens" and not cut["ygch"]:
                    row["ygch"] = run_ygch(binary, n, arguments.cap)
                    cut["ygch"] = row["ygch"]["status"] != "ok"
                if not cut["chessplace"]:
                    row["warm_up"] = warm(puzzle, n)
                    row["chessplace"] = run_chessplace(puzzle, n, arguments.cap)
                    cut["chessplace"] = row["chessplace"]["status"] != "complete"
                row["check"] = verdict(
                    puzzle,
                    n,
                    row.get("ygch", {}).get("count"),
                    row.get("chessplace", {}).get("count"),
                )
                print(json.dumps(row), flush=True)
                report["rows"].append(row)
                (arguments.out / "gpu.json").write_text(json.dumps(report, indent=1))
    table = markdown(report)
    print(table)
    (arguments.out / "gpu.md").write_text(table)
    return 0


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"Measured {report['date']} on one {report['gpu']} (Python {report['python']}).",
        "",
        "| puzzle | n | ygch CUDA | chessplace gpu | ratio | chessplace wall | count | unique "
        "| check |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in report["rows"]:
        ygch, ours = row.get("ygch"), row.get("chessplace")
        ratio = ""
        if ygch and ours and ygch["status"] == "ok" and ours["status"] == "complete":
            ratio = f"{ygch['seconds'] / ours['seconds']:.2f}×"
        wall = f"{ours['wall']:.2f} s" if ours else ""
        count = f"{ours['count']:,}" if ours and ours.get("count") is not None else ""
        unique = f"{ours['unique']:,}" if ours and ours.get("unique") is not None else ""
        lines.append(
            f"| {row['puzzle']} | {row['n']} | {seconds(ygch)} | {seconds(ours)} | {ratio} "
            f"| {wall} | {count} | {unique} | {row['check']} |"
        )
    lines.append("")
    lines.append("ratio: ygch's seconds over chessplace's (above 1: chessplace is faster).")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
