"""Torus boards: lines wrap, the checker walks round, engines that know them agree."""

from __future__ import annotations

import json

import pytest

from chessplace import Board, Shape, Status, count, optimize, puzzles, solve
from chessplace.core.attacks import lines_along
from chessplace.core.placement import Placement
from chessplace.core.verification import attacked_squares
from chessplace.core.violations import Attack
from chessplace.data.reference import known, terms
from chessplace.faces.cli import main
from tests.conftest import assert_valid

TORUS = Board(8, 8, Shape.TORUS)


def test_every_line_of_a_torus_goes_round_the_whole_board() -> None:
    for direction in ((1, 0), (0, 1), (1, 1), (1, -1)):
        found = lines_along(TORUS, direction)
        assert len(found) == 8 and all(len(line) == 8 for line in found)
        assert sorted(s for line in found for s in line) == list(range(64))
    assert str(TORUS) == "8×8 torus"
    assert TORUS.step((7, 0), 1, -1) == (0, 7)
    assert Board(8, 8).step((7, 0), 1, -1) is None


def test_the_checker_sees_attacks_across_the_edges() -> None:
    flat = puzzles.peaceable_queens(Board(8, 8))
    round_ = puzzles.peaceable_queens(TORUS)
    squares = ([(0, 0)], [(1, 7)])  # a1 and b8: one diagonal step apart round the torus
    assert Placement.from_squares(flat, squares).verify() == ()
    found = Placement.from_squares(round_, squares).verify()
    assert found and all(isinstance(v, Attack) for v in found)


def test_riders_stop_at_the_first_piece_round_the_torus() -> None:
    problem = puzzles.peaceable_queens(Board(5, 5, Shape.TORUS))
    alone = Placement.from_squares(problem, ([(0, 0)], []))
    assert len(attacked_squares(alone)) == 16  # four lines of five squares through a1
    blocked = Placement.from_squares(problem, ([(0, 0)], [(2, 0)]))
    rank = {square for square in attacked_squares(blocked, 0) if square[1] == 0}
    assert rank == {(1, 0), (2, 0), (3, 0), (4, 0)}  # c1 stops the ride either way round


@pytest.mark.parametrize("n", sorted(terms("A279405")))
def test_line_engine_proves_a279405(n: int) -> None:
    result = optimize(puzzles.peaceable_queens(Board.square(n, Shape.TORUS)))
    assert result.status is Status.OPTIMAL and result.solver == "lines"
    assert result.objective == known("A279405", n)
    if result.objective:
        assert assert_valid(result).army_sizes == (result.objective, result.objective)


@pytest.mark.parametrize("n", range(4, 8))
def test_sat_agrees_on_the_torus(n: int) -> None:
    result = optimize(puzzles.peaceable_queens(Board.square(n, Shape.TORUS)), solver="sat")
    assert result.status is Status.OPTIMAL and result.objective == known("A279405", n)
    assert_valid(result)


def test_engines_agree_with_brute_force_on_a_small_torus() -> None:
    problem = puzzles.peaceable_queens(Board.square(4, Shape.TORUS)).with_counts(exactly=2)
    oracle = count(problem, unique=True, solver="exhaustive")
    for solver in ("lines", "sat"):
        found = count(problem, unique=True, solver=solver)
        assert (found.count, found.unique) == (oracle.count, oracle.unique), solver
    assert oracle.count and oracle.count > 0


@pytest.mark.parametrize("n", [5, 7])
def test_toroidal_queens_counts(n: int) -> None:
    result = count(puzzles.queens(Board.square(n, Shape.TORUS)))
    assert result.status is Status.COMPLETE and result.count == known("toroidal-queens", n)


def test_no_toroidal_queens_on_six() -> None:
    result = solve(puzzles.queens(Board.square(6, Shape.TORUS)))
    assert result.status is Status.INFEASIBLE
    assert "construction" not in result.solver


def test_command_line_torus_round_trip(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["optimize", "peaceable-queens", "-n", "6", "--torus", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shape"] == "torus" and data["objective"] == 4
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(data))
    assert main(["verify", "peaceable-queens", "-n", "6", "--torus", str(answer)]) == 0
    capsys.readouterr()
    assert main(["verify", "peaceable-queens", "-n", "6", str(answer)]) == 2
    assert "torus" in capsys.readouterr().err


def test_torus_is_refused_where_it_means_nothing(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    grid = tmp_path / "grid.txt"
    grid.write_text("AAAA\nBBBB\nCCCC\nDDDD\n")
    assert main(["solve", "queens-game", "--grid", str(grid), "--torus"]) == 2
    assert "grid alone" in capsys.readouterr().err
    assert main(["solve", "queens", "-n", "8", "--torus", "--solver", "construction"]) == 2
    assert "torus" in capsys.readouterr().err
    assert main(["count", "queens", "-n", "8", "--torus", "--workers", "2"]) == 2
    assert "does not know torus boards" in capsys.readouterr().err


def test_certificates_are_not_written_for_a_torus(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Refused before any work, as bad input (no answer, no directory)."""
    directory = tmp_path / "c"
    code = main(
        ["optimize", "peaceable-queens", "-n", "5", "--torus", "--certificate", str(directory)]
    )
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "torus" in err and not directory.exists()


def test_a_limited_ride_stays_limited_round_a_torus() -> None:
    """F4 on a 2×5 torus: a1 and a2 are five diagonal steps apart round the board, out
    of reach (a flat board's clipping would make F4 a bishop here)."""
    from chessplace import piece_from_text

    board = Board(2, 5, Shape.TORUS)
    f4 = piece_from_text("F4")
    assert f4.on(board) == f4 and piece_from_text("F9").on(board).ride_directions
    problem = puzzles.peaceable(board, f4)
    assert Placement.from_squares(problem, ([(0, 0)], [(0, 1)])).verify() == ()
    for solver in ("exhaustive", "sat"):
        found = count(problem, optimal=True, solver=solver)
        assert (found.objective, found.count) == (1, 10), solver
    knights = puzzles.independent(Board(2, 3, Shape.TORUS), piece_from_text("F2"))
    assert count(knights, optimal=True).objective == 2
