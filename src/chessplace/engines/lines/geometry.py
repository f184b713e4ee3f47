"""The lines of a rider's board as arrays for the compiled search.

Every line along each of the piece's ride directions is kept, one-square
lines included, so that each square lies on exactly one line of every
*family* (one family per direction): a family's counts then add up to the
whole board. A one-square line constrains nothing and the search labels it
like any other.

The search labels lines in ``order``: ranks and files interleaved first,
from the edges inward (r0, f0, r(n-1), f(n-1), r1, f1, …) when the piece
rides both, then every other line, longest first. Its first ``symmetric``
positions (the ranks and files) are the ones the symmetry check compares.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from chessplace.attacks import Line, lines_along
from chessplace.attacks import half_directions as ride_halves
from chessplace.board import Board
from chessplace.pieces import Piece

Direction = tuple[int, int]


@dataclass(frozen=True)
class Geometry:
    """Lines grouped by family, the search order and the symmetries on it.

    ``members[start[l] : start[l] + length[l]]`` are the squares of line ``l``;
    ``through[s, f]`` is the line of family ``f`` through square ``s``; family
    ``f`` owns lines ``family_start[f] .. family_start[f + 1] - 1``. ``order[p]``
    is the line labelled at depth ``p``; for each symmetry ``g`` (colour swap
    ``swap[g]``), position ``p < symmetric`` of the image labelling carries the
    label of position ``source[g, p]``, complemented when ``swap[g]``.
    ``product`` is true when families 0 and 1 are the ranks and the files.
    """

    board: Board
    start: np.ndarray
    length: np.ndarray
    members: np.ndarray
    through: np.ndarray
    family_start: np.ndarray
    order: np.ndarray
    symmetric: int
    source: np.ndarray
    swap: np.ndarray
    product: bool

    @property
    def lines(self) -> int:
        return len(self.length)

    def squares(self, line: int) -> np.ndarray:
        first = int(self.start[line])
        return self.members[first : first + int(self.length[line])]


def half_directions(piece: Piece) -> list[Direction]:
    """One direction of each ride line, ranks (1, 0) and files (0, 1) first."""
    return sorted(ride_halves(piece), key=lambda d: (d not in ((1, 0), (0, 1)), d != (1, 0), d))


@cache
def geometry(board: Board, piece: Piece, symmetry: bool = True, swap: bool = True) -> Geometry:
    """The arrays for ``piece`` riding on ``board`` (``symmetry`` off: no symmetries, so
    every rank/file labelling is searched; ``swap`` off: the board's symmetries only,
    not with the colours swapped, for armies of different sizes)."""
    directions = half_directions(piece)
    lines: list[Line] = []
    family_start = [0]
    for direction in directions:
        lines += lines_along(board, direction)
        family_start.append(len(lines))
    through = np.zeros((board.size, len(directions)), dtype=np.int32)
    for f in range(len(directions)):
        for index in range(family_start[f], family_start[f + 1]):
            for square in lines[index]:
                through[square, f] = index
    product = directions[:2] == [(1, 0), (0, 1)]
    order, symmetric = _order(lines, family_start, product)
    source, swaps = _symmetries(board, lines, order, symmetric, symmetry, swap)
    lengths = np.array([len(line) for line in lines], dtype=np.int32)
    return Geometry(
        board=board,
        start=np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int32),
        length=lengths,
        members=np.array([s for line in lines for s in line], dtype=np.int32),
        through=through,
        family_start=np.array(family_start, dtype=np.int32),
        order=np.array(order, dtype=np.int32),
        symmetric=symmetric,
        source=source,
        swap=swaps,
        product=product,
    )


def _order(lines: list[Line], family_start: list[int], product: bool) -> tuple[list[int], int]:
    """The labelling order and how many of its first positions are ranks and files."""
    head: list[int] = []
    if product:
        ranks = _inward(list(range(family_start[0], family_start[1])))
        files = _inward(list(range(family_start[1], family_start[2])))
        for i in range(max(len(ranks), len(files))):
            head += ranks[i : i + 1] + files[i : i + 1]
    labelled = set(head)
    rest = [index for index in range(len(lines)) if index not in labelled]
    families = np.searchsorted(family_start, rest, side="right") - 1
    position = {index: index - family_start[f] for index, f in zip(rest, families, strict=True)}
    rest.sort(key=lambda index: (-len(lines[index]), position[index], index))
    return head + rest, len(head)


def _inward(lines: list[int]) -> list[int]:
    """Edge lines first, in opposite pairs: 0, n-1, 1, n-2, … (a reflection swaps the
    two of a pair, so the symmetry check compares them early)."""
    pairs = zip(lines, reversed(lines), strict=True)
    return [line for a, b in list(pairs)[: (len(lines) + 1) // 2] for line in dict.fromkeys((a, b))]


def _symmetries(
    board: Board,
    lines: list[Line],
    order: list[int],
    symmetric: int,
    symmetry: bool,
    colour_swap: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """``source`` and ``swap`` for every symmetry but the identity (see :class:`Geometry`).

    Each board symmetry (translations too, on a torus) maps ranks and files onto
    ranks and files, so the image of the first ``symmetric`` positions is known
    from them alone: each is found by its squares.
    """
    if not symmetry or symmetric == 0:
        return np.zeros((0, symmetric), dtype=np.int32), np.zeros(0, dtype=np.int32)
    position_of = {frozenset(lines[order[p]]): p for p in range(symmetric)}
    heads = [[board.at(s) for s in lines[order[p]]] for p in range(symmetric)]
    sources: list[list[int]] = []
    swaps: list[int] = []
    for k, g in enumerate(board.symmetries()):
        source = [0] * symmetric
        for p, squares in enumerate(heads):
            image = frozenset(board.index(g(square)) for square in squares)
            if image not in position_of:
                raise AssertionError("a board symmetry must map ranks and files to ranks and files")
            source[position_of[image]] = p
        for swap in (0, 1) if colour_swap else (0,):
            if k > 0 or swap:
                sources.append(source)
                swaps.append(swap)
    return np.array(sources, dtype=np.int32), np.array(swaps, dtype=np.int32)
