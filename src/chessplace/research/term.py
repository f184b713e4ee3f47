"""Run one chessplace command for a sequence term and record it with its witness.

    python -m chessplace.research term results/a279405/n13.json -- \
        optimize peaceable-queens -n 13 --torus

The command runs as a child process with ``--json``; its answer (status,
value, the placement), the wall and CPU seconds of the child (every thread
and process it started) and the machine are written to the output file. The
witness is then checked by a separate ``chessplace verify`` run, whose verdict
is recorded too. Exit 0 when the answer is proven and the witness valid. Ctrl-C
or SIGTERM stops the command too (exit 3), giving it time to keep its work in
its checkpoint.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from chessplace.research import revision
from chessplace.research.commands import prog

CHESSPLACE = [sys.executable, "-m", "chessplace"]

STOP_GRACE = 60.0
"""Seconds a stopped command is given to keep its work and end before it is killed."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    parser = argparse.ArgumentParser(prog=prog("term"), description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path, help="JSON file to write")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then chessplace's arguments")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if len(command) < 2:
        parser.error("give the chessplace command after --")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = _run([*CHESSPLACE, *command, "--json"])
    if run is None:
        return 3
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if not run.stdout.strip():
        print(f"no answer (exit {run.returncode}): {run.stderr.strip()[-500:]}")
        return 1
    answer = json.loads(run.stdout)
    verdict = _verify(command, run.stdout)
    record = {
        "command": "chessplace " + shlex.join(command),
        "status": answer["status"],
        "value": answer.get("objective"),
        "count": answer.get("count"),
        "unique": answer.get("unique"),
        "solver": answer["solver"],
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "revision": revision.current(),
        "verify": verdict,
        "answer": answer,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"{record['command']}: {record['status']} {record['value']} by {record['solver']}, "
        f"{wall:.1f} s wall, {cpu:.1f} CPU-s; verify: {verdict}"
    )
    proven = answer["status"] in ("optimal", "infeasible", "complete")
    return 0 if proven and verdict.startswith("valid") else 1


def _run(argv: list[str]) -> subprocess.CompletedProcess[str] | None:
    """The command's run; ``None`` when this process is stopped (Ctrl-C, SIGTERM): the
    command is then stopped as well and waited for, so that its checkpoint keeps what
    it did, and its last line is shown. It never outlives this process."""
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        try:
            out, err = child.communicate()
        except KeyboardInterrupt:
            child.send_signal(signal.SIGTERM)
            try:
                _, err = child.communicate(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                err = f"it did not stop within {STOP_GRACE:.0f} s and was killed"
            last = (err.strip().splitlines() or ["(nothing)"])[-1]
            print(f"term: stopped; the command's last line: {last}", file=sys.stderr)
            return None
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return subprocess.CompletedProcess(argv, child.returncode, out, err)


def _verify(command: list[str], answer: str) -> str:
    """``chessplace verify``'s verdict on the answer, by the puzzle options of ``command``."""
    if command[0] not in ("solve", "optimize"):
        return "not a placement task"
    puzzle = [word for word in command[1:] if word not in ("--heuristic",)]
    options = _puzzle_options(puzzle)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(answer)
    try:
        checked = subprocess.run(
            [*CHESSPLACE, "verify", *options, file.name],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        os.unlink(file.name)
    line = (checked.stdout.strip().splitlines() or [checked.stderr.strip()])[-1]
    return ("valid: " if checked.returncode == 0 else "INVALID: ") + line


def _puzzle_options(words: list[str]) -> list[str]:
    """The puzzle name and the board and army options of a command line (those that
    verify takes), without the engine's."""
    keep_with_value = {"-n", "--rows", "--cols", "--shape", "--piece", "--armies", "--white"}
    keep_flags = {"--torus"}
    kept = [words[0]]
    i = 1
    while i < len(words):
        if words[i] in keep_with_value and i + 1 < len(words):
            kept += words[i : i + 2]
            i += 2
            continue
        if words[i] in keep_flags:
            kept.append(words[i])
        i += 1
    return kept
