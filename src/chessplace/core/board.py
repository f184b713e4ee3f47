"""Board geometry: size, shape, square names and the board's symmetries."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import overload

from chessplace.runtime.clipping import clipped

Square = tuple[int, int]
"""A square as ``(file, rank)``, both 0-based; ``(0, 0)`` is a1, bottom-left."""

Symmetry = Callable[[Square], Square]

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SQUARE_NAME = re.compile(r"^([a-z]+)([1-9][0-9]*)$")

MAX_SQUARE_NAME = 24
"""The longest square name read: files of a board of MAX_SIDE need 7 letters, ranks 10
digits (a longer name cannot be on any board, and decoding one costs quadratic time)."""

MAX_SIDE = 1_000_000_000
"""The longest side a board may have: coordinates and line numbers of larger boards
would overflow the 64-bit integers the checker and the kernels use."""


def file_name(file: int) -> str:
    """Letters for a 0-based file: a..z, then aa, ab, … (bijective base 26)."""
    if file < 26:
        return _LETTERS[file]
    head, rest = divmod(file, 26)
    return file_name(head - 1) + _LETTERS[rest]


EAGER_NAMES = 1 << 21
"""Boards up to this many files get every file name built at once (fast for a
million queens); wider ones name files on demand."""


class _NamesOnDemand(Sequence[str]):
    """File names computed when asked for: a board a billion files wide holds at most
    a million pieces, so building every name would be waste."""

    def __init__(self, count: int) -> None:
        self._count = count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if not -self._count <= index < self._count:
            raise IndexError(f"file {index} is off a board {self._count} files wide")
        return file_name(index % self._count)


def file_names(count: int) -> Sequence[str]:
    """Names of the first ``count`` files: built once per board width, or on demand
    for boards wider than ``EAGER_NAMES``."""
    return _NamesOnDemand(count) if count > EAGER_NAMES else _built_names(count)


@lru_cache(maxsize=4)
def _built_names(count: int) -> tuple[str, ...]:
    names: list[str] = list(_LETTERS[:count])
    for file in range(26, count):
        head, rest = divmod(file, 26)
        names.append(names[head - 1] + _LETTERS[rest])
    return tuple(names)


def file_index(name: str) -> int:
    """Inverse of :func:`file_name`."""
    number = 0
    for letter in name:
        number = number * 26 + (ord(letter) - ord("a") + 1)
    return number - 1


def square_name(square: Square) -> str:
    """Algebraic name of a square, for example ``(0, 0)`` → ``"a1"``; a square with a
    negative coordinate, which has no name, is written as its pair, ``(-1, 0)``."""
    file, rank = square
    if file < 0 or rank < 0:
        return f"({file}, {rank})"
    return f"{file_name(file)}{rank + 1}"


def parse_square(name: str) -> Square:
    """Square from its algebraic name; raises ``ValueError`` when malformed."""
    match = _SQUARE_NAME.match(name.strip().lower()) if len(name) <= MAX_SQUARE_NAME else None
    if not match:
        shown = name if len(name) <= MAX_SQUARE_NAME else name[:MAX_SQUARE_NAME] + "…"
        raise ValueError(f"not a square name: {shown!r}")
    return file_index(match.group(1)), int(match.group(2)) - 1


class Shape(StrEnum):
    """How the board's edges join: which coordinates of a square wrap round.

    Every other part of chessplace asks the shape (:attr:`wraps`, :attr:`joined`)
    rather than naming it: a step, the lines, the reach of a limited ride, the
    checker's walk and the symmetries all follow from :attr:`wraps`.
    """

    PLANE = "plane"
    TORUS = "torus"
    CYLINDER = "cylinder"

    @property
    def wraps(self) -> tuple[bool, bool]:
        """Whether files wrap (a step off the last file comes back on the first), and
        whether ranks do."""
        return _WRAPS[self]

    @property
    def joined(self) -> bool:
        """True when some opposite edges are joined, so a ride may go round."""
        return any(self.wraps)


_WRAPS: dict[Shape, tuple[bool, bool]] = {
    Shape.PLANE: (False, False),
    Shape.TORUS: (True, True),
    Shape.CYLINDER: (True, False),
}
"""Per shape, whether files wrap and whether ranks wrap: a cylinder joins its first and
last files, a torus also its first and last ranks."""


def shape_from_text(text: object) -> Shape:
    """The shape a word names; ``ValueError`` naming the choices for anything else."""
    if isinstance(text, str) and text.strip().lower() in {shape.value for shape in Shape}:
        return Shape(text.strip().lower())
    choices = ", ".join(shape.value for shape in Shape)
    raise ValueError(f"the board's shape is one of {choices}, not {clipped(repr(text), 24)}")


def board_shape(shape: object, torus: object, names: tuple[str, str] = ("shape", "torus")) -> Shape:
    """The board's shape from a ``shape`` word and the ``torus`` shorthand (true for a
    torus; ``None`` for either when not given): ``ValueError`` in one line, naming the
    keys in ``names``, for a word that is no shape or a pair that disagree."""
    key, shorthand = names
    if torus is not None and not isinstance(torus, bool):
        raise ValueError(f"{shorthand}: expected true or false, not {clipped(repr(torus), 24)}")
    if shape is None:
        return Shape.TORUS if torus else Shape.PLANE
    try:
        form = shape_from_text(shape)
    except ValueError as error:
        raise ValueError(f"{key}: {error}") from None
    if torus is not None and torus is not (form is Shape.TORUS):
        raise ValueError(
            f"{key} is {form} but {shorthand} is {str(torus).lower()}: give one of them"
        )
    return form


@dataclass(frozen=True)
class Board:
    """A rectangular board of ``rows`` ranks and ``cols`` files, of a :class:`Shape`:
    on a torus the edges join (a step off one edge comes back on the opposite one), so
    every ride goes round until it meets a piece or its own square; on a cylinder only
    the first and last files join, so rides along a rank go round and others end at
    the first or last rank."""

    rows: int
    cols: int
    shape: Shape = Shape.PLANE
    _wraps: tuple[bool, bool] = field(init=False, repr=False, compare=False)
    """The shape's :attr:`Shape.wraps`, kept at hand: :meth:`step` runs for every square
    of every leap."""

    def __post_init__(self) -> None:
        for label, value in (("rows", self.rows), ("cols", self.cols)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"board {label} must be a positive integer, not {value!r}")
            if value > MAX_SIDE:
                raise ValueError(f"board {label} stop at {MAX_SIDE:,}, not {value:,}")
        object.__setattr__(self, "shape", shape_from_text(self.shape))
        object.__setattr__(self, "_wraps", self.shape.wraps)

    @classmethod
    def square(cls, n: int, shape: Shape = Shape.PLANE) -> Board:
        """The n×n board (of ``shape``)."""
        return cls(n, n, shape)

    @property
    def is_square(self) -> bool:
        return self.rows == self.cols

    @property
    def size(self) -> int:
        """Number of squares."""
        return self.rows * self.cols

    def contains(self, square: Square) -> bool:
        return 0 <= square[0] < self.cols and 0 <= square[1] < self.rows

    def step(self, square: Square, dx: int, dy: int) -> Square | None:
        """The square ``(dx, dy)`` away, wrapping round where the shape joins the edges;
        ``None`` off the board."""
        x, y = square[0] + dx, square[1] + dy
        wrap_files, wrap_ranks = self._wraps
        if wrap_files:
            x %= self.cols
        if wrap_ranks:
            y %= self.rows
        return (x, y) if 0 <= x < self.cols and 0 <= y < self.rows else None

    def squares(self) -> Iterator[Square]:
        """Every square, rank by rank from a1."""
        for rank in range(self.rows):
            for file in range(self.cols):
                yield file, rank

    def index(self, square: Square) -> int:
        """Position of a square in :meth:`squares` order."""
        return square[1] * self.cols + square[0]

    def at(self, index: int) -> Square:
        """Inverse of :meth:`index`."""
        rank, file = divmod(index, self.cols)
        return file, rank

    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's symmetries, identity first: the mirrors and half turn, the
        quarter turns and transposes of a square board whose files and ranks wrap
        alike (8 or 4 maps), each after every rotation along the coordinates that
        wrap (a torus's translations, a cylinder's turns round its files)."""
        wrap_files, wrap_ranks = self.shape.wraps
        dihedral = self._dihedral(turns=self.is_square and wrap_files == wrap_ranks)
        if not self.shape.joined:
            return dihedral
        shifts = [
            (dx, dy)
            for dy in (range(self.rows) if wrap_ranks else (0,))
            for dx in (range(self.cols) if wrap_files else (0,))
        ]
        return tuple(_shifted(g, dx, dy, self) for g in dihedral for dx, dy in shifts)

    def _dihedral(self, turns: bool) -> tuple[Symmetry, ...]:
        last_file, last_rank = self.cols - 1, self.rows - 1
        maps: list[Symmetry] = [
            lambda s: s,
            lambda s: (last_file - s[0], last_rank - s[1]),
            lambda s: (last_file - s[0], s[1]),
            lambda s: (s[0], last_rank - s[1]),
        ]
        if turns:
            maps += [
                lambda s: (s[1], s[0]),
                lambda s: (last_rank - s[1], last_file - s[0]),
                lambda s: (s[1], last_file - s[0]),
                lambda s: (last_rank - s[1], s[0]),
            ]
        return tuple(maps)

    def __str__(self) -> str:
        return f"{self.rows}×{self.cols}{'' if self.shape is Shape.PLANE else f' {self.shape}'}"


def keeping(
    symmetries: Iterable[Symmetry], parts: Iterable[frozenset[Square]]
) -> tuple[Symmetry, ...]:
    """Those of ``symmetries`` that map each of ``parts`` (sets of squares) onto itself."""
    fixed = list(parts)
    return tuple(g for g in symmetries if all(set(map(g, part)) == part for part in fixed))


def _shifted(symmetry: Symmetry, dx: int, dy: int, board: Board) -> Symmetry:
    """``symmetry`` after a rotation by ``(dx, dy)`` along the coordinates that wrap
    round ``board`` (a coordinate that does not wrap has a zero shift)."""

    def apply(square: Square) -> Square:
        x, y = symmetry(square)
        return (x + dx) % board.cols, (y + dy) % board.rows

    return apply


def square_names(squares: frozenset[Square]) -> list[str]:
    """Square names, rank by rank."""
    return [square_name(s) for s in sorted(squares, key=lambda s: (s[1], s[0]))]
