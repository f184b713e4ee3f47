"""The GPU count's checkpoint: a journal (:mod:`chessplace.runtime.journal`) with one record per
finished slice, named by its range of prefixes ``start-end``, with its solutions and
classes (the records of the bitboard counter's checkpoint)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from chessplace.engines.bitboard.checkpoint import Finished
from chessplace.runtime.journal import Journal, Schema, natural


def slice_key(start: int, end: int) -> str:
    return f"{start}-{end}"


def slice_range(key: str) -> tuple[int, int]:
    """The prefixes ``start``..``end`` (end excluded) that a key names."""
    start, end = key.split("-")
    return int(start), int(end)


def slice_journal(path: Path, header: dict[str, Any], prefixes: int) -> Journal:
    """The journal of the count that ``header`` pins, over ``prefixes`` prefixes."""

    def valid_key(key: str) -> bool:
        parts = key.split("-")
        if len(parts) != 2 or not all(part.isdigit() and part.isascii() for part in parts):
            return False
        start, end = slice_range(key)
        return 0 <= start < end <= prefixes

    schema = Schema(
        key="slice",
        record=Finished,
        valid_key=valid_key,
        valid=lambda record: natural(record.solutions) and natural(record.canonical),
        work="count",
        unit="slice",
        redone="counted again",
    )
    return Journal(path, header, schema)


def finished_ranges(done: dict[str, Finished]) -> list[tuple[int, int]]:
    """The ranges recorded, in order; ``ValueError`` when two overlap (they were
    never written so: the file was edited)."""
    ranges = sorted(slice_range(key) for key in done)
    for (_, end), (start, _) in pairwise(ranges):
        if start < end:
            raise ValueError("the checkpoint records overlapping slices")
    return ranges
