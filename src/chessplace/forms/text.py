"""Boards as text: Unicode pieces on a checkered board, or plain ASCII; and back."""

from __future__ import annotations

from chessplace.core.board import Board, Square, file_name, square_name
from chessplace.core.pieces import Piece, piece_letter
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.regions import LABELS, Regions

LIGHT, DARK, EMPTY_ASCII = "·", "░", "."
BLOCKED, BLOCKED_ASCII = "▦", "#"
PAWN, PAWN_ASCII = "♙", "P"
EMPTY_MARKS = frozenset(".·░□■-_" + BLOCKED + BLOCKED_ASCII)
PAWN_MARKS = frozenset(PAWN + PAWN_ASCII + "♟")
DIGITS, SUBSCRIPTS = "0123456789", "₀₁₂₃₄₅₆₇₈₉"
MAX_DRAWN = 64


def _symbol(problem: Problem, army: int, ascii_only: bool) -> str:
    """White (first army) in outline or upper case, other armies filled or lower case;
    with more than two armies each mark also carries its army's number (``♛₃``, ``q3``)."""
    piece = problem.armies[army].piece
    several = len(problem.armies) > 1
    if ascii_only or piece.glyphs is None:
        letter = piece_letter(piece)
        mark = letter if army == 0 else letter.lower()
    else:
        mark = piece.glyph(white=several and army == 0)
    if len(problem.armies) > 2:
        mark += "".join((DIGITS if ascii_only else SUBSCRIPTS)[int(d)] for d in str(army + 1))
    return mark


def render_text(placement: Placement, ascii_only: bool = False) -> str:
    """The placement drawn rank 1 at the bottom, with rank and file labels (past file z,
    files aa, ab, … show their first letter on a line above the last); on a grid of
    regions every empty square shows its region's letter; pawns are ♙ (P), blocked
    squares ▦ (#)."""
    board = placement.problem.board
    if max(board.rows, board.cols) > MAX_DRAWN:
        return f"({board} board: too large to draw; use --json for the squares)"
    owner: dict[Square, int] = {
        square: a for a, squares in enumerate(placement.armies) for square in squares
    }
    armies = len(placement.problem.armies)
    symbols = [_symbol(placement.problem, army, ascii_only) for army in range(armies)]
    cell = max(map(len, symbols))
    width = len(str(board.rows))
    regions = placement.problem.regions
    pawns = placement.pawns | placement.problem.pawns
    blocked = placement.problem.blocked
    lines = []
    for rank in reversed(range(board.rows)):
        cells = []
        for file in range(board.cols):
            if (file, rank) in owner:
                cells.append(symbols[owner[(file, rank)]])
            elif (file, rank) in pawns:
                cells.append(PAWN_ASCII if ascii_only else PAWN)
            elif (file, rank) in blocked:
                cells.append(BLOCKED_ASCII if ascii_only else BLOCKED)
            elif regions is not None:
                cells.append(regions.label((file, rank)))
            elif ascii_only:
                cells.append(EMPTY_ASCII)
            else:
                cells.append(DARK if (file + rank) % 2 == 0 else LIGHT)
        lines.append(f"{rank + 1:>{width}} " + " ".join(c.ljust(cell) for c in cells).rstrip())
    names = [file_name(f) for f in range(board.cols)]
    if board.cols > 26:  # files aa, ab, …: their first letters on a line of their own
        firsts = " ".join(name[:-1].ljust(cell) for name in names)
        lines.append(" " * (width + 1) + firsts.rstrip())
    files = " ".join(name[-1].ljust(cell) for name in names)
    lines.append(" " * (width + 1) + files.rstrip())
    return "\n".join(lines)


def parse_text(problem: Problem, text: str) -> Placement:
    """Read a text board (as :func:`render_text` writes it) for ``problem``.

    Rank labels and a line of file labels are optional; the top line is the
    highest rank; region labels (letters or digits) count as empty squares; a mark
    may carry its army's number (``q3`` or ``♛₃``), which boards of more than two
    armies need; ♙, ♟ or P is a pawn, ▦ or # a blocked (empty) square.
    Raises ``ValueError`` with the reason when unreadable.
    """
    board = problem.board
    summary = f"{problem.puzzle} on "  # the line a command prints under its board
    lines = [line for line in _lines(text, board) if not line.startswith(summary)]
    regions = problem.regions is not None
    rows = [row for row in (_cells(line, board.cols, regions) for line in lines) if row]
    if len(rows) != board.rows:
        raise ValueError(f"text board has {len(rows)} ranks, the puzzle's board has {board.rows}")
    armies: list[list[Square]] = [[] for _ in problem.armies]
    pawns: list[Square] = []
    for line_number, (row, labels) in enumerate(rows):
        rank = board.rows - line_number
        wrong = [label for label in labels if label != str(rank)]
        if wrong:
            raise ValueError(
                f"text line {line_number + 1} is labelled rank {wrong[0][:12]}, "
                f"but it is rank {rank} of {board.rows}"
            )
        marks = [(char, None) for char in row] if regions else _marks(row, rank)
        if len(marks) != board.cols:
            raise ValueError(f"rank {rank} has {len(marks)} squares, expected {board.cols}")
        for file, (mark, number) in enumerate(marks):
            if problem.regions is not None and mark in LABELS:
                _check_label(problem.regions, mark, (file, rank - 1))
            elif mark in PAWN_MARKS and number is None:
                if (file, rank - 1) not in problem.pawns:  # a given pawn is the problem's
                    pawns.append((file, rank - 1))
            elif mark not in EMPTY_MARKS:
                armies[_army_of(problem, mark, number)].append((file, rank - 1))
    return Placement.from_squares(problem, armies, pawns)


def _lines(text: str, board: Board) -> list[str]:
    """The lines of a text board, split once; a text far longer or wider than ``board``
    can be drawn (blank lines, labels, a summary and army numbers allowed for) is
    refused first: millions of lines would take gigabytes to hold."""
    most_lines = 2 * board.rows + 8
    if text.count("\n") > most_lines:
        raise ValueError(f"text board has more than {most_lines} lines for {board.rows} ranks")
    widest = 12 * board.cols + 256
    parts = text.split("\n")
    if any(len(part) > widest for part in parts):
        raise ValueError(f"a line of the text board is longer than {widest} characters")
    return [line for part in parts for line in part.splitlines()]  # "\r" and the like too


def _check_label(regions: Regions, mark: str, square: Square) -> None:
    """A letter or digit on a grid's board is an empty square drawn with its region's
    label; any other one (a Q written for a crown, say) is refused, not read as empty."""
    if mark != regions.label(square):
        raise ValueError(
            f"{square_name(square)} shows {mark!r}, not its region's label "
            f"{regions.label(square)!r}: draw a piece as @ (or its symbol), an empty square "
            "as . or its region's label"
        )


def _cells(line: str, cols: int, regions: bool) -> tuple[str, list[str]] | None:
    """The squares of one text rank and its rank labels, or ``None`` for a blank or
    file-label line. On a grid of regions the squares are ``cols`` tokens (a region
    label may be a digit), so only tokens beyond them can be rank labels."""
    tokens = line.split()
    if not tokens:
        return None
    if all(token.isalpha() and token.islower() and len(token) <= 2 for token in tokens) and (
        tokens[0] == "a"
    ):
        return None
    start, end = 0, len(tokens)  # the squares are tokens[start:end], labels around them
    while start < end and tokens[start].isdigit() and (not regions or end - start > cols):
        start += 1
    while start < end and tokens[end - 1].isdigit() and (not regions or end - start > cols):
        end -= 1
    labels = tokens[:start] + tokens[end:][::-1]
    return "".join(tokens[start:end]).strip("|"), labels


def _marks(row: str, rank: int) -> list[tuple[str, int | None]]:
    """(mark, army number or ``None``) for each square of a rank."""
    marks: list[tuple[str, int | None]] = []
    for char in row:
        number = DIGITS.find(char) if char in DIGITS else SUBSCRIPTS.find(char)
        if number < 0:
            marks.append((char, None))
        elif marks and marks[-1][0] not in EMPTY_MARKS:
            marks[-1] = (marks[-1][0], 10 * (marks[-1][1] or 0) + number)
        else:
            raise ValueError(f"rank {rank}: army number {char!r} does not follow a piece")
    return marks


def _army_of(problem: Problem, mark: str, number: int | None) -> int:
    armies = problem.armies
    if number is not None:
        if not 1 <= number <= len(armies):
            raise ValueError(
                f"{mark}{number}: there is no army {number}; the puzzle has {len(armies)}"
            )
        piece = armies[number - 1].piece
        if mark not in _piece_marks(piece):
            raise ValueError(f"{mark}{number}: army {number} places {piece.name}s, not {mark!r}")
        return number - 1
    if len(armies) > 2:
        raise ValueError(
            f"mark {mark!r} needs its army's number after it (1 to {len(armies)}), as in "
            f"{_symbol(problem, 1, True)}"
        )
    for army_index, army in enumerate(armies):
        if mark in _piece_marks(army.piece, army_index if len(armies) == 2 else None):
            return army_index
    names = " or ".join(army.piece.name for army in armies)
    raise ValueError(f"unexpected mark {mark!r} on the text board; this puzzle places {names}")


def _piece_marks(piece: Piece, side: int | None = None) -> set[str]:
    """The marks that may stand for ``piece``: white's (``side`` 0: upper case or
    outline), black's (1: lower case or filled), or any (``None``)."""
    letter = piece_letter(piece)
    white = {letter, *(piece.glyphs or ())[:1]}
    black = {letter.lower(), *(piece.glyphs or ())[1:]}
    return white | black if side is None else (white, black)[side]
