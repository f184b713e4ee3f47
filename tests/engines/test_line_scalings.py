"""The torus's scalings: more symmetries for the line search, the same optima."""

from __future__ import annotations

import itertools
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
from chessplace.engines.lines.kernel import _still_tied
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
def test_the_scalings_keep_every_optimum(n: int, white: str | None) -> None:
    """Equal armies, and black beside the best white: the optimum of the whole
    search from the root is the same with the scalings."""
    armies = _best(n, None, frozenset(), False)[0]
    fixed = None if white is None else armies
    assert _best(n, fixed, frozenset(), True)[0] == _best(n, fixed, frozenset(), False)[0]


@pytest.mark.parametrize(("n", "swap"), [(7, True), (9, False), (8, True)])
def test_the_symmetries_the_search_breaks_form_a_group(n: int, swap: bool) -> None:
    """The lex-leader cut is sound only for a group: every product of two of the
    maps on rank/file labels (identity included) is one of them."""
    g = geometry(Board.square(n, TORUS), QUEEN, True, swap, scaled=True)
    sources = np.vstack([np.arange(g.symmetric)[None, :], g.source])
    swaps = np.concatenate([[0], g.swap])
    maps = np.concatenate([sources, swaps[:, None]], axis=1)
    known = {row.tobytes() for row in maps}
    assert len(known) == len(maps)
    for j in range(len(maps)):
        products = np.concatenate([sources[:, sources[j]], (swaps ^ swaps[j])[:, None]], axis=1)
        assert all(row.tobytes() in known for row in products)


def _smaller_image(depth: int, labels: np.ndarray, source: np.ndarray, swap: np.ndarray) -> bool:
    """Some symmetry maps the labelled prefix below itself (lex order), read from scratch."""
    for g in range(source.shape[0]):
        for p in range(source.shape[1]):
            q = source[g, p]
            if p >= depth or q >= depth:
                break
            image = labels[q] ^ swap[g]
            if image != labels[p]:
                if image < labels[p]:
                    return True
                break
    return False


@pytest.mark.parametrize(
    ("board", "scaled", "bases"),
    [(Board.square(5), False, (0, 1, 3)), (Board.square(5, TORUS), True, (0, 1, 3))],
)
def test_the_incremental_symmetry_check_decides_as_a_check_from_scratch(
    board: Board, scaled: bool, bases: tuple[int, ...]
) -> None:
    """Every rank/file prefix below each chunk root of ``base`` labels: the symmetries
    still tied one level up decide as every symmetry compared from position 0."""
    g = geometry(board, QUEEN, scaled=scaled)
    source, swap, size, symmetric = g.source, g.swap, g.source.shape[0], g.symmetric
    for base in bases:
        for root in itertools.product((0, 1), repeat=base):
            labels = np.full(symmetric, -1, dtype=np.int32)
            labels[:base] = root
            tied = np.zeros((symmetric + 1, size), dtype=np.int32)
            resume = np.zeros((symmetric + 1, size), dtype=np.int32)
            count = np.zeros(symmetric + 1, dtype=np.int64)
            tied[0] = np.arange(size)
            count[base] = _still_tied(
                base, labels, source, swap, tied[0], resume[0], size, tied[base], resume[base],
                False,
            ) if base else size  # fmt: skip
            stack = [(base, 0), (base, 1)]
            while stack:
                depth, colour = stack.pop()
                labels[depth:] = -1
                labels[depth] = colour
                count[depth + 1] = _still_tied(
                    depth + 1, labels, source, swap, tied[depth], resume[depth], count[depth],
                    tied[depth + 1], resume[depth + 1], True,
                )  # fmt: skip
                assert (count[depth + 1] < 0) == _smaller_image(depth + 1, labels, source, swap)
                if count[depth + 1] >= 0 and depth + 1 < symmetric:
                    stack += [(depth + 1, 0), (depth + 1, 1)]


@pytest.mark.parametrize("n", [7, 9])
def test_blocked_squares_keep_the_scalings_that_fix_them(n: int) -> None:
    """A blocked set fixed by the scaling by 2 (the orbit of a square) and one
    fixed by none: the same optimum with and without the scalings."""
    centre = (0, 0)
    orbit = {((2**k) % n, (3 * 2**k) % n) for k in range(n)} | {centre}
    assert keeping(scalings(Board.square(n, TORUS)), [frozenset(orbit)])
    for blocked in (frozenset(orbit), frozenset({(1, 2)})):
        assert _best(n, None, blocked, True)[0] == _best(n, None, blocked, False)[0]


def test_optimize_on_the_torus_uses_the_scalings(tmp_path: Path) -> None:
    """Its geometry breaks them, with no checkpoint and with a new one."""
    board = Board.square(11, TORUS)
    problem = puzzles.peaceable_queens(board)
    scaled = geometry_digest(geometry(board, QUEEN, scaled=True))
    for engine in (LineSearchEngine(), LineSearchEngine(checkpoint=tmp_path / "new.jsonl")):
        assert geometry_digest(engine._search(problem, None)[0]) == scaled
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
