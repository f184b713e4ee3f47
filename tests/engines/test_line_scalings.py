"""The torus's scalings: more symmetries for the line search, the same optima."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from chessplace import Board, Shape, Status, puzzles
from chessplace.core.attacks import lines_along
from chessplace.core.board import Symmetry, keeping
from chessplace.core.pieces import QUEEN, piece_from_text
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.engine import LineSearchEngine
from chessplace.engines.lines.geometry import geometry, half_directions, scalings
from chessplace.engines.lines.runner import geometry_digest
from chessplace.runtime.control import Control
from chessplace.runtime.journal import recorded_header
from tests.conftest import assert_valid
from tests.paths import ROOT

TORUS = Shape.TORUS


@pytest.mark.parametrize("n", [5, 7, 8, 9, 12])
@pytest.mark.parametrize("rider", ["queen", "rook", "nightrider"])
def test_a_scaling_maps_lines_onto_lines(n: int, rider: str) -> None:
    """Every map permutes the squares and the rider's lines; the scaling by 2 alone
    (the first map) keeps each family."""
    board = Board.square(n, TORUS)
    families = [
        {frozenset(line) for line in lines_along(board, direction)}
        for direction in half_directions(piece_from_text(rider))
    ]
    every = set().union(*families)
    maps = scalings(board)
    assert maps, "every torus from 5 on has a unit u with 1 < u < n/2"

    def image(g: Symmetry, line: frozenset[int]) -> frozenset[int]:
        return frozenset(board.index(g(board.at(s))) for s in line)

    for g in maps:
        assert {board.index(g(board.at(s))) for s in range(board.size)} == set(range(board.size))
        assert {image(g, line) for line in every} == every
    for family in families:
        assert {image(maps[0], line) for line in family} == family


def test_only_a_square_torus_has_scalings() -> None:
    assert scalings(Board.square(9)) == ()
    assert scalings(Board(9, 7, TORUS)) == ()
    assert scalings(Board.square(6, TORUS)) == ()  # 1 and 5 are the only units
    assert len(scalings(Board.square(19, TORUS))) == 8 * 19 * 19 * 8  # u = 2 .. 9


def _best(n: int, white: int | None, blocked: frozenset, scaled: bool) -> tuple[int, int]:
    board = Board.square(n, TORUS)
    g = geometry(board, QUEEN, True, white is None, 2, blocked, scaled)
    shared = np.array([0, 1] if white is None else [0, 1, white], dtype=np.int64)
    _, best, nodes, *_ = call(g, np.full(g.lines, -1, np.int8), -1, np.zeros((1, 1), np.int8),
                              True, shared)  # fmt: skip
    return best, nodes


@pytest.mark.parametrize("n", range(5, 12))
@pytest.mark.parametrize("white", [None, "best"])
def test_the_scalings_keep_every_optimum_and_search_less(n: int, white: str | None) -> None:
    """Equal armies, and black beside the best white: the optimum of the whole
    search from the root is the same with the scalings, in no more nodes."""
    armies = _best(n, None, frozenset(), False)[0]
    fixed = None if white is None else armies
    plain, plain_nodes = _best(n, fixed, frozenset(), False)
    scaled, scaled_nodes = _best(n, fixed, frozenset(), True)
    assert scaled == plain
    assert scaled_nodes <= plain_nodes


@pytest.mark.parametrize("n", [7, 9])
def test_blocked_squares_keep_the_scalings_that_fix_them(n: int) -> None:
    """A blocked set fixed by the scaling by 2 (the orbit of a square) and one
    fixed by none: the same optimum with and without the scalings."""
    centre = (0, 0)
    orbit = {((2**k) % n, (3 * 2**k) % n) for k in range(n)} | {centre}
    assert keeping(scalings(Board.square(n, TORUS)), [frozenset(orbit)])
    for blocked in (frozenset(orbit), frozenset({(1, 2)})):
        assert _best(n, None, blocked, True)[0] == _best(n, None, blocked, False)[0]


def test_optimize_on_the_torus_uses_the_scalings() -> None:
    problem = puzzles.peaceable_queens(Board.square(11, TORUS))
    result = LineSearchEngine().optimize(problem, Control())
    assert result.status is Status.OPTIMAL and result.objective == 10
    assert_valid(result)


def test_a_checkpoint_written_before_the_scalings_is_read_with_the_board_symmetries(
    tmp_path: Path,
) -> None:
    """The committed 15×15 torus proof was written with the board's symmetries
    only: it is read back (every chunk done, nothing searched), not refused."""
    path = tmp_path / "n15-engine.jsonl"
    shutil.copy(ROOT / "results" / "a279405" / "n15-engine.jsonl", path)
    board = Board.square(15, TORUS)
    header = recorded_header(path)
    assert header is not None
    assert header["geometry"] == geometry_digest(geometry(board, QUEEN))
    assert header["geometry"] != geometry_digest(geometry(board, QUEEN, scaled=True))
    before = path.read_bytes()
    result = LineSearchEngine(checkpoint=path, workers=1).optimize(
        puzzles.peaceable_queens(board), Control()
    )
    assert result.status is Status.OPTIMAL and result.objective == 20
    assert path.read_bytes() == before
