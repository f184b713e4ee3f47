"""Attack tables for the solvers, built once per board and piece.

Squares are numbered as :meth:`Board.index` numbers them. Pieces as blockers
are ignored: with chessplace's rules a placement is valid exactly when no two
conflicting pieces share a ride line or a bounded move (see
:class:`chessplace.core.problem.Problem`), so solvers may encode lines directly.
Pawns (``pawns``: a set of square indices) are not ignored: they cut ride lines
into segments, and a limited ride or a leap whose path crosses one joins nothing.
"""

from __future__ import annotations

from functools import cache
from itertools import groupby

from chessplace.core.betza import Vector
from chessplace.core.board import Board, Square
from chessplace.core.pieces import Piece

Line = tuple[int, ...]


def half_directions(piece: Piece) -> list[Vector]:
    """One of each pair ``d``, ``-d`` of the piece's unlimited rides, sorted."""
    return sorted({d if d > (0, 0) else (-d[0], -d[1]) for d in piece.ride_directions})


def lines_along(board: Board, direction: Vector) -> list[Line]:
    """Every maximal line of steps ``direction`` on the board, one-square lines too: those
    that end at an edge, from the square whose step back is off the board (rank by
    rank), then those that go round the board (where its shape joins the edges), each
    from its lowest square."""
    dx, dy = direction
    seen = bytearray(board.size)
    lines: list[Line] = []
    starts = [square for square in board.squares() if board.step(square, -dx, -dy) is None]
    for first in starts + list(board.squares()):
        line = []
        current: Square | None = first
        while current is not None and not seen[index := board.index(current)]:
            seen[index] = 1
            line.append(index)
            current = board.step(current, dx, dy)
        if line:
            lines.append(tuple(line))
    return lines


def goes_round(board: Board, line: Line, direction: Vector) -> bool:
    """True when ``line`` (one of :func:`lines_along`'s) is a cycle: its last square's
    next step is its first square, not off the board."""
    return board.step(board.at(line[-1]), *direction) is not None


@cache
def parts_along(board: Board, direction: Vector, pawns: frozenset[int]) -> tuple[Line, ...]:
    """The lines along ``direction`` cut into segments by ``pawns`` (:func:`segments`);
    kept per board, as :func:`ride_lines` (blocked n-queens asks them of every instance)."""
    return tuple(
        segment
        for line in lines_along(board, direction)
        for segment in segments(line, pawns, goes_round(board, line, direction))
    )


@cache
def ride_lines(board: Board, piece: Piece, pawns: frozenset[int] = frozenset()) -> tuple[Line, ...]:
    """Maximal lines of two or more squares along the piece's unlimited rides, cut into
    segments by ``pawns``."""
    return tuple(
        segment
        for direction in half_directions(piece)
        for segment in parts_along(board, direction, pawns)
        if len(segment) > 1
    )


def segments(line: Line, pawns: frozenset[int], cycle: bool = False) -> list[Line]:
    """The parts of ``line`` between pawns (a pawn's square in none of them); a
    ``cycle`` (a line that goes round the board) with a pawn is opened at its first pawn."""
    cuts = [i for i, s in enumerate(line) if s in pawns]
    if not cuts:
        return [line]
    if cycle:
        line = line[cuts[0] :] + line[: cuts[0]]
    return [tuple(part) for free, part in groupby(line, lambda s: s not in pawns) if free]


@cache
def bounded_pairs(
    board: Board, piece: Piece, pawns: frozenset[int] = frozenset()
) -> tuple[tuple[int, int], ...]:
    """Unordered pairs ``(s, t)``, ``s < t``, joined by a leap or limited ride whose path
    crosses no pawn."""
    return tuple(
        sorted(
            {
                (s, t)
                for s, t, between in bounded_paths(board, piece, pawns)
                if not set(between) & pawns
            }
        )
    )


@cache
def bounded_paths(
    board: Board, piece: Piece, pawns: frozenset[int] = frozenset()
) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """``(s, t, between)``, ``s < t``: a leap or limited ride joins ``s`` and ``t`` over
    the squares ``between`` (none for a leap); neither end is a pawn. A pair joined
    by several moves comes once per path."""
    paths = set()
    for square in board.squares():
        s = board.index(square)
        if s in pawns:
            continue
        for move in piece.moves:
            if move.reach is None:
                continue
            for dx, dy in move.directions:
                path: list[int] = []
                current: tuple[int, int] | None = square
                for _ in range(move.reach):
                    current = board.step(current, dx, dy) if current is not None else None
                    if current is None or current == square:
                        break
                    t = board.index(current)
                    if t not in pawns:
                        paths.add((min(s, t), max(s, t), tuple(sorted(path))))
                    path.append(t)
    return tuple(sorted(paths))


@cache
def coverers(
    board: Board, piece: Piece, pawns: frozenset[int] = frozenset()
) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares from which the piece occupies or attacks it
    (``pawns`` stopping rides)."""
    reach: list[set[int]] = [{s} for s in range(board.size)]
    for line in ride_lines(board, piece, pawns):
        for s in line:
            reach[s].update(line)
    for s, t in bounded_pairs(board, piece, pawns):
        reach[s].add(t)
        reach[t].add(s)
    return tuple(tuple(sorted(squares)) for squares in reach)
