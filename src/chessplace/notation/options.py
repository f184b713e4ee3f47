"""The problem a set of options describes: the command line's options and the HTTP API's
request fields (and a problem file's short form) name a puzzle, a board and a position
in the same words, read here once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from chessplace.core.board import Board, Shape, board_shape
from chessplace.core.pieces import piece_from_text
from chessplace.core.problem import Problem
from chessplace.notation.position import Listing, with_dominated, with_position
from chessplace.notation.puzzles import (
    PUZZLES,
    REGION_PUZZLES,
    build_puzzle,
    queens_and_pawns,
    region_puzzle,
    unknown_puzzle,
)
from chessplace.notation.ruletext import RuleListing, with_rules
from chessplace.runtime.clipping import clipped


def problem_from_options(
    puzzle: str,
    n: int | None = None,
    rows: int | None = None,
    cols: int | None = None,
    piece: str | None = None,
    at_least: int | None = None,
    exactly: int | None = None,
    at_most: int | None = None,
    armies: int | None = None,
    white: int | None = None,
    grid: str | Sequence[str] | None = None,
    stars: int | None = None,
    torus: bool | None = None,
    shape: str | None = None,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing | int = None,
    dominate: Listing = None,
    counts: RuleListing = None,
    no_attack: RuleListing = None,
    regions: RuleListing = None,
) -> Problem:
    """The problem that the CLI's (and the HTTP API's) options describe: the board's
    ``shape`` (plane, torus or cylinder; ``torus`` true is short for a torus), ``blocked``,
    ``given`` and ``pawns`` as :func:`chessplace.notation.position.with_position` reads them,
    but for ``queens-and-pawns``, whose ``pawns`` is how many pawns to place; with
    ``dominate``, every answer occupies or attacks those squares (one army); ``counts``,
    ``no_attack`` and ``regions``, the user's rules as
    :func:`chessplace.notation.ruletext.with_rules` reads them.

    Raises ``ValueError`` with a message fit for a user on bad options; an unknown
    puzzle is named before anything it would need is missed.
    """
    if puzzle not in PUZZLES and puzzle not in REGION_PUZZLES:
        raise ValueError(unknown_puzzle(puzzle))
    form = board_shape(shape, torus)
    if puzzle in REGION_PUZZLES:
        sized = (rows, cols, None if form is Shape.PLANE else form)
        others = (*sized, piece, at_least, exactly, at_most, armies, white)
        position = (blocked, given, pawns, dominate, counts, no_attack, regions)
        if grid is None:
            raise ValueError(f"{puzzle} needs a grid of regions")
        if any(value is not None for value in (*others, *position)):
            raise ValueError(f"{puzzle} takes its board and counts from the grid alone")
        return region_puzzle(puzzle, grid, stars, n)
    if grid is not None or stars is not None:
        raise ValueError(f"a grid and stars are for {' and '.join(REGION_PUZZLES)}")
    if n is not None and (rows or cols):
        raise ValueError("give either n or rows and cols, not both")
    if n is not None:
        board = Board.square(n, form)
    elif rows and cols:
        board = Board(rows, cols, form)
    else:
        raise ValueError("give the board size: n, or rows and cols")
    if puzzle == "queens-and-pawns":
        if piece is not None or armies is not None or white is not None:
            raise ValueError("queens-and-pawns has its own piece and one army")
        problem = queens_and_pawns(board, _pawn_count(pawns))
        pawns = None
    else:
        if isinstance(pawns, int) or (isinstance(pawns, str) and pawns.strip().isdigit()):
            raise ValueError("pawns are squares (b2,c5); a number of pawns is for queens-and-pawns")
        problem = build_puzzle(
            puzzle, board, piece_from_text(piece) if piece else None, armies=armies, white=white
        )
    sizes = (at_least, exactly, at_most)
    if sum(value is not None for value in sizes) > 1:
        raise ValueError("give at most one of at least, exactly and at most")
    if any(value is not None for value in sizes):
        problem = problem.with_counts(at_least=at_least, exactly=exactly, at_most=at_most)
    problem = with_position(problem, blocked, given, pawns, problem.free_pawns)
    if dominate is not None:
        problem = with_dominated(problem, dominate)
    return with_rules(problem, counts, no_attack, regions)


def _pawn_count(pawns: Listing | int) -> int:
    """The number of pawns queens-and-pawns places: a whole number, or its digits."""
    if isinstance(pawns, str) and pawns.strip().isdigit() and len(pawns) < 8:
        return int(pawns)
    if isinstance(pawns, int) and not isinstance(pawns, bool):
        return pawns
    if pawns is None:
        raise ValueError("queens-and-pawns needs the number of pawns to place: --pawns K")
    raise ValueError(
        f"queens-and-pawns places a number of pawns (--pawns K), not {clipped(repr(pawns), 30)}"
    )


PROBLEM_OPTIONS = (
    "n",
    "rows",
    "cols",
    "piece",
    "at_least",
    "exactly",
    "at_most",
    "armies",
    "white",
    "grid",
    "stars",
    "torus",
    "shape",
    "blocked",
    "given",
    "pawns",
    "dominate",
)
"""The options besides the puzzle's name that :func:`problem_from_options` takes,
but for the user's rules (:data:`RULE_OPTIONS`)."""

RULE_OPTIONS = ("counts", "no_attack", "regions")
"""The user's rules :func:`problem_from_options` takes: count rules, attack pairs and
board regions (:mod:`chessplace.notation.ruletext`)."""


class OptionSource(Protocol):
    """Anything with a ``puzzle`` attribute and some of ``PROBLEM_OPTIONS``."""

    puzzle: str


def problem_from_attributes(source: OptionSource) -> Problem:
    """:func:`problem_from_options` on ``source.puzzle`` and the attributes named
    in ``PROBLEM_OPTIONS`` and ``RULE_OPTIONS`` (missing ones count as not given):
    parsed CLI arguments and HTTP request bodies alike."""
    return problem_from_options(
        source.puzzle,
        **{name: getattr(source, name, None) for name in (*PROBLEM_OPTIONS, *RULE_OPTIONS)},
    )
