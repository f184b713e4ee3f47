"""Named puzzles: each is a constructor of :class:`Problem`, not a code path."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from chessplace.core.board import Board
from chessplace.core.pieces import AMAZON, BISHOP, CROWN, QUEEN, STAR, Piece
from chessplace.core.problem import ARMY_NAMES, Army, Problem, Sense, whole_number
from chessplace.core.regions import Regions, parse_grid
from chessplace.core.rules import CountRule
from chessplace.notation.position import Listing, with_position
from chessplace.runtime.clipping import clipped


def independent(
    board: Board,
    piece: Piece,
    puzzle: str = "independent",
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """Pieces of one kind, none attacking another; no count set."""
    problem = Problem(puzzle, board, (Army("white", piece),))
    return _placed(problem, blocked, given, pawns, counts)


def queens(
    board: Board,
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """N-Queens: one queen per row (or file, if fewer), none attacking."""
    n = min(board.rows, board.cols)
    problem = Problem("queens", board, (Army("white", QUEEN, n, n),))
    return _placed(problem, blocked, given, pawns, counts)


def queens_and_pawns(
    board: Board,
    pawns: int = 1,
    *,
    blocked: Listing = None,
    given: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """The n+k queens problem: n+k queens and k pawns on an n×n board (n the shorter
    side), none of the queens attacking another; the answer places the pawns too."""
    pawns = whole_number(pawns, "pawns")
    if pawns < 1:
        raise ValueError(f"queens-and-pawns places at least one pawn, not {pawns}")
    n = min(board.rows, board.cols) + pawns
    problem = Problem("queens-and-pawns", board, (Army("white", QUEEN, n, n),), free_pawns=pawns)
    return _placed(problem, blocked, given, None, counts)


def amazons(
    board: Board,
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """N-Amazons: queens that also leap as knights, one per row, none attacking."""
    n = min(board.rows, board.cols)
    problem = Problem("amazons", board, (Army("white", AMAZON, n, n),))
    return _placed(problem, blocked, given, pawns, counts)


def bishops(
    board: Board,
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """N-Bishops: 2n−2 bishops on an n×n board (1 when n = 1), none attacking."""
    if not board.is_square:
        return independent(
            board, BISHOP, "bishops", blocked=blocked, given=given, pawns=pawns, counts=counts
        )
    most = max(1, 2 * board.rows - 2)
    problem = Problem("bishops", board, (Army("white", BISHOP, most, most),))
    return _placed(problem, blocked, given, pawns, counts)


def peaceable(
    board: Board,
    piece: Piece,
    armies: int = 2,
    white: int | None = None,
    puzzle: str = "peaceable",
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """Equal armies of one piece kind where no piece attacks one of another army.

    With ``white`` (two armies only), the white army has exactly that many
    pieces and the black one is as large as it can be.
    """
    armies = whole_number(armies, "armies")
    if not 2 <= armies <= len(ARMY_NAMES):
        raise ValueError(f"armies must be between 2 and {len(ARMY_NAMES)}, not {armies}")
    if white is None:
        equal = Problem(
            puzzle,
            board,
            tuple(Army(name, piece) for name in ARMY_NAMES[:armies]),
            independent=False,
            equal_armies=True,
        )
        return _placed(equal, blocked, given, pawns, counts)
    white = whole_number(white, "white")
    if armies != 2:
        raise ValueError("a fixed white army stands beside one other army: 2 armies, no more")
    if not 0 <= white <= board.size:
        raise ValueError(f"white must be between 0 and {board.size}, not {white}")
    fixed = Army(ARMY_NAMES[0], piece, white, white, fixed=True)
    others = tuple(Army(name, piece) for name in ARMY_NAMES[1:armies])
    problem = Problem(puzzle, board, (fixed, *others), independent=False)
    return _placed(problem, blocked, given, pawns, counts)


def peaceable_queens(
    board: Board,
    armies: int = 2,
    white: int | None = None,
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """Peaceable armies of queens: m white and m black queens, no cross attacks."""
    return peaceable(
        board,
        QUEEN,
        armies,
        white,
        "peaceable-queens",
        blocked=blocked,
        given=given,
        pawns=pawns,
        counts=counts,
    )


def dominating(
    board: Board,
    piece: Piece,
    puzzle: str = "dominating",
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """The fewest pieces so that every square is occupied or attacked."""
    problem = Problem(
        puzzle,
        board,
        (Army("white", piece),),
        independent=False,
        dominating=True,
        sense=Sense.MINIMIZE,
    )
    return _placed(problem, blocked, given, pawns, counts)


def dominating_queens(
    board: Board,
    *,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    counts: Sequence[CountRule] = (),
) -> Problem:
    """Queen domination: the fewest queens that occupy or attack every square."""
    return dominating(
        board, QUEEN, "dominating-queens", blocked=blocked, given=given, pawns=pawns, counts=counts
    )


def queens_game(regions: Regions) -> Problem:
    """The Queens game: one crown in every rank, file and region, none touching."""
    if regions.per_line != 1:
        raise ValueError("the Queens game has one queen per row; use star-battle for more")
    return _region_puzzle("queens-game", CROWN, regions)


def star_battle(regions: Regions) -> Problem:
    """Star Battle: ``regions.per_line`` stars in every rank, file and region, none touching."""
    return _region_puzzle("star-battle", STAR, regions)


def _placed(
    problem: Problem,
    blocked: Listing,
    given: Listing,
    pawns: Listing,
    counts: Sequence[CountRule],
) -> Problem:
    """``problem`` starting from the position named (its pawns to place kept), with
    the count rules given."""
    if counts:
        problem = replace(problem, counts=tuple(counts))
    if blocked is None and given is None and pawns is None:
        return problem
    return with_position(problem, blocked, given, pawns, problem.free_pawns)


def _region_puzzle(name: str, piece: Piece, regions: Regions) -> Problem:
    """An ordinary problem of the region puzzles' shape: kings that do not touch, the
    grid as the board's areas, ``per_line`` on each rank, file and region."""
    k, n = regions.per_line, regions.size
    rules = tuple(CountRule(family, k, k) for family in ("each rank", "each file", "each region"))
    problem = Problem(
        name,
        Board.square(n),
        (Army("white", piece, n * k, n * k),),
        areas=regions.rows,
        counts=rules,
    )
    problem.__dict__["regions"] = regions  # what Problem.regions would find: checked once
    return problem


REGION_PUZZLES: dict[str, Callable[[Regions], Problem]] = {
    "queens-game": queens_game,
    "star-battle": star_battle,
}
"""Puzzles on a grid of regions, built from the grid instead of a size."""


def region_puzzle(
    name: str, grid: str | Sequence[str], stars: int | None = None, n: int | None = None
) -> Problem:
    """The region puzzle ``name`` on ``grid`` (text or a list of rows, top row first),
    ``stars`` per line for star-battle; ``n``, when given, must be the grid's size."""
    if name == "queens-game" and stars not in (None, 1):
        raise ValueError("stars are for star-battle; the Queens game has one queen per row")
    regions = Regions(parse_grid(grid), stars or 1)
    if n is not None and n != regions.size:
        raise ValueError(f"the grid is {regions.size}×{regions.size}, not {n}×{n}")
    return REGION_PUZZLES[name](regions)


@dataclass(frozen=True)
class PuzzleSpec:
    """How the CLI builds a named puzzle."""

    build: Callable[..., Problem]
    takes_piece: bool
    summary: str
    takes_armies: bool = False


PUZZLES: dict[str, PuzzleSpec] = {
    "queens": PuzzleSpec(queens, False, "n queens, none attacking"),
    "queens-and-pawns": PuzzleSpec(
        queens_and_pawns, False, "n+K queens and K pawns placed, no queen attacking (--pawns K)"
    ),
    "bishops": PuzzleSpec(bishops, False, "2n−2 bishops, none attacking"),
    "amazons": PuzzleSpec(amazons, False, "n amazons (queen + knight), none attacking"),
    "peaceable-queens": PuzzleSpec(
        peaceable_queens,
        False,
        "two equal armies of queens (or K armies, or W white beside black)",
        True,
    ),
    "dominating-queens": PuzzleSpec(dominating_queens, False, "fewest queens covering the board"),
    "independent": PuzzleSpec(independent, True, "pieces of a chosen kind, none attacking"),
    "peaceable": PuzzleSpec(
        peaceable,
        True,
        "equal armies of a chosen piece, no cross attacks (K armies, W white)",
        True,
    ),
    "dominating": PuzzleSpec(dominating, True, "fewest pieces of a chosen kind covering the board"),
}


def build_puzzle(
    name: str,
    board: Board,
    piece: Piece | None = None,
    armies: int | None = None,
    white: int | None = None,
) -> Problem:
    """The named puzzle on ``board``; raises ``ValueError`` naming the choices."""
    spec = PUZZLES.get(name)
    if spec is None:
        raise ValueError(unknown_puzzle(name))
    variant = {
        key: value for key, value in (("armies", armies), ("white", white)) if value is not None
    }
    if variant and not spec.takes_armies:
        raise ValueError(
            "a number of armies or of white pieces is for peaceable and peaceable-queens"
        )
    if spec.takes_piece:
        if piece is None:
            raise ValueError(f"puzzle {name!r} needs a piece")
        return spec.build(board, piece, **variant)
    if piece is not None:
        raise ValueError(
            f"puzzle {name!r} has its own piece; a piece is chosen for independent, "
            "peaceable and dominating"
        )
    return spec.build(board, **variant)


def unknown_puzzle(name: str) -> str:
    choices = ", ".join([*PUZZLES, *REGION_PUZZLES])
    return f"unknown puzzle {clipped(repr(name), 40)}; choose from {choices}"
