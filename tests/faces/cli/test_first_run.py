"""A newcomer's first run (issue 52): the search compiles once per machine, which the
command says on stderr before the wait and reports apart from the answer's seconds
("in 12.61 s" for 92 placements the next run counts in 0.2 s). Counts as small as
those run uncompiled while the search is not compiled yet (issue 53), so the first run
here counts 14 queens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chessplace.core.board import Board
from chessplace.core.result import Result, Status
from chessplace.faces.cli.demo import _cell, _took
from chessplace.faces.cli.report import summary_line
from chessplace.notation.puzzles import queens

COMMAND = [sys.executable, "-m", "chessplace", "count", "queens", "-n", "14"]


def _run(cache: Path, *more: str) -> subprocess.CompletedProcess[str]:
    """The command with Numba's and chessplace's caches in ``cache`` (empty at first)."""
    environment = dict(os.environ)
    environment["NUMBA_CACHE_DIR"] = str(cache / "numba")
    environment["CHESSPLACE_CACHE"] = str(cache / "chessplace")
    return subprocess.run(
        [*COMMAND, *more], env=environment, capture_output=True, text=True, timeout=300
    )


def test_the_first_run_says_it_compiles_and_keeps_it_out_of_its_seconds(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    first = _run(tmp_path, "--json")
    assert first.returncode == 0, first.stderr
    assert "compiling the bitboard search (first run only" in first.stderr
    answer = json.loads(first.stdout)
    assert answer["count"] == 365_596
    assert answer["compile_seconds"] > answer["seconds"]  # compiling takes seconds, 14×14 not
    again = _run(tmp_path)
    assert again.returncode == 0, again.stderr
    assert "compiling the bitboard search" not in again.stderr
    assert "compiled in" not in again.stdout
    assert "365,596 placements" in again.stdout


def test_the_answer_line_names_the_compilation_apart() -> None:
    result = Result(Status.COMPLETE, "bitboard", count=92, seconds=0.79, compile_seconds=11.84)
    line = summary_line(queens(Board.square(8)), "count", result)
    assert line.endswith("complete · bitboard · 0.790 s (compiled in 11.8 s)")
    assert "compiled" not in summary_line(queens(Board.square(8)), "count", result.timed(0.79))
    assert str(result).endswith("0.790 s (compiled in 11.8 s)")


def test_the_demo_names_the_compilation_apart() -> None:
    result = Result(Status.OPTIMAL, "lines", objective=0, seconds=0.06, compile_seconds=33.2)
    assert _took(result) == "0.06 s (compiled in 33.2 s)"
    assert _cell(result) == "0.06 (compiled in 33.2 s)"
    assert _cell(result.timed(0.06)) == "0.06"


@pytest.mark.slow
def test_the_demo_compiles_its_later_searches_ahead(tmp_path: Path) -> None:
    """From an empty cache the line, local and cover searches compile in a child while
    the demo's first sections run (issue 53): no section compiles one itself."""
    pytest.importorskip("numba")
    environment = dict(os.environ)
    environment["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    environment["CHESSPLACE_CACHE"] = str(tmp_path / "chessplace")
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", "demo", "--ascii"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert "compiled in" not in done.stdout
    assert "9×9: 12 white and 12 black queens, proven best" in done.stdout
    assert "5 queens dominate 8×8" in done.stdout
