"""What the page asks once: the puzzles, pieces and engines the CLI knows, and how boards look.

Everything comes from the library's own tables (``PUZZLES``, ``NAMED_PIECES``,
the engine registry, :mod:`chessplace.forms.svg`'s colours), so a puzzle or an
engine added there appears on the page without touching it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from chessplace import api
from chessplace.core.pieces import NAMED_PIECES, Piece, piece_letter
from chessplace.core.problem import ARMY_NAMES
from chessplace.core.regions import LABELS, MAX_SIDE
from chessplace.forms import svg as svgboard
from chessplace.notation.puzzles import PUZZLES, REGION_PUZZLES

REGION_SUMMARIES = {
    "queens-game": "one queen in every row, column and region of the grid, none touching",
    "star-battle": "K stars in every row, column and region of the grid, none touching",
}


def catalog() -> dict[str, Any]:
    """``GET /api/catalog``: puzzles with their options, pieces, engines, army names, colours
    (region colours as the SVG export paints region 0, 1, …, in order of first appearance
    reading from the top row)."""
    return {
        "puzzles": [
            {"name": name, **_described(spec), "places_pawns": name == "queens-and-pawns"}
            for name, spec in PUZZLES.items()
        ]
        + [_region_puzzle(name) for name in REGION_PUZZLES],
        "pieces": [_piece(piece) for piece in NAMED_PIECES.values()],
        "solvers": [
            {"name": e.name, "summary": e.summary, "installed": e.installed, "tasks": e.tasks}
            for e in api.engines()
        ],
        "armies": list(ARMY_NAMES),
        "drawing": {
            "square": svgboard.SQUARE,
            "margin": svgboard.MARGIN,
            "light": svgboard.LIGHT,
            "dark": svgboard.DARK,
            "attacked": svgboard.ATTACKED,
            "conflict": svgboard.CONFLICT,
            "ink": svgboard.INK,
            "blocked": svgboard.BLOCKED,
            "given": svgboard.GIVEN,
            "pawn": svgboard.PAWN,
            "font": svgboard.FONT,
            "fills": list(svgboard.ARMY_FILLS),
            "largest": svgboard.MAX_DRAWN,
            "regions": [svgboard.region_colour(number) for number in range(MAX_SIDE)],
        },
        "region_labels": LABELS,
    }


def _described(spec: Any) -> dict[str, Any]:
    """A puzzle's plain fields (what it takes, its summary): not its builder."""
    return {
        item.name: getattr(spec, item.name)
        for item in fields(spec)
        if isinstance(getattr(spec, item.name), str | bool | int)
    }


def _region_puzzle(name: str) -> dict[str, Any]:
    """A puzzle on a grid of regions: it takes a grid (and star-battle a star count)
    instead of a board size, a piece and counts."""
    return {
        "name": name,
        "summary": REGION_SUMMARIES.get(name, name),
        "takes_piece": False,
        "takes_armies": False,
        "takes_grid": True,
        "takes_stars": name == "star-battle",
    }


def _piece(piece: Piece) -> dict[str, Any]:
    """A named piece as the SVG export draws it: a glyph (the amazon: a queen with a
    knight badge) or, for pieces without one, a token with its letter."""
    glyph = None
    if piece.name == "amazon":
        glyph = "♛"
    elif piece.name in svgboard.GLYPH_PIECES:
        glyph = piece.glyph(white=False)
    return {
        "name": piece.name,
        "betza": piece.betza,
        "letter": piece_letter(piece),
        "glyph": glyph,
        "badge": "♞" if piece.name == "amazon" else None,
    }
