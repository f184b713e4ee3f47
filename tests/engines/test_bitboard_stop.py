"""The compiled bitboard search stops inside a subproblem: at the time limit, on a
stop, on SIGTERM, for counts and for streamed listings of boards far too large to finish."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from chessplace import Board, Placement, puzzles
from chessplace.core.pieces import QUEEN
from chessplace.engines.bitboard.kernel import compiled, shape_of, stop_flag
from chessplace.engines.bitboard.split import CountSpec
from chessplace.engines.bitboard.tasks import count_prefix, solutions_of

SLACK = 10.0
"""Seconds a stopped command may take past its limit or signal (start-up on a loaded machine)."""


@pytest.fixture(scope="module", autouse=True)
def _compiled_searches() -> None:
    """Compile the searches once here (seconds, once per machine): the commands under
    test load them from the disk cache, so their time limits are spent searching."""
    compiled(shape_of(QUEEN, 20, collect=False))
    compiled(shape_of(QUEEN, 29, collect=True))


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "chessplace", *args]


def _placements(lines: list[str], n: int) -> list[Placement]:
    problem = puzzles.queens(Board.square(n))
    found = []
    for line in lines:
        pieces = json.loads(line)["pieces"]
        squares = [(piece["file"] - 1, piece["rank"] - 1) for piece in pieces]
        found.append(Placement.from_squares(problem, [squares]))
    return found


def test_a_subproblem_search_returns_stopped_when_its_flag_is_set() -> None:
    """One subproblem of 20×20 runs for many seconds; set 0.3 s in, the flag ends it
    at once and nothing of its incomplete count comes back."""
    stop = stop_flag()
    timer = threading.Timer(0.3, lambda: stop.fill(1))
    timer.start()
    started = time.monotonic()
    try:
        assert count_prefix(CountSpec(20, "Q"), (0, 2), stop) is None
    finally:
        timer.cancel()
    assert time.monotonic() - started < 0.3 + SLACK


def test_a_listed_subproblem_resumes_after_full_batches_and_ends_on_its_flag() -> None:
    """Past full batches (4,096 solutions) the search resumes after the last one: the
    solutions go on in order, none twice; the flag ends them with the batch under way."""
    stop = stop_flag()
    listed: list[tuple[int, ...]] = []
    for columns in solutions_of(CountSpec(29, "Q"), (0, 2), stop):
        listed.append(tuple(columns.tolist()))
        if len(listed) == 10_000:
            stop.fill(1)
    assert 10_000 <= len(listed) < 10_000 + 4096
    assert listed == sorted(set(listed))
    problem = puzzles.queens(Board.square(29))
    for columns in listed[::97]:
        squares = [(column, row) for row, column in enumerate(columns)]
        assert Placement.from_squares(problem, [squares]).verify() == ()


def test_a_count_stops_at_its_time_limit_with_the_finished_subproblems(tmp_path: Path) -> None:
    """A 20×20 count ends at its limit by itself (not left behind after the grace),
    partial, with exactly the subproblems it finished: those in its checkpoint."""
    checkpoint = tmp_path / "count.jsonl"
    command = ["count", "queens", "-n", "20", "--time-limit", "2", "--json"]
    started = time.monotonic()
    done = subprocess.run(
        _cli(*command, "--checkpoint", str(checkpoint)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert time.monotonic() - started < 2 + SLACK
    assert done.returncode == 3, done.stderr
    assert "did not stop" not in done.stderr, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "partial" and data["count"] >= 0
    records = [json.loads(line) for line in checkpoint.read_text().splitlines()[1:]]
    assert data["count"] == sum(record["solutions"] for record in records)


def _stopped_listing(*args: str, signal_after: int | None = None) -> tuple[int, list[str], str]:
    """Run ``count ... --list``; with ``signal_after`` send SIGTERM once that many lines
    came. The exit code, the lines and stderr; the command is killed if it hangs."""
    process = subprocess.Popen(
        _cli("count", *args, "--list"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    watchdog = threading.Timer(60, process.kill)  # a command that ignores the stop
    watchdog.start()
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if len(lines) == signal_after:
                signalled = time.monotonic()
                process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=SLACK)
        if signal_after is not None:
            assert time.monotonic() - signalled < SLACK
    finally:
        watchdog.cancel()
        process.kill()
        process.wait()
    assert process.stderr is not None
    return code, lines, process.stderr.read()


def test_a_listing_stops_at_its_time_limit_with_valid_placements() -> None:
    """The limit counts from start-up, so it leaves room to compile and print on a
    loaded machine (at 2 s a run beside a two-core proof printed nothing)."""
    started = time.monotonic()
    code, lines, errors = _stopped_listing("queens", "-n", "29", "--time-limit", "6")
    assert time.monotonic() - started < 6 + SLACK
    assert code == 3, errors
    assert "did not stop" not in errors, errors
    assert lines and all(line.endswith("\n") for line in lines)
    placements = _placements(lines[:: max(1, len(lines) // 200)], 29)
    assert all(len(p) == 29 and p.verify() == () for p in placements)


def test_sigterm_stops_a_long_listing_promptly() -> None:
    code, lines, errors = _stopped_listing("queens", "-n", "29", signal_after=100)
    assert code == 3, errors
    assert "did not stop" not in errors, errors
    assert len(lines) >= 100
    assert all(p.verify() == () for p in _placements(lines[:100], 29))
