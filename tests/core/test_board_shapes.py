"""Board shapes against a brute force of this file's own.

The brute force knows nothing of ``core.attacks``, ``Board.step`` or the engines: it
reads only each shape's :attr:`Shape.wraps` (which coordinates wrap round, the one
place a shape is defined) and walks the moves itself. Every test runs for every
shape, so a new shape is checked the moment it is added; the cylinder (first and
last files joined, ranks not) is the shape these tests were written for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import product
from math import comb

import pytest

from chessplace import (
    Board,
    Shape,
    count,
    optimize,
    piece_from_text,
    puzzles,
    solutions,
    solve,
)
from chessplace.core.attacks import lines_along
from chessplace.core.features import REFUSALS, Feature, shape_features
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.data.reference import known
from chessplace.engines.registry import ENGINES
from tests.conftest import assert_valid

Cell = tuple[int, int]
Map = Callable[[Cell], Cell]

CYLINDER = Shape.CYLINDER

ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_LEAPS = [(a * sa, b * sb) for a, b in ((1, 2), (2, 1)) for sa in (1, -1) for sb in (1, -1)]
MOVES: dict[str, tuple[list[Cell], list[Cell]]] = {
    # name: (ride directions, leaps)
    "queen": (ORTHOGONAL + DIAGONAL, []),
    "rook": (ORTHOGONAL, []),
    "bishop": (DIAGONAL, []),
    "knight": ([], KNIGHT_LEAPS),
    "king": ([], ORTHOGONAL + DIAGONAL),
}


def moved(cell: Cell, d: Cell, rows: int, cols: int, wraps: tuple[bool, bool]) -> Cell | None:
    """``cell`` moved by ``d``: a coordinate that wraps is taken modulo its side, one
    that does not falls off."""
    x, y = cell[0] + d[0], cell[1] + d[1]
    if wraps[0]:
        x %= cols
    if wraps[1]:
        y %= rows
    return (x, y) if 0 <= x < cols and 0 <= y < rows else None


def reached(piece: str, cell: Cell, rows: int, cols: int, shape: Shape) -> set[Cell]:
    """Every square ``piece`` on ``cell`` attacks on the empty board."""
    rides, leaps = MOVES[piece]
    found = {c for d in leaps if (c := moved(cell, d, rows, cols, shape.wraps)) is not None}
    for d in rides:
        current = moved(cell, d, rows, cols, shape.wraps)
        while current is not None and current != cell:
            found.add(current)
            current = moved(current, d, rows, cols, shape.wraps)
    found.discard(cell)
    return found


def independent_sets(piece: str, rows: int, cols: int, shape: Shape) -> list[frozenset[Cell]]:
    """Every set of squares holding pieces none of which attacks another. For one army
    the empty board decides it: of pieces on one line, two neighbours attack."""
    cells = [(x, y) for y in range(rows) for x in range(cols)]
    sees = {c: reached(piece, c, rows, cols, shape) for c in cells}
    found: list[frozenset[Cell]] = []

    def extend(chosen: list[Cell], start: int) -> None:
        found.append(frozenset(chosen))
        for i in range(start, len(cells)):
            cell = cells[i]
            if all(cell not in sees[c] and c not in sees[cell] for c in chosen):
                extend([*chosen, cell], i + 1)

    extend([], 0)
    return found


def own_group(rows: int, cols: int, shape: Shape) -> list[Map]:
    """The board's symmetries found afresh: of the maps x → ±x + a, y → ±y + b (and
    their transposes on a square board), taken modulo the sides, those that map the
    board onto itself and keep which squares touch (a king's moves)."""
    cells = [(x, y) for y in range(rows) for x in range(cols)]
    touching = {c: reached("king", c, rows, cols, shape) for c in cells}
    found: dict[tuple[Cell, ...], Map] = {}
    for swap, sx, sy, a, b in product(
        (False, True) if rows == cols else (False,), (1, -1), (1, -1), range(cols), range(rows)
    ):

        def g(
            c: Cell, swap: bool = swap, sx: int = sx, sy: int = sy, a: int = a, b: int = b
        ) -> Cell:
            x, y = (c[1], c[0]) if swap else c
            return (sx * x + a) % cols, (sy * y + b) % rows

        images = tuple(map(g, cells))
        if len(set(images)) == len(cells) and all(
            {g(t) for t in touching[c]} == touching[g(c)] for c in cells
        ):
            found[images] = g
    return list(found.values())


def orbits(sets: list[frozenset[Cell]], group: list[Map]) -> int:
    """How many classes ``sets`` fall into under ``group``."""
    seen: set[frozenset[Cell]] = set()
    classes = 0
    for s in sets:
        if s not in seen:
            classes += 1
            seen.update(frozenset(map(g, s)) for g in group)
    return classes


def images(board: Board) -> set[tuple[Cell, ...]]:
    cells = list(board.squares())
    return {tuple(map(g, cells)) for g in board.symmetries()}


# --- the shape itself ---------------------------------------------------------------


@pytest.mark.parametrize("shape", list(Shape))
def test_every_shape_but_the_plane_is_a_feature_engines_refuse_by_name(shape: Shape) -> None:
    features = shape_features(shape)
    if shape is Shape.PLANE:
        assert features == frozenset() and shape.wraps == (False, False)
        return
    assert features == {Feature(shape.value)} and shape.joined
    refused = puzzles.queens(Board.square(8, shape))
    reason = ENGINES["bitboard"].refusal(refused, next(iter(ENGINES["bitboard"].tasks)))
    assert reason == f"bitboard does not {REFUSALS[Feature(shape.value)]}"
    assert reason == f"bitboard does not know {shape} boards"


def test_a_cylinder_joins_its_files_and_not_its_ranks() -> None:
    board = Board(4, 6, CYLINDER)
    assert str(board) == "4×6 cylinder" and board.shape.wraps == (True, False)
    assert board.step((5, 0), 1, 0) == (0, 0) and board.step((0, 0), -1, 1) == (5, 1)
    assert board.step((0, 3), 0, 1) is None and board.step((2, 0), 1, -1) is None
    ranks = lines_along(board, (1, 0))
    assert len(ranks) == 4 and all(len(line) == 6 for line in ranks)  # round the board
    files = lines_along(board, (0, 1))
    assert len(files) == 6 and all(len(line) == 4 for line in files)  # edge to edge
    helices = lines_along(board, (1, 1))  # one from each square of the first rank
    assert len(helices) == 6 and all(len(line) == 4 for line in helices)
    assert sorted(s for line in helices for s in line) == list(range(24))
    assert Board.square(5, "cylinder") == Board.square(5, CYLINDER)
    with pytest.raises(ValueError, match="plane, torus, cylinder, not 'cone'"):
        Board(3, 3, "cone")  # type: ignore[arg-type]


def test_a_limited_ride_is_unlimited_where_it_reaches_as_far_as_the_cylinder_lets_it() -> None:
    """On 3×5: a rank goes round in 5 steps (4 reach every other square), a diagonal
    falls off after 2."""
    board = Board(3, 5, CYLINDER)
    assert piece_from_text("W4").on(board).ride_directions
    assert not piece_from_text("W3").on(board).ride_directions
    assert piece_from_text("F2").on(board).ride_directions == piece_from_text("B").ride_directions
    assert not piece_from_text("F1").on(board).ride_directions


def test_the_checker_walks_round_the_joined_files_only() -> None:
    """Kings on a1 and h1 touch on a cylinder (and a torus), a1 and a8 only on a torus."""
    side_by_side, top_and_bottom = ([(0, 0), (7, 0)],), ([(0, 0), (0, 7)],)
    for shape, touching in (
        (Shape.PLANE, (False, False)),
        (CYLINDER, (True, False)),
        (Shape.TORUS, (True, True)),
    ):
        problem = puzzles.independent(Board.square(8, shape), piece_from_text("K"))
        for squares, touch in zip((side_by_side, top_and_bottom), touching, strict=True):
            assert bool(Placement.from_squares(problem, squares).verify()) is touch, shape


# --- symmetries ---------------------------------------------------------------------


@pytest.mark.parametrize("shape", list(Shape))
@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (4, 4), (5, 5), (3, 5), (5, 4)])
def test_the_board_s_symmetries_are_the_maps_that_keep_its_geometry(
    shape: Shape, rows: int, cols: int
) -> None:
    board = Board(rows, cols, shape)
    cells = list(board.squares())
    found = images(board)
    assert len(found) == len(board.symmetries())  # no map twice
    assert found == {tuple(map(g, cells)) for g in own_group(rows, cols, shape)}


def test_a_cylinder_has_mirrors_and_turns_round_its_files_and_no_transposes() -> None:
    board = Board.square(6, CYLINDER)
    assert len(board.symmetries()) == 4 * 6
    transpose = tuple((y, x) for x, y in board.squares())
    assert transpose not in images(board)
    assert len(Board(4, 6, CYLINDER).symmetries()) == 4 * 6


# --- counts against the brute force -------------------------------------------------

BOARDS = [(3, 4), (4, 3), (4, 4), (3, 5)]


@pytest.mark.parametrize("shape", list(Shape))
@pytest.mark.parametrize("piece", list(MOVES))
@pytest.mark.parametrize(("rows", "cols"), BOARDS)
def test_the_most_pieces_and_their_classes_match_the_brute_force(
    shape: Shape, piece: str, rows: int, cols: int
) -> None:
    sets = independent_sets(piece, rows, cols, shape)
    best = max(map(len, sets))
    optimal = [s for s in sets if len(s) == best]
    classes = orbits(optimal, own_group(rows, cols, shape))
    problem = puzzles.independent(Board(rows, cols, shape), piece_from_text(piece))
    for solver in (None, "exhaustive"):
        found = count(problem, optimal=True, unique=True, solver=solver)
        assert (found.objective, found.count, found.unique) == (best, len(optimal), classes)
    listed = set()
    for placement in solutions(problem.with_counts(exactly=best)):
        assert placement.verify() == ()
        listed.add(frozenset(placement.armies[0]))
    assert listed == set(optimal)


@pytest.mark.parametrize("piece", ["queen", "rook", "bishop"])
@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 4)])
def test_peaceable_armies_on_a_cylinder_match_the_brute_force(
    piece: str, rows: int, cols: int
) -> None:
    """The most m white and m black, no white attacking a black, and how many: each
    white set of m, times the ways to put m black on the squares it leaves free."""
    cells = [(x, y) for y in range(rows) for x in range(cols)]
    sees = [  # as bits of ``cells``: the squares a white piece on each one takes from black
        sum(1 << j for j, c in enumerate(cells) if c in reached(piece, w, rows, cols, CYLINDER))
        | 1 << i
        for i, w in enumerate(cells)
    ]
    seen = [0] * (1 << len(cells))  # by white set (bits of ``cells``), the squares it sees
    free_of: dict[int, list[int]] = {}  # by size of the white set, its free squares
    for mask in range(1 << len(cells)):
        if mask:  # the set less its lowest square, seen before, and that square's
            seen[mask] = seen[mask & (mask - 1)] | sees[(mask & -mask).bit_length() - 1]
        free_of.setdefault(mask.bit_count(), []).append(len(cells) - seen[mask].bit_count())
    best = max(m for m, frees in free_of.items() if max(frees) >= m)
    ways = sum(comb(free, best) for free in free_of[best])
    problem = puzzles.peaceable(Board(rows, cols, CYLINDER), piece_from_text(piece))
    for solver in (None, "exhaustive"):
        found = count(problem, optimal=True, solver=solver)
        assert (found.objective, found.count) == (best, ways), solver
    assert_valid(optimize(problem))


# --- n-queens on the n×n cylinder ---------------------------------------------------


def cylinder_queens(n: int) -> int:
    """n queens on the n×n cylinder, one per rank, by this file's moves."""

    def place(rank: int, taken: list[Cell]) -> Iterator[None]:
        if rank == n:
            yield None
            return
        for file in range(n):
            if all((file, rank) not in reached("queen", c, n, n, CYLINDER) for c in taken):
                yield from place(rank + 1, [*taken, (file, rank)])

    return sum(1 for _ in place(0, []))


@pytest.mark.parametrize("n", range(1, 9))
def test_n_queens_on_the_cylinder(n: int) -> None:
    """On an n×n cylinder each diagonal climbs once round the board, the torus's
    diagonal through the same squares: the counts are the torus's (A051906)."""
    result = count(puzzles.queens(Board.square(n, CYLINDER)))
    assert result.count == cylinder_queens(n) == known("toroidal-queens", n)
    if result.count:
        assert_valid(solve(puzzles.queens(Board.square(n, CYLINDER))))


@pytest.mark.parametrize("n", [9, 10, 11])
def test_n_queens_on_larger_cylinders(n: int) -> None:
    result = count(puzzles.queens(Board.square(n, CYLINDER)))
    assert result.count == known("toroidal-queens", n)


@pytest.mark.parametrize("n", range(4, 9))
def test_peaceable_queens_on_the_square_cylinder_are_the_torus_s(n: int) -> None:
    """The same lines as the torus's, so A279405; the line engine proves it."""
    result = optimize(puzzles.peaceable_queens(Board.square(n, CYLINDER)))
    assert result.solver == "lines" and result.objective == known("A279405", n)
    assert assert_valid(result).army_sizes == (result.objective, result.objective)


# --- engines that do not know the shape ---------------------------------------------


def test_the_registry_passes_over_engines_that_do_not_know_the_cylinder() -> None:
    problem: Problem = puzzles.queens(Board.square(8, CYLINDER))
    result = count(problem)
    assert result.count == 0 and result.solver not in ("bitboard", "lines")
    assert "bitboard: bitboard does not know cylinder boards" in result.passed_over
    rooks = optimize(puzzles.independent(Board(3, 5, CYLINDER), piece_from_text("R")))
    assert rooks.objective == 3 and rooks.solver != "construction"
    assert "construction: construction does not know cylinder boards" in rooks.passed_over
