"""The bitboard counter with a position: the n+k queens problem against OEIS (A103330,
A103331, A129552, A129554) and CP-SAT, blocked squares, given pieces and given pawns
against CP-SAT, the symmetries it keeps, checkpoints and refusals."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessplace import api
from chessplace.core.board import Board, Square
from chessplace.core.pieces import QUEEN, ROOK, Piece, piece_from_text
from chessplace.core.problem import Army, Problem
from chessplace.core.result import Status
from chessplace.data.reference import known
from chessplace.engines.base import Task
from chessplace.engines.bitboard.pawns import Position, dihedral_image, pawn_classes
from chessplace.engines.registry import ENGINES, choose
from chessplace.notation.puzzles import amazons, queens, queens_and_pawns
from chessplace.runtime.control import Control, Progress

UNIQUE = {1: "A103331", 2: "A129552", 3: "A129554"}

# Every term each sequence knows up to these n is checked (a few seconds in all);
# the slow test goes further.
QUICK = {1: 12, 2: 10, 3: 9}
SLOW = {1: 15, 2: 14, 3: 12}


def _count(n: int, pawns: int) -> tuple[int | None, int | None]:
    result = api.count(queens_and_pawns(Board.square(n), pawns), unique=True, solver="bitboard")
    return result.count, result.unique


@pytest.mark.parametrize("pawns", [1, 2, 3])
def test_n_plus_k_queens_match_oeis(pawns: int) -> None:
    for n in range(2 if pawns > 1 else 1, QUICK[pawns] + 1):  # k pawns need k squares
        total, classes = _count(n, pawns)
        assert classes == known(UNIQUE[pawns], n), n
        if pawns == 1:
            assert total == known("A103330", n), n


@pytest.mark.slow
@pytest.mark.parametrize("pawns", [1, 2, 3])
def test_n_plus_k_queens_match_oeis_further(pawns: int) -> None:
    for n in range(QUICK[pawns] + 1, SLOW[pawns] + 1):
        total, classes = _count(n, pawns)
        assert classes == known(UNIQUE[pawns], n), n
        if pawns == 1:
            assert total == known("A103330", n), n
            # Knuth's A368061: the placements a half turn keeps (A103330 = 8·A103331 − 4·it)
            half_turn = known("A368061", n)
            assert half_turn is not None and total == 8 * classes - 4 * half_turn


@pytest.mark.parametrize(("n", "pawns"), [(5, 1), (6, 1), (7, 1), (6, 2), (6, 3)])
def test_n_plus_k_queens_agree_with_cpsat(n: int, pawns: int) -> None:
    problem = queens_and_pawns(Board.square(n), pawns)
    ours = api.count(problem, unique=True)
    assert ours.solver == "bitboard"
    theirs = api.count(problem, unique=True, solver="cpsat")
    assert (ours.count, ours.unique) == (theirs.count, theirs.unique)


@st.composite
def positions(draw: st.DrawFn) -> Problem:
    """A queen or rook army of n + pawns on a small board, with random blocked squares,
    given pawns, given pieces and pawns to place."""
    n = draw(st.integers(3, 6))
    board = Board.square(n)
    squares = sorted(board.squares())
    roles = draw(
        st.lists(st.sampled_from("........bpg"), min_size=len(squares), max_size=len(squares))
    )
    picked = {
        role: frozenset(s for s, r in zip(squares, roles, strict=True) if r == role)
        for role in "bpg"
    }
    free = draw(st.integers(0, 1 if n < 6 else 2))
    piece = draw(st.sampled_from((QUEEN, ROOK)))
    count = n + len(picked["p"]) + free
    return Problem(
        "position",
        board,
        (Army("white", piece, count, count),),
        blocked=picked["b"],
        pawns=picked["p"],
        given=(picked["g"],),
        free_pawns=free,
    )


@settings(max_examples=25, deadline=None)
@given(positions())
def test_positions_agree_with_cpsat(problem: Problem) -> None:
    ours = api.count(problem, unique=True, solver="bitboard")
    theirs = api.count(problem, unique=True, solver="cpsat")
    assert (ours.count, ours.unique) == (theirs.count, theirs.unique), problem.describe()


@pytest.mark.parametrize(
    "position",
    [
        {"blocked": "a1,c3,f6"},
        {"given": "Qd1", "blocked": "a8"},
        {"given": "Qc1,Qa5"},
        {"blocked": "d4,e5"},  # symmetric: a half turn and a reflection keep it
    ],
)
def test_queens_with_blocked_squares_and_givens_agree_with_cpsat(
    position: dict[str, str],
) -> None:
    from chessplace.notation.position import with_position

    problem = with_position(queens(Board.square(8)), **position)
    ours = api.count(problem, unique=True)
    assert ours.solver == "bitboard"
    theirs = api.count(problem, unique=True, solver="cpsat")
    assert (ours.count, ours.unique) == (theirs.count, theirs.unique)


def test_a_leaping_piece_with_a_position_is_counted_plainly() -> None:
    """The generated search, without symmetry, for pieces beyond queens and rooks."""
    chancellor = piece_from_text("RN")
    problem = replace(
        Problem("chancellors", Board.square(7), (Army("white", chancellor, 7, 7),)),
        blocked=frozenset({(0, 0), (3, 4)}),
        given=(frozenset({(2, 6)}),),
    )
    ours = api.count(problem)
    assert ours.solver == "bitboard"
    assert ours.count == api.count(problem, solver="cpsat").count
    asymmetric = replace(amazons(Board.square(10)), blocked=frozenset({(0, 0), (9, 8)}))
    assert api.count(asymmetric, unique=True).unique == api.count(asymmetric).count
    symmetric = replace(amazons(Board.square(10)), blocked=frozenset({(0, 0), (9, 9)}))
    with pytest.raises(ValueError, match="classes of a symmetric position"):
        api.count(symmetric, unique=True, solver="bitboard")


def test_symmetries_are_numbered_as_the_board_lists_them() -> None:
    board = Board.square(5)
    for t, g in enumerate(board.symmetries()):
        for square in board.squares():
            assert dihedral_image(t, square, 4) == g(square)
    problem = replace(queens_and_pawns(board, 1), pawns=frozenset({(1, 1), (3, 3)}))
    position = Position(5, 8, 1, pawns=problem.pawns)
    assert len(position.group()) == len(problem.symmetries()) == 4


def test_pawn_classes_cover_every_useful_set_once() -> None:
    """Each class weighs its orbit: the weights add up to every pawn set some answer
    may use (pawns off the edge, none beside another on a rank or file)."""
    n = 8
    classes = pawn_classes(Position(n, n + 2, 2))
    assert classes is not None
    inner = [(x, y) for x in range(1, n - 1) for y in range(1, n - 1)]
    useful = sum(
        1
        for i, a in enumerate(inner)
        for b in inner[i + 1 :]
        if not (a[1] == b[1] and abs(a[0] - b[0]) == 1)
        and not (a[0] == b[0] and abs(a[1] - b[1]) == 1)
    )
    assert sum(c.weight for c in classes) == useful


def test_a_stopped_count_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "pawns.jsonl"
    problem = queens_and_pawns(Board.square(12), 1)  # split by the first rows' columns
    first = api.count(problem, unique=True, checkpoint=checkpoint)
    assert (first.count, first.unique) == (known("A103330", 12), known("A103331", 12))
    lines = checkpoint.read_text().splitlines()
    header = json.loads(lines[0])["header"]
    assert header["method"] == "segments" and header["free_pawns"] == 1
    kept = lines[: len(lines) // 2]
    checkpoint.write_text("\n".join(kept) + "\n")
    again = api.count(problem, unique=True, checkpoint=checkpoint)
    assert (again.count, again.unique) == (first.count, first.unique)
    assert again.note == f"resumed {len(kept) - 1} finished subproblems"
    with pytest.raises(ValueError, match="records a different count"):
        api.count(queens_and_pawns(Board.square(12), 2), checkpoint=checkpoint)


def test_what_the_counter_refuses_with_a_position() -> None:
    bitboard = ENGINES["bitboard"]
    pawns = queens_and_pawns(Board.square(8), 1)
    assert bitboard.refusal(pawns, Task.COUNT) is None
    assert "lists solutions without" in str(bitboard.refusal(pawns, Task.LIST))
    with_amazons = replace(amazons(Board.square(8)), pawns=frozenset({(3, 3)}))
    assert "queens and rooks with pawns" in str(bitboard.refusal(with_amazons, Task.COUNT))
    fewer = replace(queens(Board.square(6)), pawns=frozenset({(2, 2)}))  # 6 queens, 7 segments
    assert "exactly 7 queens with 1 pawn" in str(bitboard.refusal(fewer, Task.COUNT))
    assert choose(fewer, Task.COUNT).engine.name != "bitboard"
    assert ENGINES["gpu"].refusal(pawns, Task.COUNT) is not None


def test_a_time_limit_stops_the_count_while_it_chooses_the_pawns() -> None:
    result = api.count(queens_and_pawns(Board.square(14), 3), unique=True, time_limit=0.5)
    assert result.status is Status.PARTIAL and result.unique is None


def _stages(problem: Problem) -> list[str]:
    """The messages the bitboard counter reports while counting ``problem``."""
    said: list[str] = []

    def watch(progress: Progress) -> None:
        if progress.message:
            said.append(progress.message)

    api.count(problem, solver="bitboard", control=Control(on_progress=watch))
    return said


def test_it_says_it_chooses_the_pawns_squares_only_with_pawns_to_place() -> None:
    """Given pieces, blocked squares or given pawns alone leave no pawn to choose."""
    board = Board.square(8)
    choosing = "choosing the pawns' squares"
    given = replace(queens(board), given=(frozenset({(0, 0), (2, 0)}),))
    blocked = replace(queens(board), blocked=frozenset({(3, 3)}))
    placed = replace(queens(Board.square(6)), pawns=frozenset({(2, 2)}))
    placed = replace(placed, armies=(replace(placed.armies[0], minimum=7, maximum=7),))
    for problem in (given, blocked, placed):
        assert choosing not in _stages(problem), problem
    assert choosing in _stages(queens_and_pawns(Board.square(6), 1))


def _same_rank_pairs(n: int) -> list[tuple[Square, Square]]:
    """Every pair of squares on one rank of an n×n board, on its lower half (the rest
    are their mirror images)."""
    return [((a, y), (b, y)) for y in range(-(-n // 2)) for a in range(n) for b in range(a + 1, n)]


@pytest.mark.parametrize(("n", "piece"), [(4, QUEEN), (5, QUEEN), (6, QUEEN), (5, ROOK)])
def test_two_given_pieces_on_one_rank_are_counted_as_cpsat_counts(n: int, piece: Piece) -> None:
    """Two given pieces in one row segment attack each other: no placement (the counter
    once pinned the first and dropped the second)."""
    for pair in _same_rank_pairs(n):
        problem = Problem(
            "position", Board.square(n), (Army("white", piece, n, n),), given=(frozenset(pair),)
        )
        ours = api.count(problem, unique=True, solver="bitboard")
        theirs = api.count(problem, unique=True, solver="cpsat")
        assert (ours.count, ours.unique) == (theirs.count, theirs.unique) == (0, 0), pair


@pytest.mark.parametrize("n", [6, 7])
def test_a_placed_pawn_between_two_given_queens_parts_them(n: int) -> None:
    """With a pawn to place, two given queens on one rank are an answer only when the
    pawn stands between them."""
    board = Board.square(n)
    answered = 0
    for pair in _same_rank_pairs(n):
        problem = replace(queens_and_pawns(board, 1), given=(frozenset(pair),))
        ours = api.count(problem, unique=True, solver="bitboard")
        theirs = api.count(problem, unique=True, solver="cpsat")
        assert (ours.count, ours.unique) == (theirs.count, theirs.unique), pair
        answered += bool(ours.count)
    assert answered  # some pairs are parted by a pawn
