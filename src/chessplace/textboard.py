"""Boards as text: Unicode pieces on a checkered board, or plain ASCII; and back."""

from __future__ import annotations

from chessplace.board import Square, file_name
from chessplace.placement import Placement
from chessplace.problem import Problem

LIGHT, DARK, EMPTY_ASCII = "·", "░", "."
EMPTY_MARKS = frozenset(".·░□■-_")
MAX_DRAWN = 64


def _symbol(placement: Placement, army: int, ascii_only: bool) -> str:
    """White (first army) in outline or upper case; other armies filled or lower case."""
    piece = placement.problem.armies[army].piece
    several = len(placement.problem.armies) > 1
    if ascii_only or piece.glyphs is None:
        return piece.symbol.upper() if army == 0 else piece.symbol.lower()
    return piece.glyph(white=several and army == 0)


def render_text(placement: Placement, ascii_only: bool = False) -> str:
    """The placement drawn rank 1 at the bottom, with rank and file labels."""
    board = placement.problem.board
    if max(board.rows, board.cols) > MAX_DRAWN:
        return f"({board} board: too large to draw; use --json for the squares)"
    owner: dict[Square, int] = {
        square: a for a, squares in enumerate(placement.armies) for square in squares
    }
    width = len(str(board.rows))
    lines = []
    for rank in reversed(range(board.rows)):
        cells = []
        for file in range(board.cols):
            if (file, rank) in owner:
                cells.append(_symbol(placement, owner[(file, rank)], ascii_only))
            elif ascii_only:
                cells.append(EMPTY_ASCII)
            else:
                cells.append(DARK if (file + rank) % 2 == 0 else LIGHT)
        lines.append(f"{rank + 1:>{width}} " + " ".join(cells))
    files = " ".join(file_name(f)[-1] for f in range(board.cols))
    lines.append(" " * (width + 1) + files)
    return "\n".join(lines)


def parse_text(problem: Problem, text: str) -> Placement:
    """Read a text board (as :func:`render_text` writes it) for ``problem``.

    Rank labels and a line of file labels are optional; the top line is the
    highest rank. Raises ``ValueError`` with the reason when unreadable.
    """
    rows = [row for row in map(_cells, text.splitlines()) if row is not None]
    board = problem.board
    if len(rows) != board.rows:
        raise ValueError(f"text board has {len(rows)} ranks, the puzzle's board has {board.rows}")
    armies: list[list[Square]] = [[] for _ in problem.armies]
    for line_number, row in enumerate(rows):
        if len(row) != board.cols:
            raise ValueError(
                f"rank {board.rows - line_number} has {len(row)} squares, expected {board.cols}"
            )
        for file, mark in enumerate(row):
            if mark not in EMPTY_MARKS:
                armies[_army_of(problem, mark)].append((file, board.rows - 1 - line_number))
    return Placement.from_squares(problem, armies)


def _cells(line: str) -> str | None:
    """The squares of one text rank, or ``None`` for a blank or file-label line."""
    tokens = line.split()
    if not tokens:
        return None
    if all(token.isalpha() and token.islower() and len(token) <= 2 for token in tokens) and (
        tokens[0] == "a"
    ):
        return None
    while tokens and tokens[0].isdigit():
        tokens = tokens[1:]
    while tokens and tokens[-1].isdigit():
        tokens = tokens[:-1]
    return "".join(tokens).strip("|")


def _army_of(problem: Problem, mark: str) -> int:
    several = len(problem.armies) > 1
    if len(problem.armies) > 2:
        raise ValueError("text boards hold at most two armies; use JSON")
    for army_index, army in enumerate(problem.armies):
        piece = army.piece
        white = army_index == 0
        marks = {piece.glyph(white=white and several)}
        marks.add(piece.symbol.upper() if white else piece.symbol.lower())
        if not several:
            marks |= {piece.glyph(white=True), piece.glyph(white=False), piece.symbol.lower()}
        if mark in marks:
            return army_index
    names = " or ".join(army.piece.name for army in problem.armies)
    raise ValueError(f"unexpected mark {mark!r} on the text board; this puzzle places {names}")
