"""Journals (``runtime.journal``): a header of other work is refused naming how it
differs, and a journal that is no regular file is refused before anything is made or
written beside it (checkpoints through the command line: tests/faces/cli/test_edges.py)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from chessplace.runtime.journal import CheckpointMismatch, Journal, Schema


class Done(NamedTuple):
    nodes: int


def test_a_journal_says_how_its_header_differs(tmp_path: Path) -> None:
    schema = Schema("chunk", Done, bool, bool, work="search", unit="chunk", redone="redone")
    path = tmp_path / "journal.jsonl"
    Journal(path, {"n": 16, "piece": "Q"}, schema).close()
    with pytest.raises(CheckpointMismatch, match=r"different search: n 16, not 8$"):
        Journal(path, {"n": 8, "piece": "Q"}, schema)


@pytest.mark.parametrize("where", ["folder", "/dev/null"])
def test_a_journal_that_is_not_a_regular_file_is_refused_untouched(
    tmp_path: Path, where: str
) -> None:
    """A folder or a device as a journal (the research commands' --journal) is one
    error, before a lock file is made beside it or anything is written."""
    schema = Schema("chunk", Done, bool, bool, work="search", unit="chunk", redone="redone")
    path = tmp_path if where == "folder" else Path(where)
    before = sorted(path.parent.iterdir()) if where == "folder" else None
    with pytest.raises(CheckpointMismatch, match=r"is not a regular file$"):
        Journal(path, {"n": 8}, schema)
    assert before is None or sorted(path.parent.iterdir()) == before
