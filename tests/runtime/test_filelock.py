"""A checkpoint's lock (``runtime.filelock``): one holder at a time, taken again once
released (a checkpoint in use, refused by the command line: faces/cli/test_outputs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessplace.runtime.filelock import FileLock, InUse


def test_a_lock_is_released_and_taken_again(tmp_path: Path) -> None:
    first = FileLock(tmp_path / "a.jsonl")
    with pytest.raises(InUse):
        FileLock(tmp_path / "a.jsonl")
    first.release()
    FileLock(tmp_path / "a.jsonl").release()
