"""Domination of listed squares (``Problem.dominated``, ``--dominate``): optima and
feasibility against a brute force of this file's own on small boards, every answer
verified; the checker names a listed square left uncovered and only such; every
engine that does not model it says so, and so does the certificate writer."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations, permutations
from pathlib import Path

import pytest

from chessplace import (
    Board,
    Placement,
    Problem,
    Status,
    count,
    optimize,
    parse_square,
    piece_from_text,
    puzzles,
    solutions,
    solve,
)
from chessplace.certificates.writer.certificate import CannotCertify, spec_of
from chessplace.core.board import Square, square_name
from chessplace.core.features import Feature
from chessplace.engines.registry import ENGINES
from chessplace.faces.cli import main
from tests.conftest import assert_valid


def _covers(piece_name: str, board: Board, start: Square, target: Square) -> bool:
    """A queen, rook, bishop or knight on ``start`` occupies or attacks ``target``
    (one piece alone on the board: blocking cannot matter, see _fewest)."""
    dx, dy = target[0] - start[0], target[1] - start[1]
    if piece_name == "N":
        return (abs(dx), abs(dy)) in ((1, 2), (2, 1)) or (dx, dy) == (0, 0)
    straight = dx == 0 or dy == 0
    diagonal = abs(dx) == abs(dy)
    return {"Q": straight or diagonal, "R": straight, "B": diagonal}[piece_name]


def _fewest(piece_name: str, board: Board, targets: frozenset[Square]) -> int:
    """The fewest pieces covering ``targets``, by trying every set, smallest first. Pieces
    of one army may stand between a rider and its target: the one in the way attacks
    along the same line, so coverage never depends on blocking."""
    squares = list(board.squares())
    for size in range(len(squares) + 1):
        for chosen in combinations(squares, size):
            if all(any(_covers(piece_name, board, s, t) for s in chosen) for t in targets):
                return size
    raise AssertionError("the whole board covers everything")


def _targets(board: Board, count: int, seed: int) -> frozenset[Square]:
    return frozenset(random.Random(seed).sample(list(board.squares()), count))


def _listed(problem: Problem, targets: frozenset[Square]) -> Problem:
    return replace(problem, dominating=True, dominated=targets)


CASES = [
    ("Q", 5, 6, 1),
    ("Q", 5, 12, 2),
    ("Q", 6, 10, 3),
    ("Q", 6, 20, 4),
    ("N", 5, 8, 5),
    ("R", 6, 9, 6),
    ("B", 5, 7, 7),
]


@pytest.mark.parametrize("solver", ["sat", "cpsat", "exhaustive"])
@pytest.mark.parametrize(("piece", "n", "count", "seed"), CASES)
def test_the_fewest_pieces_on_listed_squares_agree_with_brute_force(
    solver: str, piece: str, n: int, count: int, seed: int
) -> None:
    board = Board.square(n)
    targets = _targets(board, count, seed)
    problem = _listed(puzzles.dominating(board, piece_from_text(piece)), targets)
    result = optimize(problem, solver=solver)
    assert result.status is Status.OPTIMAL
    assert result.objective == _fewest(piece, board, targets)
    placement = assert_valid(result)
    assert len(placement) == result.objective


def test_listing_fewer_squares_can_need_fewer_pieces() -> None:
    """The listed squares are the whole rule: the five corners and centre of 5×5 take one
    queen less than the whole board's three."""
    board = Board.square(5)
    whole = optimize(puzzles.dominating_queens(board))
    corners = frozenset({(0, 0), (4, 0), (0, 4), (4, 4), (2, 2)})
    listed = optimize(_listed(puzzles.dominating_queens(board), corners))
    assert (whole.objective, listed.objective) == (3, 1)
    assert_valid(listed)


@pytest.mark.parametrize("solver", ["sat", "cpsat", "exhaustive"])
@pytest.mark.parametrize(("n", "count", "seed"), [(5, 4, 11), (5, 10, 12), (6, 8, 13)])
def test_n_queens_that_also_cover_listed_squares(
    solver: str, n: int, count: int, seed: int
) -> None:
    """Independent domination of listed squares: n queens, none attacking another, that
    also cover the squares; feasible exactly when one of the n-queens answers does."""
    board = Board.square(n)
    targets = _targets(board, count, seed)
    answers = [
        frozenset(zip(columns, range(n), strict=True))
        for columns in permutations(range(n))
        if all(abs(columns[i] - columns[j]) != j - i for i, j in combinations(range(n), 2))
    ]
    expected = any(
        all(any(_covers("Q", board, s, t) for s in answer) for t in targets) for answer in answers
    )
    result = solve(_listed(puzzles.queens(board), targets), solver=solver)
    assert result.status is (Status.FEASIBLE if expected else Status.INFEASIBLE)
    if expected:
        assert_valid(result)


def test_the_checker_names_only_listed_squares_left_uncovered() -> None:
    board = Board.square(5)
    problem = _listed(puzzles.dominating_queens(board), frozenset({(0, 0), (2, 4)}))
    corner = Placement.from_squares(problem, [[(0, 0)]])
    broken = corner.verify()
    assert len(broken) == 1 and "c5" in str(broken[0]) and "1 squares" in str(broken[0])
    assert broken[0].squares == ((2, 4),)
    assert Placement.from_squares(problem, [[(2, 2)]]).verify() == ()  # b4..: many uncovered


def test_symmetries_keep_the_listed_squares() -> None:
    board = Board.square(4)
    problem = _listed(puzzles.dominating_queens(board), frozenset({(0, 0), (3, 3)}))
    images = [{g(s) for s in problem.dominated or ()} for g in problem.symmetries()]
    assert len(images) == 4 and all(image == {(0, 0), (3, 3)} for image in images)


@pytest.mark.parametrize("listed", [["a1", "d4", "e5"], ["d4", "e5"]])
def test_a_listed_square_needing_no_cover_keeps_every_symmetry(listed: list[str]) -> None:
    """a1 is blocked, so listing it changes nothing (it needs no cover): the placements
    fall into the classes of the group that keeps the blocked corners and d4, e5, as a
    brute-force orbit count over the listed placements says, whichever list is given."""
    board = Board.square(8)
    blocked = frozenset({(0, 0), (7, 7)})
    problem = _listed(
        replace(puzzles.dominating_queens(board), blocked=blocked).with_counts(exactly=1),
        frozenset(parse_square(name) for name in listed),
    )
    keep = [blocked, frozenset({(3, 3), (4, 4)})]
    group = [g for g in board.symmetries() if all({g(s) for s in k} == k for k in keep)]
    placements = {frozenset(p.armies[0]) for p in solutions(problem)}
    orbits = {min(tuple(sorted(g(s) for s in p)) for g in group) for p in placements}
    counted = count(problem, unique=True)
    assert (counted.count, counted.unique) == (len(placements), len(orbits)) == (12, 5)


def test_every_engine_that_does_not_model_it_says_so() -> None:
    problem = _listed(puzzles.dominating_queens(Board.square(6)), frozenset({(0, 0)}))
    takers = set()
    for name, engine in ENGINES.items():
        reasons = {engine.refusal(problem, task) for task in engine.tasks}
        if Feature.DOMINATED in engine.supports:
            takers.add(name)
        else:
            assert reasons == {f"{name} does not dominate listed squares only"}, name
    assert takers == {"sat", "cpsat", "exhaustive", "portfolio"}


def test_the_certificate_writer_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    problem = _listed(puzzles.dominating_queens(Board.square(5)), frozenset({(0, 0)}))
    with pytest.raises(CannotCertify, match="listed squares"):
        spec_of(problem)
    code = main(
        [
            "optimize",
            "dominating-queens",
            "-n",
            "5",
            "--dominate",
            "a1",
            "--certificate",
            f"{tmp_path}/cert",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "listed squares" in err, err


def test_the_command_line_dominates_the_squares_it_lists(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["optimize", "dominating-queens", "-n", "6", "--dominate", "a1,f6,c4", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    board = Board.square(6)
    targets = {(0, 0), (5, 5), (2, 3)}
    assert data["objective"] == _fewest("Q", board, frozenset(targets)) == 1
    squares = {piece["square"] for piece in data["pieces"]}
    assert len(squares) == 1
    [square] = squares
    assert square in {
        square_name(s) for s in board.squares() if all(_covers("Q", board, s, t) for t in targets)
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dominating-queens", "-n", "5", "--dominate", "f6"], "square to dominate f6 is off"),
        (["dominating-queens", "-n", "5", "--dominate", ","], "at least one square"),
        (["dominating-queens", "-n", "5", "--dominate", "a1,a1"], "a1 is listed twice"),
        (["dominating-queens", "-n", "5", "--dominate", "x"], "dominate: "),
        (["dominating-queens", "-n", "5", "--dominate", "a1," * 100_000], "more entries"),
        (["peaceable-queens", "-n", "5", "--dominate", "a1"], "a single army"),
        (
            ["queens-and-pawns", "-n", "5", "--pawns", "1", "--dominate", "a1"],
            "pawns to place do not combine with domination",
        ),
    ],
)
def test_bad_squares_to_dominate_are_one_line_and_exit_two(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_a_region_grid_takes_no_squares_to_dominate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("aab\nabb\nccc\n")
    code = main(["solve", "queens-game", "--grid", str(grid), "--dominate", "a1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "from the grid alone" in err, err
