"""The position a puzzle starts from, read from the user's words: blocked squares,
pawns and given pieces, as the CLI (``--blocked a1,c3``, ``--given Qd1,qe8``,
``--pawns b2``), the HTTP API and problem files state them; and the squares a
dominating answer must cover (``--dominate a1,c3``).

A given piece is written ``Qd1``: its army's piece letter (as text boards draw it)
and a square, upper case for the first (white) army, lower case for the second;
``red:d4`` (an army's name and a square) names any army. Problem files may give
objects ``{"piece": "queen", "square": "d1", "army": "white"}`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chessplace.core.board import MAX_SQUARE_NAME, Square, parse_square, square_name
from chessplace.core.pieces import piece_from_text, piece_letter
from chessplace.core.problem import Problem, whole_number
from chessplace.runtime.clipping import clipped

Listing = str | Sequence[Any] | None
"""Squares or pieces as text (``"a1,c3"``) or as a list; ``None``: none given."""


def with_position(
    problem: Problem,
    blocked: Listing = None,
    given: Listing = None,
    pawns: Listing = None,
    free_pawns: int | None = None,
) -> Problem:
    """``problem`` with the blocked squares, given pieces and pawns named; raises
    ``ValueError`` with one line for the user on anything wrong."""
    if blocked is None and given is None and pawns is None and not free_pawns:
        return problem
    cap = problem.board.size
    squares = _squares(blocked, "blocked", cap)
    pawn_squares = _squares(pawns, "pawns", cap)
    armies: list[set[Square]] = [set() for _ in problem.armies]
    seen: dict[Square, str] = {}
    for entry in _entries(given, "given", cap):
        army, square = _given(problem, entry)
        if square in seen:
            raise ValueError(
                f"given: {square_name(square)} holds two given pieces "
                f"({seen[square]} and {clipped(str(entry), 40)})"
            )
        seen[square] = clipped(str(entry), 40)
        armies[army].add(square)
    free = 0 if free_pawns is None else whole_number(free_pawns, "the pawns to place")
    return replace(
        problem,
        blocked=frozenset(squares),
        pawns=frozenset(pawn_squares),
        given=tuple(frozenset(s) for s in armies),
        free_pawns=free,
    )


def with_dominated(problem: Problem, listing: Listing, key: str = "dominate") -> Problem:
    """``problem`` asking that the squares named be occupied or attacked, and no others
    (``dominating`` with :attr:`Problem.dominated`); ``ValueError`` in one line."""
    squares = _squares(listing, key, problem.board.size)
    return replace(problem, dominating=True, dominated=frozenset(squares))


def _entries(listing: Listing, key: str, cap: int) -> list[Any]:
    """The items of a listing, refused past ``cap`` (the board's squares) before any is
    read: a million entries for a small board are bad input, not work."""
    if listing is None:
        return []
    if isinstance(listing, str):
        if len(listing) > cap * (MAX_SQUARE_NAME + 40):
            raise ValueError(f"{key}: more entries than the board has squares ({cap})")
        items: list[Any] = [part.strip() for part in listing.split(",") if part.strip()]
    elif isinstance(listing, (list, tuple)):
        items = list(listing)
    else:
        raise ValueError(f"{key}: expected a list or comma-separated text, not {_shown(listing)}")
    if len(items) > cap:
        raise ValueError(f"{key}: {len(items):,} entries, more than the board's {cap} squares")
    return items


def _squares(listing: Listing, key: str, cap: int) -> list[Square]:
    squares: list[Square] = []
    seen: set[Square] = set()
    for item in _entries(listing, key, cap):
        if not isinstance(item, str):
            raise ValueError(f"{key}: a square is a name such as a1, not {_shown(item)}")
        square = _square(item, key)
        if square in seen:
            raise ValueError(f"{key}: {square_name(square)} is listed twice")
        seen.add(square)
        squares.append(square)
    return squares


def _square(text: str, key: str) -> Square:
    try:
        return parse_square(text)
    except ValueError as error:
        raise ValueError(f"{key}: {error}") from None


def _given(problem: Problem, entry: Any) -> tuple[int, Square]:
    """(army number, square) of one given piece: ``Qd1``, ``red:d4`` or an object."""
    if isinstance(entry, dict):
        return _given_object(problem, entry)
    if not isinstance(entry, str) or not entry:
        raise ValueError(f"given: a piece is written Qd1 (letter and square), not {_shown(entry)}")
    if ":" in entry:
        army_name, _, square = entry.partition(":")
        return _army_named(problem, army_name.strip()), _square(square.strip(), "given")
    letter, square = entry[0], entry[1:]
    if not letter.isalpha():
        raise ValueError(f"given: {clipped(entry, 24)!r} should start with a piece letter, as Qd1")
    side = 0 if letter.isupper() else 1
    if side >= len(problem.armies):
        raise ValueError(
            f"given: lower case {letter!r} names the second army, and {problem.puzzle} has one; "
            f"write {letter.upper()}{square}"
        )
    army = problem.armies[side]
    if letter.upper() != piece_letter(army.piece):
        raise ValueError(
            f"given: {clipped(entry, 24)!r}: the {army.name} army places {army.piece.name}s, "
            f"written {piece_letter(army.piece) if side == 0 else piece_letter(army.piece).lower()}"
        )
    return side, _square(square, "given")


def _given_object(problem: Problem, entry: dict[str, Any]) -> tuple[int, Square]:
    unknown = set(entry) - {"piece", "square", "army"}
    if unknown:
        raise ValueError(f"given: unknown key {sorted(unknown)[0]!r} (piece, square, army)")
    square = entry.get("square")
    if not isinstance(square, str):
        raise ValueError(f"given: each piece needs a 'square' name, not {_shown(square)}")
    army_name = entry.get("army")
    if army_name is None:
        army = 0
    elif isinstance(army_name, str):
        army = _army_named(problem, army_name)
    else:
        raise ValueError(f"given: 'army' is a name such as white, not {_shown(army_name)}")
    piece = entry.get("piece")
    if piece is not None:
        if not isinstance(piece, str):
            raise ValueError(f"given: 'piece' is a name or Betza text, not {_shown(piece)}")
        wanted = problem.armies[army].piece
        if piece_from_text(piece).on(problem.board) != wanted:
            raise ValueError(
                f"given: the {problem.armies[army].name} army places {wanted.name}s, "
                f"not {clipped(piece, 24)}"
            )
    return army, _square(square, "given")


def _army_named(problem: Problem, name: str) -> int:
    names = [army.name for army in problem.armies]
    if name not in names:
        raise ValueError(
            f"given: no army {clipped(name, 24)!r}; this puzzle has {', '.join(names)}"
        )
    return names.index(name)


def _shown(value: object) -> str:
    return clipped(repr(value), 40)
