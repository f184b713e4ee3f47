"""A checkpoint rewritten after a record it does not trust: the fresh copy is made
exclusively beside it, so a link planted at ``NAME.tmp`` is never followed, and a
checkpoint that is a symbolic link stays one (the file it points to is replaced)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from chessplace.engines.bitboard.checkpoint import count_journal

HEADER = {"n": 5, "piece": "Q", "method": "classes", "tasks": 2, "first": "0-2"}
TASKS = ["0-2", "0-3"]


def _journal_with_a_bad_line(path: Path) -> None:
    """A journal of one good record and a garbled line, which makes the next opening
    rewrite it."""
    written = count_journal(path, HEADER, TASKS)
    written.record("0-2", 4, 1)
    written.close()
    with path.open("a", encoding="utf-8") as file:
        file.write('{"task": "0-3", "solut\n')


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_a_link_at_the_temporary_name_is_not_followed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    checkpoint = tmp_path / "q5.jsonl"
    _journal_with_a_bad_line(checkpoint)
    victim = tmp_path / "precious.txt"
    victim.write_text("mine\n")
    planted = tmp_path / "q5.jsonl.tmp"
    planted.symlink_to(victim)
    with caplog.at_level(logging.WARNING):
        journal = count_journal(checkpoint, HEADER, TASKS)
    journal.close()
    assert journal.done == {"0-2": (4, 1)} and len(caplog.records) == 1
    assert victim.read_text() == "mine\n"
    assert planted.is_symlink() and not checkpoint.is_symlink()
    assert len(_lines(checkpoint)) == 2 and json.loads(_lines(checkpoint)[0]) == {"header": HEADER}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".q5.jsonl.lock",
        "precious.txt",
        "q5.jsonl",
        "q5.jsonl.tmp",
    ]


def test_a_checkpoint_that_is_a_link_stays_one(tmp_path: Path) -> None:
    elsewhere = tmp_path / "store"
    elsewhere.mkdir()
    real = elsewhere / "q5.jsonl"
    _journal_with_a_bad_line(real)
    real.chmod(0o640)
    link = tmp_path / "q5.jsonl"
    link.symlink_to(real)
    count_journal(link, HEADER, TASKS).close()
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert len(_lines(real)) == 2 and json.loads(_lines(real)[1])["task"] == "0-2"
    assert real.stat().st_mode & 0o777 == 0o640
    assert not [*elsewhere.glob("*.tmp"), *tmp_path.glob("*.tmp")]
    assert count_journal(link, HEADER, TASKS).done == {"0-2": (4, 1)}
