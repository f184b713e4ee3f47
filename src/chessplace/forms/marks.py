"""The letter that names a piece, shared by the text and SVG boards and the text parser."""

from __future__ import annotations

from chessplace.core.pieces import Piece


def piece_letter(piece: Piece) -> str:
    """One capital letter: ``Q`` for the queen, ``S`` for the nightrider, the first
    letter of the Betza notation for other pieces."""
    return piece.symbol.upper()
