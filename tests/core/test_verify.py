"""The independent checker: real attacks, blockers, counts, domination."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessplace import Board, Placement, puzzles
from chessplace.core.board import Square
from chessplace.core.pieces import KNIGHT, ROOK
from chessplace.core.verification import directed_pairs
from chessplace.engines.construction import bishop_squares, queens_columns


def grid(row: int, column: int, n: int = 5) -> Square:
    """(row, column), row 1 at the top, as the issue writes squares."""
    return column - 1, n - row


WHITE = [grid(1, 2), grid(1, 4), grid(2, 3), grid(4, 3)]
BLACK = [grid(3, 1), grid(3, 5), grid(5, 1), grid(5, 5)]


def test_accepts_the_five_by_five_peaceable_armies() -> None:
    problem = puzzles.peaceable_queens(Board.square(5)).with_counts(exactly=4)
    assert Placement.from_squares(problem, [WHITE, BLACK]).verify() == ()


def test_rejects_a_black_queen_moved_into_attack() -> None:
    problem = puzzles.peaceable_queens(Board.square(5)).with_counts(exactly=4)
    moved = [grid(3, 1), grid(3, 5), grid(5, 3), grid(5, 5)]
    attacks = [str(v) for v in Placement.from_squares(problem, [WHITE, moved]).verify()]
    assert "black queen c1 and white queen c2 attack each other" in attacks
    assert not [attack for attack in attacks if " attacks " in attack]


def test_blockers_stop_rides() -> None:
    problem = puzzles.independent(Board.square(4), ROOK)
    violations = Placement.from_squares(problem, [[(0, 0), (1, 0), (2, 0)]]).verify()
    pairs = directed_pairs(violations)
    assert pairs == {((0, 0), (1, 0)), ((1, 0), (0, 0)), ((1, 0), (2, 0)), ((2, 0), (1, 0))}
    assert len(violations) == 2  # each pair that attacks each other is one broken rule


def test_same_army_may_attack_itself_in_peaceable_puzzles() -> None:
    problem = puzzles.peaceable_queens(Board.square(4))
    assert Placement.from_squares(problem, [[(0, 0), (1, 0)], [(3, 3)]]).verify() != ()
    assert Placement.from_squares(problem, [[(0, 0), (1, 0)], [(3, 1), (2, 3)]]).verify() == ()


def test_counts_overlaps_and_board_edges() -> None:
    problem = puzzles.queens(Board.square(4))
    assert "asks exactly 4" in str(Placement.from_squares(problem, [[(1, 0)]]).verify()[0])
    assert "off the" in str(Placement.from_squares(problem, [[(4, 0)]]).verify()[0])
    two = puzzles.peaceable_queens(Board.square(4))
    assert "holds both" in str(Placement.from_squares(two, [[(0, 0)], [(0, 0)]]).verify()[0])


def test_domination_names_uncovered_squares() -> None:
    problem = puzzles.dominating_queens(Board.square(4))
    assert Placement.from_squares(problem, [[(0, 0), (2, 2)]]).verify() == ()
    problems = Placement.from_squares(problem, [[(0, 0)]]).verify()
    assert "neither occupied nor attacked" in str(problems[0])


def test_knights_attack_by_leaping() -> None:
    problem = puzzles.independent(Board.square(3), KNIGHT)
    assert len(Placement.from_squares(problem, [[(0, 0), (1, 2)]]).verify()) == 1
    assert Placement.from_squares(problem, [[(0, 0), (1, 1)]]).verify() == ()


@pytest.mark.parametrize("n", [1, *range(4, 40), 1001, 100_000])
def test_constructions_verify(n: int) -> None:
    queens = puzzles.queens(Board.square(n))
    squares = [(file, rank) for rank, file in enumerate(queens_columns(n))]
    assert Placement.from_squares(queens, [squares]).verify() == ()
    if n < 2000:
        bishops = puzzles.bishops(Board.square(n))
        assert Placement.from_squares(bishops, [bishop_squares(n)]).verify() == ()


def _attacks_brute_force(placement: Placement) -> set[tuple[Square, Square]]:
    """Pairs found by walking every move from every piece: a second opinion."""
    board = placement.problem.board
    occupied = {s for squares in placement.armies for s in squares}
    found = set()
    for squares, army in zip(placement.armies, placement.problem.armies, strict=True):
        for start in squares:
            for move in army.piece.moves:
                for dx, dy in move.directions:
                    x, y, steps = start[0] + dx, start[1] + dy, 1
                    while board.contains((x, y)) and (move.reach is None or steps <= move.reach):
                        if (x, y) in occupied:
                            found.add((start, (x, y)))
                            break
                        x, y, steps = x + dx, y + dy, steps + 1
    return found


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=7),
    piece=st.sampled_from(["Q", "N", "K", "QN", "NN", "B", "W2", "R"]),
    data=st.data(),
)
def test_checker_agrees_with_a_brute_force_walk(n: int, piece: str, data: st.DataObject) -> None:
    from chessplace import piece_from_text

    board = Board.square(n)
    squares = data.draw(st.sets(st.sampled_from(list(board.squares())), max_size=n * n))
    problem = puzzles.independent(board, piece_from_text(piece))
    placement = Placement.from_squares(problem, [squares])
    reported = directed_pairs(placement.verify())
    assert reported == _attacks_brute_force(placement)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=4, max_value=30), data=st.data())
def test_symmetries_map_valid_placements_to_valid_ones(n: int, data: st.DataObject) -> None:
    problem = puzzles.queens(Board.square(n))
    squares = [(file, rank) for rank, file in enumerate(queens_columns(n))]
    placement = Placement.from_squares(problem, [squares])
    symmetry = data.draw(st.sampled_from(problem.board.symmetries()))
    image = placement.transformed(symmetry)
    assert image.verify() == ()
    assert image.canonical_key() == placement.canonical_key()


def test_a_hand_built_placement_with_a_bad_square_is_not_valid() -> None:
    """Squares are pairs of whole numbers (NumPy's too); anything else, and a square off
    the board (named by its numbers when negative), is a broken rule."""
    numpy = pytest.importorskip("numpy")
    problem = puzzles.queens(Board.square(4))
    fine = [(numpy.int64(1), numpy.int64(0)), (3, 1), (0, 2), (2, 3)]
    assert Placement.from_squares(problem, [fine]).verify() == ()
    for square, said in [
        ((0.5, 1), "not two whole numbers"),
        ((True, 1), "not two whole"),
        ((-1, 2), "(-1, 2) is off the 4×4 board"),
    ]:
        broken = Placement.from_squares(problem, [[square, (3, 1), (0, 2), (2, 3)]]).verify()
        assert any(said in rule.message for rule in broken), broken
