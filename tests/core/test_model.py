"""Boards, squares, Betza pieces and problems."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessplace import Board, piece_from_text, puzzles
from chessplace.core.betza import parse_betza
from chessplace.core.board import file_index, file_name, parse_square, square_name
from chessplace.core.pieces import AMAZON, BISHOP, KING, KNIGHT, NIGHTRIDER, QUEEN, ROOK


def test_square_names_follow_chess() -> None:
    assert square_name((0, 0)) == "a1"
    assert square_name((7, 7)) == "h8"
    assert square_name((26, 9)) == "aa10"
    assert parse_square("e4") == (4, 3)


@given(st.integers(min_value=0, max_value=10**7))
def test_file_names_round_trip(file: int) -> None:
    assert file_index(file_name(file)) == file


@pytest.mark.parametrize("bad", ["", "4e", "e0", "E-4", "e"])
def test_bad_square_names_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_square(bad)


def test_board_symmetries() -> None:
    assert len(Board(8, 8).symmetries()) == 8
    assert len(Board(3, 5).symmetries()) == 4
    for symmetry in Board(3, 5).symmetries():
        image = {symmetry(s) for s in Board(3, 5).squares()}
        assert image == set(Board(3, 5).squares())


@pytest.mark.parametrize(
    ("text", "piece"),
    [
        ("Q", QUEEN),
        ("WWFF", QUEEN),
        ("RB", QUEEN),
        ("queen", QUEEN),
        ("R", ROOK),
        ("FF", BISHOP),
        ("N", KNIGHT),
        ("WF", KING),
        ("K", KING),
        ("QN", AMAZON),
        ("amazon", AMAZON),
        ("NN", NIGHTRIDER),
    ],
)
def test_pieces_from_names_and_betza(text: str, piece: object) -> None:
    assert piece_from_text(text) == piece


def test_betza_leapers_and_ranges() -> None:
    moves = {(m.step, m.reach) for m in parse_betza("WFDNA")}
    assert moves == {((1, 0), 1), ((1, 1), 1), ((2, 0), 1), ((2, 1), 1), ((2, 2), 1)}
    assert {(m.step, m.reach) for m in parse_betza("W3")} == {((1, 0), 3)}
    assert {(m.step, m.reach) for m in parse_betza("W0")} == {((1, 0), None)}
    assert len(KNIGHT.bounded_vectors) == 8
    assert piece_from_text("R2").bounded_vectors == {
        (1, 0),
        (2, 0),
        (-1, 0),
        (-2, 0),
        (0, 1),
        (0, 2),
        (0, -1),
        (0, -2),
    }


@pytest.mark.parametrize("bad", ["fN", "X", "WW3", "", "Q!"])
def test_bad_pieces_are_rejected_with_a_reason(bad: str) -> None:
    with pytest.raises(ValueError, match="piece"):
        piece_from_text(bad)


def test_problem_counts() -> None:
    problem = puzzles.peaceable_queens(Board.square(6)).with_counts(at_least=4)
    assert all(army.minimum == 4 and army.maximum is None for army in problem.armies)
    assert problem.objective((5, 4)) == 4
    assert not problem.without_counts().has_target
    with pytest.raises(ValueError):
        Board(0, 3)
    with pytest.raises(ValueError):
        puzzles.build_puzzle("rooks", Board.square(3))


@pytest.mark.parametrize("bad", [2.5, 2.0, "3", True])
def test_a_count_is_a_whole_number(bad: object) -> None:
    """A count of 2.5 once made the exhaustive engine answer "infeasible"."""
    knights = puzzles.independent(Board.square(4), KNIGHT)
    with pytest.raises(TypeError, match="whole number"):
        knights.with_counts(exactly=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="whole number"):
        puzzles.peaceable_queens(Board.square(5), white=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="whole number"):
        puzzles.peaceable_queens(Board.square(5), armies=bad)  # type: ignore[arg-type]


def test_a_count_may_be_any_integer_type() -> None:
    numpy = pytest.importorskip("numpy")
    knights = puzzles.independent(Board.square(4), KNIGHT).with_counts(exactly=numpy.int64(3))
    assert type(knights.armies[0].minimum) is int and knights.armies[0].maximum == 3


def test_an_unknown_piece_name_is_not_blamed_on_betza() -> None:
    with pytest.raises(ValueError, match="unknown piece 'camel': the named pieces are") as error:
        piece_from_text("camel")
    assert "modifier" not in str(error.value) and "Betza notation" in str(error.value)
    with pytest.raises(ValueError, match=r"unknown Betza atom 'X'.*or Betza notation"):
        piece_from_text("XYZ")


def test_a_printed_result_shows_its_board_and_verdict() -> None:
    from chessplace import solve

    result = solve(puzzles.queens(Board.square(5)))
    text = str(result)
    assert len(text.splitlines()) == 7 and text.count("♛") == 5, text
    assert text.splitlines()[-1].startswith("feasible · ")
    assert "Placement(" not in text and len(text) < 400


def test_dir_of_the_package_shows_only_its_public_names() -> None:
    import chessplace

    names = dir(chessplace)
    assert "solve" in names and "Board" in names
    assert not {"importlib", "Any", "TYPE_CHECKING"} & set(names)


def test_a_region_puzzle_draws_its_regions_in_jupyter() -> None:
    """Placement._repr_svg_ draws what the faces draw: a grid's regions coloured."""
    from chessplace import Placement
    from chessplace.forms.drawing import marked_svg
    from chessplace.making.new_puzzle import generate

    made = generate("queens-game", 6, seed=3).placement
    assert isinstance(made, Placement)
    assert made._repr_svg_() == marked_svg(made, conflicts=True)
