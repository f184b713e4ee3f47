"""Checkpoint journals: one JSON line per finished piece of work, checked when read back.

The first line is a header that pins the work (the board, the piece, how it
was split; the owner decides). Each later line is a record: a key naming the
piece of work, the values it produced, and a SHA-256 of those fields and the
header. A record that was edited, copied from other work, repeated, cut
short or garbled is never trusted: it is reported (one warning through
:mod:`logging`, which reaches stderr unless the caller routes it elsewhere),
the file is rewritten without it (through the link, when it is a symbolic
link), and its work is done again. The hash has
no secret key: it catches accidents and careless edits, not forgery.

Records are flushed as they are written, so a killed process loses none, and
forced to disk at most once every ``Schema.sync_seconds``. A lock beside the
file (:mod:`chessplace.runtime.filelock`) refuses a second run on the same journal.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeGuard

from chessplace.runtime.clipping import clipped
from chessplace.runtime.filelock import FileLock

log = logging.getLogger(__name__)

HEADER_CHARS = 1 << 16
"""The most of a journal's first line read on its own (a header is a few hundred
characters; a device such as ``/dev/full`` never ends the line)."""


class CheckpointMismatch(ValueError):
    """The file is not a journal, or records other work."""


def _read(line: str) -> Any:
    """One line as JSON; ``ValueError`` for anything unreadable (bad JSON, nesting too
    deep, an integer too long to convert)."""
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def check_header(path: Path, header: dict[str, Any], work: str) -> None:
    """Refuse (:class:`CheckpointMismatch`) a journal at ``path`` that is not one of the
    ``work`` that ``header`` pins, reading its first line only: a check before any
    work. No file, or an empty one, passes (it becomes a new journal)."""
    if path.exists() and path.stat().st_size > 0:
        _refuse_other_work(path, recorded_header(path), header, work)


def _refuse_other_work(path: Path, found: object, header: dict[str, Any], work: str) -> None:
    if not isinstance(found, dict):
        raise CheckpointMismatch(f"{path} is not a chessplace checkpoint")
    if found != header:
        raise CheckpointMismatch(
            f"{path} records a different {work}: " + _differences(found, header)
        )


def _differences(found: dict[str, Any], expected: dict[str, Any]) -> str:
    """How a journal's header differs from the one expected, briefly ("n 16, not 8")."""
    keys = [key for key in {**expected, **found} if found.get(key) != expected.get(key)]
    said = [f"{key} {_brief(found.get(key))}, not {_brief(expected.get(key))}" for key in keys]
    return "; ".join(said[:3]) + ("; ..." if len(said) > 3 else "")


def _brief(value: object) -> str:
    return clipped(json.dumps(value), 24)


@dataclass(frozen=True)
class Schema:
    """What one kind of journal holds.

    ``key`` names the field that identifies a record's piece of work;
    ``record`` is a named tuple of its values (field names as in the file);
    ``valid_key`` and ``valid`` say whether a key and values read back are
    well formed. ``work``, ``unit`` and ``redone`` word the messages ("a
    different count", "subproblem 0-3", "counted again").
    """

    key: str
    record: type[Any]  # a NamedTuple class
    valid_key: Callable[[str], bool]
    valid: Callable[[Any], bool]
    work: str
    unit: str
    redone: str
    sync_seconds: float = 0.0


class Journal:
    """The trusted records of one piece of work, kept in ``path`` (``done``: key → record)."""

    def __init__(self, path: Path, header: dict[str, Any], schema: Schema) -> None:
        self.path = path
        self.header = header
        self.schema = schema
        self.done: dict[str, Any] = {}
        self._file: TextIO | None = None
        self._synced = 0.0
        if path.exists() and not path.is_file():  # a folder, a device, a pipe
            raise CheckpointMismatch(f"{path} is not a regular file")
        self._lock = FileLock(path)  # InUse (a ValueError) while another run has it
        try:
            if path.exists() and path.stat().st_size > 0:
                self._load()
            else:
                path.write_text(self._header_line(), encoding="utf-8")
        except BaseException:
            self._lock.release()
            raise

    def record(self, key: str, *values: Any) -> None:
        """Append one finished piece of work."""
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        record = self.schema.record(*values)
        self._file.write(self._line(key, record))
        self._file.flush()
        now = time.monotonic()
        if now - self._synced >= self.schema.sync_seconds:
            os.fsync(self._file.fileno())
            self._synced = now
        self.done[key] = record

    def close(self) -> None:
        if self._file is not None:
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
        self._lock.release()

    def _header_line(self) -> str:
        return json.dumps({"header": self.header}) + "\n"

    def _check(self, key: str, record: Any) -> str:
        fields = {"header": self.header, self.schema.key: key, **record._asdict()}
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _line(self, key: str, record: Any) -> str:
        entry = {self.schema.key: key, **record._asdict(), "check": self._check(key, record)}
        return json.dumps(entry) + "\n"

    def _load(self) -> None:
        text = self.path.read_text(encoding="utf-8", errors="replace")
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()  # the end of the last line, not a line
        try:
            found = _read(lines[0])["header"]
        except (ValueError, IndexError, KeyError, TypeError):
            found = None
        _refuse_other_work(self.path, found, self.header, self.schema.work)
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
        schema = self.schema
        try:
            entry = _read(line)
        except ValueError:
            return f"unreadable (cut short?); its {schema.unit} will be {schema.redone}"
        if not isinstance(entry, dict):
            return "not a record; ignored"
        key = entry.get(schema.key)
        if not isinstance(key, str) or not schema.valid_key(key):
            return f"{schema.unit} {str(key)[:40]!r} is not part of this {schema.work}; ignored"
        if key in self.done:
            return f"{schema.unit} {key} is recorded twice; the first record is kept"
        record = schema.record(*(entry.get(name) for name in schema.record._fields))
        if not schema.valid(record) or entry.get("check") != self._check(key, record):
            return f"{schema.unit} {key}: the record does not check; it will be {schema.redone}"
        self.done[key] = record
        return ""

    def _rewrite(self) -> None:
        """Keep only trusted records, replacing the file in one step: a fresh file made
        exclusively beside it (no name there is followed or reused) is renamed over it.
        A checkpoint that is a symbolic link stays one: the file it points to is
        replaced, with the same permissions."""
        target = self.path.resolve()
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        spare = Path(name)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                os.fchmod(fd, stat.S_IMODE(target.stat().st_mode))
                file.write(self._header_line())
                for key, record in self.done.items():
                    file.write(self._line(key, record))
                file.flush()
                os.fsync(file.fileno())
            os.replace(spare, target)
        finally:
            spare.unlink(missing_ok=True)


def natural(value: object) -> TypeGuard[int]:
    """A count or bound as JSON holds it: a non-negative integer, not a bool or a float."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def recorded_header(path: Path) -> dict[str, Any] | None:
    """The header of the journal at ``path``; ``None`` when there is no such file or
    its first line holds none (opening it then says what is wrong)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            header = _read(file.readline(HEADER_CHARS)).get("header")
    except (OSError, ValueError, AttributeError):
        return None
    return header if isinstance(header, dict) else None
