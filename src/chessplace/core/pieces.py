"""Pieces as movement data: named chess and fairy pieces and Betza compounds."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from chessplace.core.betza import Move, Vector, parse_betza, shown
from chessplace.core.board import Board

ROOK_DIRECTIONS = Move((1, 0), None).directions
BISHOP_DIRECTIONS = Move((1, 1), None).directions


@dataclass(frozen=True)
class Piece:
    """A piece that moves alike in every direction.

    ``moves`` holds leaps (reach 1), limited rides and unlimited rides.
    Two pieces with the same moves are equal whatever their names.
    """

    name: str
    symbol: str
    moves: frozenset[Move]
    glyphs: tuple[str, str] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Piece) and self.moves == other.moves

    def __hash__(self) -> int:
        return hash(self.moves)

    @property
    def betza(self) -> str:
        """Canonical Betza notation of the moves."""
        return "".join(move.notation() for move in sorted(self.moves))

    @property
    def ride_directions(self) -> frozenset[Vector]:
        """Directions along which the piece rides without limit."""
        return frozenset(d for move in self.moves if move.reach is None for d in move.directions)

    @property
    def bounded_vectors(self) -> frozenset[Vector]:
        """Every displacement reachable by a leap or a limited ride, blockers ignored."""
        return frozenset(
            (k * dx, k * dy)
            for move in self.moves
            if move.reach is not None
            for dx, dy in move.directions
            for k in range(1, move.reach + 1)
        )

    @property
    def has_rook_moves(self) -> bool:
        """True when the piece rides like a rook (so at most one per rank and file)."""
        return (1, 0) in self.ride_directions

    def on(self, board: Board) -> Piece:
        """The same piece with its limited rides clipped to ``board``: a ride that reaches
        across the board is unlimited (``W999999999`` on 8×8 is the rook)."""
        if board.shape.joined:
            moves = frozenset(move.within_steps(_most_steps(move, board)) for move in self.moves)
        else:
            longest = max(board.rows, board.cols)
            moves = frozenset(move.within(longest) for move in self.moves)
        return self if moves == self.moves else replace(self, moves=moves)

    def glyph(self, white: bool) -> str:
        """Unicode glyph (outline for white), or the letter when none exists."""
        if self.glyphs is None:
            return self.symbol.upper() if white else self.symbol.lower()
        return self.glyphs[0] if white else self.glyphs[1]

    def __str__(self) -> str:
        return self.name


def _named(name: str, symbol: str, betza: str, glyphs: tuple[str, str] | None = None) -> Piece:
    return Piece(name, symbol, parse_betza(betza), glyphs)


QUEEN = _named("queen", "Q", "Q", ("♕", "♛"))
ROOK = _named("rook", "R", "R", ("♖", "♜"))
BISHOP = _named("bishop", "B", "B", ("♗", "♝"))
KNIGHT = _named("knight", "N", "N", ("♘", "♞"))
KING = _named("king", "K", "K", ("♔", "♚"))
AMAZON = _named("amazon", "A", "QN")
NIGHTRIDER = _named("nightrider", "S", "NN")
CROWN = _named("crown", "@", "K", ("♕", "♛"))
"""The Queens game's token: it rules its row, column and region and touches nothing,
so among its neighbours it acts as a king (the ``@`` keeps it apart from region letters)."""
STAR = _named("star", "*", "K", ("☆", "★"))
"""Star Battle's token, a king's neighbourhood like the crown."""

NAMED_PIECES: dict[str, Piece] = {
    piece.name: piece
    for piece in (QUEEN, ROOK, BISHOP, KNIGHT, KING, AMAZON, NIGHTRIDER, CROWN, STAR)
}


def piece_from_text(text: str) -> Piece:
    """A piece from its name (``queen``) or Betza notation (``QN``).

    Betza notation that matches a named piece returns that piece.
    Raises ``ValueError`` naming the choices when the text is neither.
    """
    key = text.strip()
    if key.lower() in NAMED_PIECES:
        return NAMED_PIECES[key.lower()]
    try:
        moves = parse_betza(key)
    except ValueError as error:
        names = ", ".join(NAMED_PIECES)
        if len(key) > 1 and key[1:].islower():  # a word: meant as a name, not as Betza
            raise ValueError(
                f"unknown piece {shown(text)}: the named pieces are {names}; "
                "any other is written in Betza notation (QN is the amazon)"
            ) from None
        raise ValueError(
            f"unknown piece {shown(text)} ({error}); use a name ({names}) or Betza notation"
        ) from None
    for piece in NAMED_PIECES.values():
        if piece.moves == moves:
            return piece
    return Piece(key, key[0], moves)


def _most_steps(move: Move, board: Board) -> int:
    """The most steps a ride of ``move`` takes on ``board`` before it leaves it or comes
    back to its first square. A step (dx, dy) with a nonzero part along a side that does
    not wrap leaves after (side − 1) // |d| steps (the fewest over such sides); one that
    only moves along wrapping sides comes back after
    lcm(cols / gcd(cols, dx), rows / gcd(rows, dy)) steps."""
    wrap_files, wrap_ranks = board.shape.wraps
    most = 0
    for dx, dy in move.directions:
        sides = ((board.cols, dx, wrap_files), (board.rows, dy, wrap_ranks))
        edged = [(side - 1) // abs(d) for side, d, wraps in sides if d and not wraps]
        if edged:
            most = max(most, min(edged))
        else:
            most = max(most, math.lcm(*(side // math.gcd(side, d) for side, d, _ in sides)) - 1)
    return most


def piece_letter(piece: Piece) -> str:
    """One capital letter, shared by the text and SVG boards and the text parser: ``Q``
    for the queen, ``S`` for the nightrider, the first letter of the Betza notation
    for other pieces."""
    return piece.symbol.upper()
