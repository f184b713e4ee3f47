"""Board geometry: size, square names and the board's symmetries."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import overload

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


@dataclass(frozen=True)
class Board:
    """A rectangular board of ``rows`` ranks and ``cols`` files; on a ``torus`` the
    edges join (a step off one edge comes back on the opposite one), so every ride
    goes round until it meets a piece or its own square."""

    rows: int
    cols: int
    torus: bool = False

    def __post_init__(self) -> None:
        for label, value in (("rows", self.rows), ("cols", self.cols)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"board {label} must be a positive integer, not {value!r}")
            if value > MAX_SIDE:
                raise ValueError(f"board {label} stop at {MAX_SIDE:,}, not {value:,}")
        if not isinstance(self.torus, bool):
            raise ValueError(f"torus must be true or false, not {self.torus!r}")

    @classmethod
    def square(cls, n: int, torus: bool = False) -> Board:
        """The n×n board (on a torus with ``torus``)."""
        return cls(n, n, torus)

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
        """The square ``(dx, dy)`` away, wrapping round a torus; ``None`` off the board."""
        x, y = square[0] + dx, square[1] + dy
        if self.torus:
            return x % self.cols, y % self.rows
        return (x, y) if self.contains((x, y)) else None

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
        """The board's symmetries, identity first: the dihedral ones (8 if square,
        else 4), and on a torus each of them after every translation."""
        dihedral = self._dihedral()
        if not self.torus:
            return dihedral
        shifts = [(dx, dy) for dy in range(self.rows) for dx in range(self.cols)]
        return tuple(_shifted(g, dx, dy, self) for g in dihedral for dx, dy in shifts)

    def _dihedral(self) -> tuple[Symmetry, ...]:
        last_file, last_rank = self.cols - 1, self.rows - 1
        maps: list[Symmetry] = [
            lambda s: s,
            lambda s: (last_file - s[0], last_rank - s[1]),
            lambda s: (last_file - s[0], s[1]),
            lambda s: (s[0], last_rank - s[1]),
        ]
        if self.is_square:
            maps += [
                lambda s: (s[1], s[0]),
                lambda s: (last_rank - s[1], last_file - s[0]),
                lambda s: (s[1], last_file - s[0]),
                lambda s: (last_rank - s[1], s[0]),
            ]
        return tuple(maps)

    def __str__(self) -> str:
        return f"{self.rows}×{self.cols}{' torus' if self.torus else ''}"


def keeping(
    symmetries: Iterable[Symmetry], parts: Iterable[frozenset[Square]]
) -> tuple[Symmetry, ...]:
    """Those of ``symmetries`` that map each of ``parts`` (sets of squares) onto itself."""
    fixed = list(parts)
    return tuple(g for g in symmetries if all(set(map(g, part)) == part for part in fixed))


def _shifted(symmetry: Symmetry, dx: int, dy: int, board: Board) -> Symmetry:
    """``symmetry`` after a translation by ``(dx, dy)`` of the torus ``board``."""

    def apply(square: Square) -> Square:
        x, y = symmetry(square)
        return (x + dx) % board.cols, (y + dy) % board.rows

    return apply


def square_names(squares: frozenset[Square]) -> list[str]:
    """Square names, rank by rank."""
    return [square_name(s) for s in sorted(squares, key=lambda s: (s[1], s[0]))]
