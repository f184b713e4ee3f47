"""The GPU's work list: every canonical prefix of the first rows, expanded on the CPU.

The bitboard counter's canonical subproblems (:func:`class_subproblems`, with
the pruning rules of :func:`class_pruning`) are extended row by row, with
numpy over whole arrays, until there are enough prefixes to keep a GPU busy.
Each prefix carries its attack state after its rows, the columns it took, and
which forbid table (its first two columns pick one) its later rows obey.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.bitboard.split import class_pruning, class_subproblems

_COLUMN_BITS = 5
"""Bits of a packed column number (up to 31)."""

MAX_ROWS = 64 // _COLUMN_BITS
"""The most prefix rows: their columns pack into one 64-bit word."""

ENOUGH_PREFIXES = 1 << 20
"""Prefixes wanted: a few for every thread an H100 keeps resident (132 SMs × ~800)."""


@dataclass(frozen=True)
class Plan:
    """The prefixes of one count.

    ``tasks`` has a row per prefix: the state words (:func:`state_words`), then
    the one-bit mask of each of the ``rows`` prefix rows, then the index of its
    forbid table in ``forbid`` (one row of masks per table, a mask per board row),
    then, in a ``mirror`` plan, its mirror weight: 2, or 1 when its first queen
    is on the middle column.
    """

    shape: Shape
    rows: int
    tasks: np.ndarray
    forbid: np.ndarray
    mirror: bool = False

    @property
    def size(self) -> int:
        return int(self.tasks.shape[0])


def state_words(shape: Shape) -> list[str]:
    """The attack state after some rows: columns, diagonals, and the leaps' rows below."""
    names = ["c"]
    if shape.diagonals:
        names += ["l", "r"]
    return names + [f"a{k}" for k in range(1, shape.depth + 1)]


def plan(shape: Shape, enough: int = ENOUGH_PREFIXES, mirror: bool = False) -> Plan:
    """Every canonical prefix of the fewest rows that give ``enough`` of them (n ≥ 3),
    and its state. Prefixes have 2 rows at least (1 on 3×3) and n-2 at most: the
    kernel searches the last two rows at least.

    ``mirror``: instead, every prefix whose first queen is in the left half of
    the first row or on its middle column, from 1 row, with no pruning: each
    solution is found once and counts as its mirror weight says.
    """
    n = shape.n
    if mirror:
        starts: list[tuple[int, ...]] = [(first,) for first in range((n + 1) // 2)]
        forbid = np.zeros((1, n), dtype=np.uint64)
        table_of = np.zeros(len(starts), dtype=np.int64)
    else:
        starts, forbid, table_of = _canonical_starts(n)
    first_rows = len(starts[0])
    state = {name: np.zeros(len(starts), dtype=np.uint64) for name in state_words(shape)}
    columns = np.zeros(len(starts), dtype=np.uint64)  # _COLUMN_BITS a row, the first lowest
    for row in range(first_rows):
        column = np.array([prefix[row] for prefix in starts], dtype=np.uint64)
        bit = np.left_shift(np.uint64(1), column)
        keep = (_blocked(shape, state) | forbid[table_of, row]) & bit == 0
        state = {name: words[keep] for name, words in state.items()}
        table_of, bit = table_of[keep], bit[keep]
        columns = columns[keep] | column[keep] << np.uint64(_COLUMN_BITS * row)
        state = _place(shape, state, bit)
    rows = first_rows
    while len(table_of) < enough and rows < min(n - 2, MAX_ROWS):
        state, columns, table_of = _extend(shape, state, columns, table_of, forbid[:, rows], rows)
        rows += 1
    words = state_words(shape)
    width = len(words) + rows + (2 if mirror else 1)
    tasks = np.empty((len(table_of), width), dtype=np.uint32)
    for index, name in enumerate(words):
        tasks[:, index] = state[name]
    mask = np.uint64((1 << _COLUMN_BITS) - 1)
    for row in range(rows):
        column = (columns >> np.uint64(_COLUMN_BITS * row)) & mask
        tasks[:, len(words) + row] = np.left_shift(np.uint64(1), column)
    tasks[:, len(words) + rows] = table_of
    if mirror:
        tasks[:, -1] = np.where(columns & mask < n // 2, 2, 1)
    return Plan(shape, rows, tasks, forbid.astype(np.uint32), mirror)


def _canonical_starts(n: int) -> tuple[list[tuple[int, ...]], np.ndarray, np.ndarray]:
    """The first two rows (one on 3×3) of the canonical subproblems, their forbid
    tables (:func:`class_pruning`) and each one's table."""
    first_rows = min(2, n - 2)
    starts = sorted({task.prefix[:first_rows] for task in class_subproblems(n)})
    tables: dict[bytes, int] = {}
    forbid_rows: list[np.ndarray] = []
    sets = []
    for prefix in starts:
        table = class_pruning(n, prefix)
        key = table.tobytes()
        if key not in tables:
            tables[key] = len(forbid_rows)
            forbid_rows.append(table)
        sets.append(tables[key])
    return starts, np.array(forbid_rows, dtype=np.uint64), np.array(sets, dtype=np.int64)


def _blocked(shape: Shape, state: dict[str, np.ndarray]) -> np.ndarray:
    """The columns the next row may not take."""
    blocked = state["c"].copy()
    if shape.diagonals:
        blocked |= state["l"] | state["r"]
    if shape.depth:
        blocked |= state["a1"]
    return blocked


def _place(shape: Shape, state: dict[str, np.ndarray], bit: np.ndarray) -> dict[str, np.ndarray]:
    """The state after the next row's piece on ``bit``, as the kernel computes it."""
    full = np.uint64((1 << shape.n) - 1)
    one = np.uint64(1)
    placed = {"c": state["c"] | bit}
    if shape.diagonals:
        placed["l"] = ((state["l"] | bit) << one) & full
        placed["r"] = (state["r"] | bit) >> one
    for k in range(1, shape.depth + 1):
        reach = state[f"a{k + 1}"] if k < shape.depth else np.zeros_like(bit)
        for dx, dy in shape.leaps:
            if dy == k:
                reach = reach | (bit << np.uint64(dx) if dx > 0 else bit >> np.uint64(-dx))
        placed[f"a{k}"] = reach & full
    return placed


def _extend(
    shape: Shape,
    state: dict[str, np.ndarray],
    columns: np.ndarray,
    table_of: np.ndarray,
    forbid_row: np.ndarray,
    row: int,
) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Every prefix one row longer, column by column (the order is fixed: checkpoints
    name ranges of prefixes)."""
    blocked = _blocked(shape, state) | forbid_row[table_of]
    free = [np.flatnonzero(blocked & np.uint64(1 << column) == 0) for column in range(shape.n)]
    parents = np.concatenate(free)
    column = np.repeat(np.arange(shape.n, dtype=np.uint64), [len(f) for f in free])
    kept = {name: words[parents] for name, words in state.items()}
    placed = _place(shape, kept, np.left_shift(np.uint64(1), column))
    return placed, columns[parents] | column << np.uint64(_COLUMN_BITS * row), table_of[parents]
