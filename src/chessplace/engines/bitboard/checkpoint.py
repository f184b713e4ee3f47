"""Checkpoints: finished subproblems, one JSON line each, flushed as they finish.

A count that is interrupted (Ctrl-C, a lost worker, a killed process)
resumes from the file: a finished subproblem is never lost or counted twice,
because results are keyed by subproblem and the header pins what is counted.

Every record carries a SHA-256 of its fields and the header, so a record
that was edited, copied from another count, repeated, cut short or garbled
never reaches the total: it is reported (one warning line through
:mod:`logging`, which reaches stderr unless the caller routes it elsewhere)
and its subproblem is counted again. The hash
has no secret key: it catches accidents and careless edits, not forgery.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO, TypeGuard

from chessplace.filelock import FileLock

log = logging.getLogger(__name__)


class CheckpointMismatch(ValueError):
    """The file records a different count."""


class Checkpoint:
    """Trusted results of finished subproblems of one count, kept in ``path``.

    ``tasks`` are the keys of the count's subproblems; records of any other
    key are rejected.
    """

    def __init__(self, path: Path, header: dict[str, Any], tasks: Iterable[str]) -> None:
        self.path = path
        self.header = header
        self.done: dict[str, tuple[int, int]] = {}
        self._file: TextIO | None = None
        self._lock = FileLock(path)  # InUse (a ValueError) while another run has it
        try:
            self._open(tasks)
        except BaseException:
            self._lock.release()
            raise

    def _open(self, tasks: Iterable[str]) -> None:
        path = self.path
        if path.exists() and path.stat().st_size > 0:
            self._load(set(tasks))
        else:
            path.write_text(self._header_line(), encoding="utf-8")

    def _header_line(self) -> str:
        return json.dumps({"header": self.header}) + "\n"

    def _check(self, task: str, solutions: int, canonical: int) -> str:
        fields = {
            "header": self.header,
            "task": task,
            "solutions": solutions,
            "canonical": canonical,
        }
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _load(self, tasks: set[str]) -> None:
        text = self.path.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        try:
            first = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            raise CheckpointMismatch(f"{self.path} is not a chessplace checkpoint") from None
        if not isinstance(first, dict) or first.get("header") != self.header:
            raise CheckpointMismatch(
                f"{self.path} records a different count: "
                f"{first.get('header') if isinstance(first, dict) else first}"
            )
        rejected = not text.endswith("\n")
        for number, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            reason = self._trust(line, tasks)
            if reason:
                rejected = True
                log.warning("chessplace: checkpoint %s line %d: %s", self.path, number, reason)
        if rejected:
            self._rewrite()

    def _trust(self, line: str, tasks: set[str]) -> str:
        """Take one record into ``done``; the reason it is not trusted, or ``""``."""
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            return "unreadable (cut short?); its subproblem will be counted again"
        if not isinstance(entry, dict):
            return "not a record; ignored"
        task, solutions, canonical = (
            entry.get("task"),
            entry.get("solutions"),
            entry.get("canonical"),
        )
        if not isinstance(task, str) or task not in tasks:
            return f"subproblem {task!r} is not part of this count; ignored"
        if not (_count(solutions) and _count(canonical)) or entry.get("check") != self._check(
            task, solutions, canonical
        ):
            return f"subproblem {task}: the record does not check; it will be counted again"
        if task in self.done:
            return f"subproblem {task} is recorded twice; the first record is kept"
        self.done[task] = (solutions, canonical)
        return ""

    def _rewrite(self) -> None:
        """Keep only trusted records, replacing the file in one step."""
        spare = self.path.with_name(self.path.name + ".tmp")
        with spare.open("w", encoding="utf-8") as file:
            file.write(self._header_line())
            for task, (solutions, canonical) in self.done.items():
                file.write(self._line(task, solutions, canonical))
            file.flush()
            os.fsync(file.fileno())
        os.replace(spare, self.path)

    def _line(self, task: str, solutions: int, canonical: int) -> str:
        check = self._check(task, solutions, canonical)
        record = {"task": task, "solutions": solutions, "canonical": canonical, "check": check}
        return json.dumps(record) + "\n"

    def record(self, task: str, solutions: int, canonical: int) -> None:
        """Append one finished subproblem and force it to disk."""
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(self._line(task, solutions, canonical))
        self._file.flush()
        os.fsync(self._file.fileno())
        self.done[task] = (solutions, canonical)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._lock.release()


def _count(value: object) -> TypeGuard[int]:
    """A count as JSON holds it: a non-negative integer, not a bool or a float."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
