"""The count's checkpoint: a journal (:mod:`chessplace.runtime.journal`) with one record per
finished subproblem, its solutions and classes.

A count that is interrupted (Ctrl-C, a lost worker, a killed process)
resumes from the file: a finished subproblem is never lost or counted twice,
because results are keyed by subproblem and the header pins what is counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from chessplace.runtime.journal import Journal, Schema, natural


class Finished(NamedTuple):
    """What one subproblem counted: its solutions and its classes."""

    solutions: int
    canonical: int


def count_journal(path: Path, header: dict[str, Any], tasks: Iterable[str]) -> Journal:
    """The journal of the count that ``header`` pins; ``tasks`` are the keys of its
    subproblems (records of any other key are rejected)."""
    keys = frozenset(tasks)
    schema = Schema(
        key="task",
        record=Finished,
        valid_key=keys.__contains__,
        valid=lambda record: natural(record.solutions) and natural(record.canonical),
        work="count",
        unit="subproblem",
        redone="counted again",
    )
    return Journal(path, header, schema)
