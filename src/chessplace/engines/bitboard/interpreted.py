"""The row-by-row search run as plain Python, for counts too small to wait for Numba.

Compiling the search for one board side and piece takes seconds, once per machine;
a small count (8 queens: 92 placements) takes milliseconds in plain Python. The
generated source of :mod:`chessplace.engines.bitboard.codegen`, written without
Numba's decorators and with Python's integers for the words, runs here with the
helpers below in place of :mod:`chessplace.engines.bitboard.leaf`'s (which are
written for Numba's fixed-width words and arrays). Nothing here imports Numba.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from functools import cache
from typing import Any

from chessplace.engines.bitboard.codegen import Shape, source


def popcount(word: int) -> int:
    """How many bits of ``word`` are set."""
    return word.bit_count()


def write_columns(bits: Sequence[int], columns: MutableSequence[Any]) -> None:
    """Each row's column, from the row's one-bit mask."""
    for row, bit in enumerate(bits):
        columns[row] = bit.bit_length() - 1


def class_size(bits: Sequence[int], scratch: object = None) -> int:
    """Size of the solution's symmetry class if it is the class's smallest member, else 0
    (as :func:`chessplace.engines.bitboard.leaf.class_size`): the solution, read as the
    sequence of its rows' columns, against its images under the 7 other symmetries of
    the square."""
    columns = [bit.bit_length() - 1 for bit in bits]
    rows = [0] * len(columns)
    for row, column in enumerate(columns):
        rows[column] = row
    last = len(columns) - 1
    mirrored = [last - column for column in columns]
    images = [
        mirrored,
        columns[::-1],
        mirrored[::-1],
        rows,
        [last - row for row in rows[::-1]],
        [last - row for row in rows],
        rows[::-1],
    ]
    if any(image < columns for image in images):
        return 0
    return 8 // (1 + sum(image == columns for image in images))


@cache
def interpreted(shape: Shape) -> Callable[..., tuple[int, int]]:
    """The search for ``shape`` as plain Python: ``search(forbid, first, out, stop)``,
    answering as the compiled one does."""
    namespace: dict[str, Any] = {"__name__": f"chessplace_search_{shape.n}_interpreted"}
    code = compile(source(shape, compiled=False), f"<search for {shape}>", "exec")
    exec(code, namespace)  # the source is our own generator's
    search: Callable[..., tuple[int, int]] = namespace["search"]
    return search
