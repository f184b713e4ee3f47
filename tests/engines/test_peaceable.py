"""Peaceable armies: optimal counts, the variants, local search, stops (the line
colouring and its symmetry breaking: tests/encodings/test_lines.py)."""

from __future__ import annotations

import pytest

from chessplace import Board, Problem, Status, count, optimize, piece_from_text, puzzles, solve
from chessplace.data.reference import known
from chessplace.encodings import lines
from chessplace.faces.cli import main
from chessplace.runtime.control import Control
from tests.conftest import assert_valid

SQUARE = Board.square


@pytest.mark.parametrize("n", range(1, 8))
def test_optimize_proves_a250000(n: int) -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(n)))
    assert result.status is Status.OPTIMAL
    assert result.objective == known("A250000", n)
    assert assert_valid(result).army_sizes == (result.objective, result.objective)


SMALL_COUNTS = [
    puzzles.peaceable_queens(SQUARE(4)).with_counts(exactly=2),
    puzzles.peaceable_queens(SQUARE(4)).with_counts(at_least=1),
    puzzles.peaceable_queens(SQUARE(4)).with_counts(at_most=2),
    puzzles.peaceable_queens(SQUARE(4)).with_counts(exactly=1),
    puzzles.peaceable(Board(3, 4), piece_from_text("R")).with_counts(exactly=2),
    puzzles.peaceable(SQUARE(3), piece_from_text("K")).with_counts(exactly=2),
    puzzles.peaceable_queens(SQUARE(4), armies=3).with_counts(exactly=1),
    puzzles.peaceable_queens(SQUARE(4), white=1).with_counts(exactly=3),
]


@pytest.mark.parametrize("problem", SMALL_COUNTS, ids=[p.describe() for p in SMALL_COUNTS])
def test_sat_counts_match_brute_force(problem: Problem) -> None:
    by_sat = count(problem, unique=True, solver="sat")
    by_brute_force = count(problem, unique=True, solver="exhaustive")
    assert (by_sat.count, by_sat.unique) == (by_brute_force.count, by_brute_force.unique)
    assert by_sat.count and by_sat.count > 0


@pytest.mark.parametrize("n", range(3, 8))
def test_white_beside_the_optimum_gives_a308632(n: int) -> None:
    """A308632 (defined as 0 where a(n) = 0, so from n = 3): the largest black army
    beside a(n) white queens."""
    problem = puzzles.peaceable_queens(SQUARE(n), white=known("A250000", n))
    result = optimize(problem)
    assert result.status is Status.OPTIMAL
    assert result.objective == known("A308632", n)
    assert assert_valid(result).army_sizes == (known("A250000", n), result.objective)


def test_three_armies_agree_with_brute_force() -> None:
    problem = puzzles.peaceable_queens(SQUARE(4), armies=3)
    by_sat = optimize(problem, solver="sat")
    assert by_sat.objective == optimize(problem, solver="exhaustive").objective
    assert len(assert_valid(by_sat).armies) == 3


@pytest.mark.parametrize("n", [*range(1, 8), pytest.param(8, marks=pytest.mark.slow)])
def test_three_armies_give_a328283(n: int) -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(n), armies=3))
    assert result.status is Status.OPTIMAL and result.objective == known("A328283", n)
    assert assert_valid(result).army_sizes == (result.objective,) * 3


@pytest.mark.parametrize("n", [16, 20])
def test_heuristic_reaches_the_best_known_armies(n: int) -> None:
    target = known("peaceable-best-known", n)
    problem = puzzles.peaceable_queens(SQUARE(n)).with_counts(at_least=target)
    result = solve(problem, solver="heuristic", time_limit=60)
    assert result.status is Status.FEASIBLE
    assert min(assert_valid(result).army_sizes) >= target


def test_heuristic_optimize_searches_until_the_time_limit() -> None:
    reports = []
    control = Control(1.5, on_progress=reports.append)
    result = optimize(puzzles.peaceable_queens(SQUARE(12)), solver="heuristic", control=control)
    assert result.status is Status.FEASIBLE and result.bound == lines.upper_bound(
        puzzles.peaceable_queens(SQUARE(12))
    )
    assert assert_valid(result).army_sizes[0] == result.objective >= 15
    assert control.elapsed() >= 1.5 and reports


def test_time_limit_reports_armies_and_a_bound() -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(11)), solver="sat", time_limit=2)
    assert result.status is Status.FEASIBLE
    assert assert_valid(result) and result.objective is not None
    assert result.bound is not None and result.bound >= known("A250000", 11) >= result.objective


@pytest.mark.parametrize(
    "args",
    [
        ["optimize", "queens", "-n", "5", "--white", "2"],
        ["optimize", "peaceable-queens", "-n", "5", "--armies", "9"],
        ["optimize", "peaceable-queens", "-n", "5", "--white", "26"],
        ["count", "peaceable-queens", "-n", "5", "--optimal", "--exactly", "3"],
        ["count", "peaceable-queens", "-n", "5", "--armies", "3", "--white", "1", "--optimal"],
    ],
)
def test_bad_variant_options_exit_two(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(args) == 2
    error = capsys.readouterr().err
    assert error.startswith("chessplace: error:") and error.count("\n") == 1


def test_cli_counts_optimal_armies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "peaceable-queens", "-n", "5", "--optimal", "--unique"]) == 0
    line = capsys.readouterr().out
    assert "18 placements with the optimum of 4 per army, 3 up to symmetry" in line


def test_progress_lines_on_stderr_without_a_terminal() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "chessplace", "optimize", "peaceable-queens", "-n", "7"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "best 7" in done.stderr and "bound 12" in done.stderr
    assert "7 per army — optimal, proven" in done.stdout


def test_optimal_count_stopped_early_exits_three(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["count", "peaceable-queens", "-n", "14", "--optimal", "--time-limit", "1"]
    assert main(args) == 3
    assert "stopped before an answer" in capsys.readouterr().out


def test_ctrl_c_to_the_whole_process_group_reports_the_best_armies() -> None:
    """A terminal's Ctrl-C reaches the SAT child processes too: they must stay quiet and
    leave the answer to the parent."""
    import os
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "chessplace",
            "optimize",
            "peaceable-queens",
            "-n",
            "11",
            "--solver",
            "sat",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    assert process.stderr is not None
    while "cubes refuted" not in process.stderr.readline() and time.monotonic() < deadline:
        pass
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert "Traceback" not in err and "Process" not in err
    assert "17 per army (bound 30) — best found, not proven" in out
