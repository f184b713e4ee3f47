"""Trust at the edges: huge, hostile and unreachable inputs get a verified answer,
a one-line refusal (exit 2) or the best so far (exit 3), never a crash or a hang."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from itertools import product
from typing import Any

import pytest

from chessplace import Board, optimize, piece_from_text, puzzles
from chessplace.core.pieces import ROOK
from chessplace.core.result import Status
from chessplace.encodings.formulas import LineFormula, SquareFormula
from chessplace.engines.base import Task
from chessplace.engines.exhaustive import reaches
from chessplace.engines.registry import ENGINES
from chessplace.faces.cli import main
from chessplace.forms.jsonio import read_placement
from chessplace.notation.options import problem_from_options
from chessplace.runtime.control import Control

SLACK = 20.0
"""Generous seconds past a time limit that a stopped run may take (start-up, a loaded machine)."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def verified_json(out: str, puzzle: str, **options: Any) -> dict[str, Any]:
    """The JSON answer, after the independent checker accepted its pieces."""
    data: dict[str, Any] = json.loads(out)
    placement = read_placement(problem_from_options(puzzle, **options), out)
    assert placement.verify() == ()
    assert len(placement) == len(data["pieces"])
    return data


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("chessplace: error:"), err[:500]
    assert "Traceback" not in err
    return lines[0]


def cli(*args: str, timeout: float) -> tuple[int, str, str, float]:
    """``chessplace ARGS`` in a child process, killed after ``timeout`` seconds."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


@pytest.mark.parametrize("n", [200, 2000])
def test_optimize_queens_is_the_construction_proven_optimal(
    capsys: pytest.CaptureFixture[str], n: int
) -> None:
    started = time.monotonic()
    code, out, _ = run(capsys, "optimize", "queens", "-n", str(n), "--time-limit", "5", "--json")
    data = verified_json(out, "queens", n=n)
    assert code == 0 and data["status"] == "optimal"
    assert data["objective"] == data["bound"] == n and len(data["pieces"]) == n
    assert time.monotonic() - started < 5 + SLACK


@pytest.mark.parametrize(
    ("puzzle", "piece", "rows", "cols"),
    [("bishops", None, n, n) for n in range(1, 6)]
    + [("independent", p, r, c) for p in "KRQ" for r, c in ((1, 4), (4, 4), (4, 5), (6, 3))]
    + [("independent", "Q", 3, 4)],
)
def test_constructed_optima_match_the_oracle(
    puzzle: str, piece: str | None, rows: int, cols: int
) -> None:
    problem = problem_from_options(puzzle, rows=rows, cols=cols, piece=piece)
    if piece == "Q" and min(rows, cols) == 3 and max(rows, cols) < 5:  # no staircase fits
        assert ENGINES["construction"].refusal(problem, Task.OPTIMIZE) is not None
        return
    built = optimize(problem, solver="construction")
    oracle = optimize(problem, solver="exhaustive")
    assert built.status is Status.OPTIMAL and built.placement is not None
    assert built.placement.verify() == ()
    assert built.objective == built.bound == oracle.objective


def test_optimize_prefers_the_construction_for_bishops(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "optimize", "bishops", "-n", "8", "--json")
    data = verified_json(out, "bishops", n=8)
    assert code == 0 and data["solver"] == "construction"
    assert (data["status"], data["objective"], data["bound"]) == ("optimal", 14, 14)


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "queens", "-n", "1000000000"),
        ("count", "queens", "-n", "1000000000"),
        ("solve", "bishops", "-n", "600000"),
        ("optimize", "independent", "--piece", "rook", "-n", "2000000"),
    ],
)
def test_answers_too_large_for_memory_are_refused(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert "1,000,000" in one_line_error(err)


def test_a_few_bishops_on_a_huge_board(capsys: pytest.CaptureFixture[str]) -> None:
    n = "1000000000"
    code, out, _ = run(capsys, "solve", "bishops", "-n", n, "--at-least", "10", "--json")
    data = verified_json(out, "bishops", n=int(n), at_least=10)
    assert code == 0 and data["status"] == "feasible" and len(data["pieces"]) == 10


def test_at_most_is_respected(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "queens", "-n", "8", "--at-most", "3", "--json")
    data = verified_json(out, "queens", n=8, at_most=3)
    assert code == 0 and 1 <= len(data["pieces"]) <= 3


@pytest.mark.parametrize("n", ["100000", "1000000001"])
def test_boards_too_large_to_count_are_refused(capsys: pytest.CaptureFixture[str], n: str) -> None:
    started = time.monotonic()
    code, out, err = run(capsys, "count", "queens", "-n", n, "--time-limit", "5")
    assert code == 2 and out == ""
    line = one_line_error(err)
    assert ("40,000 squares" in line) if n == "100000" else ("1,000,000,000" in line)
    assert time.monotonic() - started < SLACK


def test_model_building_stops_with_the_run() -> None:
    """A stopped control ends CP-SAT and SAT model building at once, with no answer."""
    control = Control()
    control.stop()
    queens = puzzles.queens(Board.square(150))
    for engine in ("cpsat",):
        started = time.monotonic()
        result = ENGINES[engine].optimize(queens.without_counts(), control)
        assert result.status is Status.UNKNOWN and result.placement is None
        assert time.monotonic() - started < SLACK
    counted = ENGINES["cpsat"].count(queens, control, unique=False)
    assert counted.status is Status.PARTIAL and counted.count == 0
    square = SquareFormula(puzzles.amazons(Board.square(30)), "totalizer", control=control)
    lines = LineFormula(puzzles.peaceable_queens(Board.square(30)), "totalizer", control=control)
    for formula in (square, lines):
        assert not formula.complete and len(formula.clauses) < 1000
    result = ENGINES["sat"].solve(puzzles.amazons(Board.square(30)), control)
    assert result.status is Status.UNKNOWN


def test_cpsat_count_stops_within_its_limit(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    code, out, err = run(capsys, "count", "queens", "-n", "200", "--time-limit", "1")
    assert code == 3 and "stopped early" in out and "Traceback" not in err
    assert time.monotonic() - started < 1 + SLACK


def test_a_ride_longer_than_the_board_is_unlimited() -> None:
    assert piece_from_text("W999999999").on(Board(5, 5)) == ROOK
    assert piece_from_text("W3").on(Board(4, 4)) == ROOK
    assert piece_from_text("W3").on(Board(5, 5)) != ROOK
    for text, side in product(("W2", "F3", "N2", "WN3", "K2", "D2"), (3, 4, 5, 6, 7)):
        board = Board(side, side + 1)
        piece = piece_from_text(text)
        clipped = piece.on(board)
        for start, target in product(board.squares(), repeat=2):
            assert reaches(piece, start, target, board) == reaches(clipped, start, target, board), (
                text,
                side,
            )


def test_a_huge_ride_is_answered_quickly() -> None:
    args = ("optimize", "independent", "--piece", "W999999999", "-n", "5", "--time-limit", "10")
    code, out, _, seconds = cli(*args, "--json", timeout=10 + 2 * SLACK)
    data = verified_json(out, "independent", n=5, piece="W999999999")
    assert code == 0 and (data["status"], data["objective"]) == ("optimal", 5)
    assert seconds < 10 + SLACK


@pytest.mark.parametrize(
    "piece",
    ["w", "W-1", "Ｗ", "XX", "NN0", "9", "W" * 5 + "!" * 100_000, "W" + "9" * 5000 + "x"],
)
def test_hostile_betza_gets_one_short_line(capsys: pytest.CaptureFixture[str], piece: str) -> None:
    code, out, err = run(capsys, "optimize", "independent", "--piece", piece, "-n", "4")
    assert code == 2 and out == ""
    assert len(one_line_error(err)) < 400


def test_huge_and_zero_ranges_ride(capsys: pytest.CaptureFixture[str]) -> None:
    for piece in ("W" + "9" * 5000, "W0", "W000000000000000000000"):
        code, out, _ = run(capsys, "optimize", "independent", "--piece", piece, "-n", "4", "--json")
        assert code == 0 and json.loads(out)["objective"] == 4  # four rooks
    code, out, _ = run(capsys, "optimize", "independent", "--piece", "W00001", "-n", "4", "--json")
    assert code == 0 and json.loads(out)["objective"] == 8  # a one-step leaper: wazirs


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs distributed")
def test_an_unreachable_dask_scheduler_is_one_line() -> None:
    args = ("count", "queens", "-n", "12", "--dask", "127.0.0.1:1", "--time-limit", "3")
    code, out, err, seconds = cli(*args, timeout=3 + 2 * SLACK)
    assert seconds < 3 + SLACK
    if code == 3:  # a loaded machine: the time limit came before the connection gave up
        assert "stopped before an answer" in out and "Traceback" not in err
        return
    assert code == 2 and out == ""
    assert "Dask scheduler" in one_line_error(err)


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "quens"),
        ("solve", "problem.yaml"),
        ("count", "peacable-queens", "--blocked", "a1", "--list"),
        ("optimize", "x" * 10_000),
    ],
)
def test_an_unknown_puzzle_is_named_before_a_missing_board_size(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    line = one_line_error(err)
    assert "unknown puzzle" in line and "choose from queens" in line and len(line) < 300


@pytest.mark.parametrize("listing", [(), ("--list",)])
def test_a_limit_past_the_largest_index_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], listing: tuple[str, ...]
) -> None:
    huge = str(sys.maxsize + 1)
    code, out, err = run(
        capsys, "count", "queens", "-n", "6", "--blocked", "a1", *listing, "--limit", huge
    )
    assert code == 2 and out == ""
    assert f"--limit: expected at most {sys.maxsize:,}" in one_line_error(err)
