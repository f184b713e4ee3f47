"""Checkpoints: finished subproblems, one JSON line each, flushed as they finish.

A count that is interrupted (Ctrl-C, a lost worker, a killed process)
resumes from the file: a finished subproblem is never lost or counted twice,
because results are keyed by subproblem and the header pins what is counted.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO


class CheckpointMismatch(ValueError):
    """The file records a different count."""


class Checkpoint:
    """Results of finished subproblems of one count, kept in ``path``."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header
        self.done: dict[str, tuple[int, int]] = {}
        if path.exists() and path.stat().st_size > 0:
            self._load()
        else:
            path.write_text(json.dumps({"header": header}) + "\n", encoding="utf-8")
        self._file: TextIO | None = None

    def _load(self) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines()
        try:
            first = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            raise CheckpointMismatch(f"{self.path} is not a chessplace checkpoint") from None
        if not isinstance(first, dict) or first.get("header") != self.header:
            raise CheckpointMismatch(
                f"{self.path} records a different count: "
                f"{first.get('header') if isinstance(first, dict) else first}"
            )
        for line in lines[1:]:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a kill: that subproblem runs again
            self.done[entry["task"]] = (int(entry["solutions"]), int(entry["canonical"]))

    def record(self, task: str, solutions: int, canonical: int) -> None:
        """Append one finished subproblem and force it to disk."""
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        line = {"task": task, "solutions": solutions, "canonical": canonical}
        self._file.write(json.dumps(line) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.done[task] = (solutions, canonical)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
