"""The line search's checkpoint: a journal (:mod:`chessplace.runtime.journal`) with one record
per finished chunk.

The header pins the search (board, piece, symmetry, split depth, format).
Each record names a chunk by its prefix (the labels of the first ``depth``
positions of the search order, ``0``/``1``) and says that no labelling below
it reaches ``below``; ``witness``, when present, is the best labelling found
in the chunk (labels by line). The record keyed ``known`` holds a labelling
found before the search began (``below`` 0).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from chessplace.runtime.journal import Journal, Schema, check_header, natural, recorded_header

FORMAT = "chessplace-lines-1"

KNOWN = "known"
"""The key of a record that names no chunk: a labelling known before the search."""


class Record(NamedTuple):
    """What a finished chunk proved: nothing below it reaches ``below``; ``witness``
    is the best labelling found in it, if any."""

    below: int
    witness: str | None


def search_journal(path: Path, header: dict[str, Any], lines: int) -> Journal:
    """The journal of the line search that ``header`` pins, on ``lines`` lines (with
    ``header["armies"]`` colours, else two)."""
    colours = int(header.get("armies", 2))

    def valid(record: Record) -> bool:
        witness = record.witness
        return natural(record.below) and (
            witness is None or (isinstance(witness, str) and _labels(witness, lines, colours))
        )

    schema = Schema(
        key="chunk",
        record=Record,
        valid_key=lambda chunk: chunk == KNOWN or _labels(chunk, header["depth"], colours),
        valid=valid,
        work="search",
        unit="chunk",
        redone="searched again",
        sync_seconds=1.0,
    )
    return Journal(path, {"format": FORMAT} | header, schema)


def check_search_journal(path: Path, header: dict[str, Any]) -> None:
    """Refuse, from its first line, a journal at ``path`` of another search than the
    one ``header`` pins (as :func:`search_journal` would, but before any work)."""
    check_header(path, {"format": FORMAT} | header, "search")


def _labels(text: str, size: int, colours: int) -> bool:
    """``text`` is ``size`` labels, each a digit below ``colours``."""
    return len(text) == size and set(text) <= set("0123456789"[:colours])


def recorded_depth(path: Path) -> int | None:
    """The split depth the checkpoint at ``path`` was written at; ``None`` when there
    is no such file or its header names none (opening it then says what is wrong)."""
    header = recorded_header(path)
    depth = header.get("depth") if header is not None else None
    return depth if natural(depth) else None
