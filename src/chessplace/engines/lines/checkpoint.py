"""Checkpoints of a line search: one JSON line per finished chunk, checked when read back.

The first line is a header that pins the search (board, piece, symmetry,
split depth, format). Each record names a chunk by its prefix (the labels
of the first ``depth`` positions of the search order, ``0``/``1``) and says
that no labelling below it reaches ``below``; ``witness``, when present, is
the best labelling found in the chunk (labels by line). The record keyed
``known`` holds a labelling found before the search began (``below`` 0).

Every record carries a SHA-256 of its fields and the header, so a record
that was edited, copied from another search, repeated or cut short is never
trusted: it is reported (one warning through :mod:`logging`) and its chunk
is searched again. The hash has no secret key: it catches accidents and
careless edits, not forgery. Records are flushed as they are written (a
killed process loses none) and forced to disk at most once a second.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from pathlib import Path
from typing import Any, TextIO, TypeGuard

from chessplace.filelock import FileLock

log = logging.getLogger(__name__)

FORMAT = "chessplace-lines-1"

KNOWN = "known"
"""The key of a record that names no chunk: a labelling known before the search."""

SYNC_SECONDS = 1.0
"""Least time between two forced writes to disk."""


HEADER_CHARS = 1 << 16
"""The most of a checkpoint's first line read for its depth (a header is a few hundred
characters; a device such as ``/dev/full`` never ends the line)."""


class CheckpointMismatch(ValueError):
    """The file records a different search."""


class Record:
    """What a finished chunk proved: nothing below it reaches ``below``; ``witness``
    is the best labelling found in it, if any."""

    __slots__ = ("below", "witness")

    def __init__(self, below: int, witness: str | None) -> None:
        self.below = below
        self.witness = witness


class LineCheckpoint:
    """Trusted records of the finished chunks of one line search, kept in ``path``."""

    def __init__(self, path: Path, header: dict[str, Any], lines: int) -> None:
        self.path = path
        self.header = {"format": FORMAT} | header
        self.lines = lines
        self.done: dict[str, Record] = {}
        self._file: TextIO | None = None
        self._lock = FileLock(path)  # InUse (a ValueError) while another run has it
        self._synced = 0.0
        try:
            self._open()
        except BaseException:
            self._lock.release()
            raise

    def _open(self) -> None:
        path = self.path
        if path.exists() and path.stat().st_size > 0:
            self._load()
        else:
            path.write_text(self._header_line(), encoding="utf-8")

    def _header_line(self) -> str:
        return json.dumps({"header": self.header}) + "\n"

    def _check(self, chunk: str, below: int, witness: str | None) -> str:
        fields = {"header": self.header, "chunk": chunk, "below": below, "witness": witness}
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _load(self) -> None:
        text = self.path.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        try:
            first = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            raise CheckpointMismatch(f"{self.path} is not a line-search checkpoint") from None
        if not isinstance(first, dict) or first.get("header") != self.header:
            raise CheckpointMismatch(f"{self.path} records a different search")
        rejected = not text.endswith("\n")
        for number, line in enumerate(lines[1:], 2):
            reason = self._trust(line) if line.strip() else ""
            if reason:
                rejected = True
                log.warning("chessplace: checkpoint %s line %d: %s", self.path, number, reason)
        if rejected:
            self._rewrite()

    def _trust(self, line: str) -> str:
        """Take one record into ``done``; the reason it is not trusted, or ``""``."""
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            return "unreadable (cut short?); its chunk will be searched again"
        if not isinstance(entry, dict):
            return "not a record; ignored"
        chunk, below, witness = entry.get("chunk"), entry.get("below"), entry.get("witness")
        if not isinstance(chunk, str) or not (chunk == KNOWN or _labels(chunk, len(chunk))):
            return "no chunk named; ignored"
        if (
            not _bound(below)
            or not (witness is None or (isinstance(witness, str) and _labels(witness, self.lines)))
            or entry.get("check") != self._check(chunk, below, witness)
        ):
            return f"chunk {chunk}: the record does not check; it will be searched again"
        if chunk in self.done:
            return f"chunk {chunk} is recorded twice; the first record is kept"
        self.done[chunk] = Record(below, witness)
        return ""

    def _line(self, chunk: str, record: Record) -> str:
        entry = {
            "chunk": chunk,
            "below": record.below,
            "witness": record.witness,
            "check": self._check(chunk, record.below, record.witness),
        }
        return json.dumps(entry) + "\n"

    def _rewrite(self) -> None:
        """Keep only trusted records, replacing the file in one step."""
        spare = self.path.with_name(self.path.name + ".tmp")
        with spare.open("w", encoding="utf-8") as file:
            file.write(self._header_line())
            for chunk, record in self.done.items():
                file.write(self._line(chunk, record))
            file.flush()
            os.fsync(file.fileno())
        os.replace(spare, self.path)

    def record(self, chunk: str, below: int, witness: str | None) -> None:
        """Append one finished chunk."""
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        record = Record(below, witness)
        self._file.write(self._line(chunk, record))
        self._file.flush()
        now = time.monotonic()
        if now - self._synced >= SYNC_SECONDS:
            os.fsync(self._file.fileno())
            self._synced = now
        self.done[chunk] = record

    def close(self) -> None:
        if self._file is not None:
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
        self._lock.release()


def _bound(value: object) -> TypeGuard[int]:
    """A bound as JSON holds it: a non-negative integer, not a bool or a float."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _labels(text: str, size: int) -> bool:
    """``text`` is ``size`` labels, each ``0`` or ``1``."""
    return len(text) == size and set(text) <= {"0", "1"}


def recorded_depth(path: Path) -> int | None:
    """The split depth the checkpoint at ``path`` was written at; ``None`` when there
    is no such file or its header names none (opening it then says what is wrong)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            header = json.loads(file.readline(HEADER_CHARS)).get("header")
    except (OSError, json.JSONDecodeError, AttributeError):
        return None
    depth = header.get("depth") if isinstance(header, dict) else None
    return depth if _bound(depth) else None
