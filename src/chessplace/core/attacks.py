"""Attack tables for the solvers, built once per board and piece.

Squares are numbered as :meth:`Board.index` numbers them. Blockers are
ignored: with chessplace's rules a placement is valid exactly when no two
conflicting pieces share a ride line or a bounded move (see
:class:`chessplace.core.problem.Problem`), so solvers may encode lines directly.
"""

from __future__ import annotations

from functools import cache

from chessplace.core.betza import Vector
from chessplace.core.board import Board
from chessplace.core.pieces import Piece

Line = tuple[int, ...]


def half_directions(piece: Piece) -> list[Vector]:
    """One of each pair ``d``, ``-d`` of the piece's unlimited rides, sorted."""
    return sorted({d if d > (0, 0) else (-d[0], -d[1]) for d in piece.ride_directions})


def lines_along(board: Board, direction: Vector) -> list[Line]:
    """Every maximal line of steps ``direction`` on the board, one-square lines too
    (on a torus, every cycle of steps, from its lowest square)."""
    if board.torus:
        return _cycles_along(board, direction)
    dx, dy = direction
    lines: list[Line] = []
    for x, y in board.squares():
        if board.contains((x - dx, y - dy)):
            continue  # not the first square of its line
        line = []
        while board.contains((x, y)):
            line.append(board.index((x, y)))
            x, y = x + dx, y + dy
        lines.append(tuple(line))
    return lines


def _cycles_along(board: Board, direction: Vector) -> list[Line]:
    seen: set[int] = set()
    lines: list[Line] = []
    for square in board.squares():
        if board.index(square) in seen:
            continue
        line = []
        current: tuple[int, int] | None = square
        while current is not None and board.index(current) not in seen:
            seen.add(board.index(current))
            line.append(board.index(current))
            current = board.step(current, *direction)
        lines.append(tuple(line))
    return lines


@cache
def ride_lines(board: Board, piece: Piece) -> tuple[Line, ...]:
    """Maximal lines of two or more squares along the piece's unlimited rides."""
    return tuple(
        line
        for direction in half_directions(piece)
        for line in lines_along(board, direction)
        if len(line) > 1
    )


@cache
def bounded_pairs(board: Board, piece: Piece) -> tuple[tuple[int, int], ...]:
    """Unordered pairs ``(s, t)``, ``s < t``, joined by a leap or limited ride."""
    pairs = set()
    for square in board.squares():
        s = board.index(square)
        for dx, dy in piece.bounded_vectors:
            target = board.step(square, dx, dy)
            if target is not None and target != square:
                t = board.index(target)
                pairs.add((min(s, t), max(s, t)))
    return tuple(sorted(pairs))


@cache
def coverers(board: Board, piece: Piece) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares from which the piece occupies or attacks it."""
    reach: list[set[int]] = [{s} for s in range(board.size)]
    for line in ride_lines(board, piece):
        for s in line:
            reach[s].update(line)
    for s, t in bounded_pairs(board, piece):
        reach[s].add(t)
        reach[t].add(s)
    return tuple(tuple(sorted(squares)) for squares in reach)
