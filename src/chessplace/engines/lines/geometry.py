"""The lines of a rider's board as arrays for the compiled search.

Every line along each of the piece's ride directions is kept, one-square
lines included, so that each square lies on exactly one line of every
*family* (one family per direction): a family's counts then add up to the
whole board. A one-square line constrains nothing and the search labels it
like any other.

The search labels lines in ``order``: ranks and files interleaved first,
from the edges inward (r0, f0, r(n-1), f(n-1), r1, f1, …) when the piece
rides both (for three colours every rank, then every file, each from the edges
inward), then every other line, longest first. Its first ``symmetric``
positions (the ranks and files) are the ones the symmetry check compares.
The two-colour search follows the rest of the order only down to the depth it
was split at; below that it picks its lines itself (:mod:`kernel`).

On a square torus the search may also use the *scalings* (:func:`scalings`):
multiplying both coordinates by a number prime to the side maps every line to a
line of the same family, so attacks to attacks, though it is no symmetry of the
board's picture. They keep the optimum, so solving and optimizing use them (up to
9 times fewer labellings of the ranks and files on 19×19); counts do not, because
their classes are the board's.

Blocked squares (no piece stands there, rides pass over them) leave the lines
as they are and only drop out of their members: every count the search keeps
is of squares a piece may stand on, and only the symmetries that map the
blocked squares onto themselves are used.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from chessplace.core.attacks import Line, lines_along
from chessplace.core.attacks import half_directions as ride_halves
from chessplace.core.board import Board, Shape, Square, Symmetry, keeping
from chessplace.core.pieces import Piece

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
    ``free[s]`` is false on a blocked square, which no line's members hold; the
    family bounds run over families ``bounded_from`` on (2 when the product
    table, which sees whole ranks and files, already bounds those two: no square
    blocked).
    With ``colours`` labels (armies) a symmetry also permutes the colours:
    ``recolour[g, c]`` is the image of colour ``c`` (for two colours, ``swap[g]``
    says the same).
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
    colours: int
    recolour: np.ndarray
    free: np.ndarray
    bounded_from: int

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
def geometry(
    board: Board,
    piece: Piece,
    symmetry: bool = True,
    swap: bool = True,
    colours: int = 2,
    blocked: frozenset[Square] = frozenset(),
    scaled: bool = False,
) -> Geometry:
    """The arrays for ``piece`` riding on ``board`` (``symmetry`` off: no symmetries, so
    every rank/file labelling is searched; ``swap`` off: the board's symmetries only,
    not with the colours permuted, for armies of different sizes; ``colours``: the
    number of armies; ``blocked``: squares no piece may stand on; ``scaled``: two
    colours on a square torus also break the :func:`scalings`)."""
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
    order, symmetric = _order(lines, family_start, product, interleave=colours == 2)
    group = board.symmetries() + (scalings(board) if scaled and colours == 2 else ())
    symmetries = keeping(group, [blocked]) if symmetry else ()
    source, recolour = _symmetries(board, lines, order, symmetric, symmetries, swap, colours)
    free = np.ones(board.size, dtype=np.bool_)
    free[[board.index(square) for square in blocked]] = False
    members = [[s for s in line if free[s]] for line in lines]
    lengths = np.array([len(line) for line in members], dtype=np.int32)
    return Geometry(
        board=board,
        start=np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int32),
        length=lengths,
        members=np.array([s for line in members for s in line], dtype=np.int32),
        through=through,
        family_start=np.array(family_start, dtype=np.int32),
        order=np.array(order, dtype=np.int32),
        symmetric=symmetric,
        source=source,
        # the colour swap of two colours; hashed into checkpoints for three colours too
        swap=(recolour[:, 0] != 0).astype(np.int32),
        product=product,
        colours=colours,
        recolour=recolour,
        free=free,
        bounded_from=2 if product and not blocked else 0,
    )


def scalings(board: Board) -> tuple[Symmetry, ...]:
    """On an n×n torus, each of the board's symmetries after each scaling
    (file, rank) -> (u·file, u·rank) mod n by a u prime to n with 1 < u < n/2
    (u and n - u differ by the half turn); none on another board. Each maps the
    squares onto themselves and every rider's line onto a line of its family."""
    n = board.rows
    if board.shape is not Shape.TORUS or board.cols != n:
        return ()
    units = [u for u in range(2, (n + 1) // 2) if math.gcd(u, n) == 1]
    return tuple(_after_scaling(g, u, n) for u in units for g in board.symmetries())


def _after_scaling(g: Symmetry, u: int, n: int) -> Symmetry:
    return lambda s: g(((u * s[0]) % n, (u * s[1]) % n))


def _order(
    lines: list[Line], family_start: list[int], product: bool, interleave: bool
) -> tuple[list[int], int]:
    """The labelling order and how many of its first positions are ranks and files
    (interleaved, or every rank first)."""
    head: list[int] = []
    if product:
        ranks = _inward(list(range(family_start[0], family_start[1])))
        files = _inward(list(range(family_start[1], family_start[2])))
        if interleave:
            for i in range(max(len(ranks), len(files))):
                head += ranks[i : i + 1] + files[i : i + 1]
        else:
            head = ranks + files
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
    symmetries: Sequence[Symmetry],
    permute_colours: bool,
    colours: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``source`` and ``recolour`` for every symmetry but the identity (see
    :class:`Geometry`): each of the board ``symmetries`` (identity first; none: no
    symmetry breaking) with each permutation of the colours.

    Each board symmetry (translations too, on a torus) maps ranks and files onto
    ranks and files, so the image of the first ``symmetric`` positions is known
    from them alone: each is found by its squares, a line of two squares or more
    by its first two (the one rank or file through both images).
    """
    if not symmetries or symmetric == 0:
        return np.zeros((0, symmetric), dtype=np.int32), np.zeros((0, colours), dtype=np.int32)
    position_of = {frozenset(lines[order[p]]): p for p in range(symmetric)}
    heads = [[board.at(s) for s in lines[order[p]]] for p in range(symmetric)]
    on: dict[int, set[int]] = {}  # the positions of the ranks and files through a square
    for p in range(symmetric):
        for square in lines[order[p]]:
            on.setdefault(square, set()).add(p)

    def image_of(g: Symmetry, squares: list[Square]) -> int:
        if len(squares) >= 2:
            both = on.get(board.index(g(squares[0])), set()) & on.get(
                board.index(g(squares[1])), set()
            )
            if len(both) == 1:
                return next(iter(both))
        image = frozenset(board.index(g(square)) for square in squares)
        if image not in position_of:
            raise AssertionError("a board symmetry must map ranks and files to ranks and files")
        return position_of[image]

    identity = tuple(range(colours))
    permutations = list(itertools.permutations(identity)) if permute_colours else [identity]
    sources: list[list[int]] = []
    images: list[tuple[int, ...]] = []
    for k, g in enumerate(symmetries):
        source = [0] * symmetric
        for p, squares in enumerate(heads):
            source[image_of(g, squares)] = p
        for permutation in permutations:
            if k > 0 or permutation != identity:
                sources.append(source)
                images.append(permutation)
    return (
        np.array(sources, dtype=np.int32).reshape(-1, symmetric),
        np.array(images, dtype=np.int32).reshape(-1, colours),
    )
