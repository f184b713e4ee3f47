"""Output paths are checked before the work, a checkpoint is used by one run at a time,
and a reused certificate directory keeps only the new certificate."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessplace.faces.cli import main
from chessplace.runtime.filelock import FileLock


def _fails(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    """The one error line of a command that exits 2 (progress lines may come before)."""
    assert main(list(arguments)) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1, errors
    return errors[0]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--render", "{tmp}/missing/board.svg", "no directory"),
        ("--checkpoint", "{tmp}", "is a directory"),
        ("--certificate", "{tmp}/file.txt", "not a directory"),
        ("--checkpoint", "{tmp}/missing/a.jsonl", "no directory"),
    ],
)
def test_bad_output_paths_are_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    (tmp_path / "file.txt").write_text("x")
    path = value.format(tmp=tmp_path)
    err = _fails(capsys, "optimize", "peaceable-queens", "-n", "30", option, path)
    assert message in err and option in err


@pytest.mark.parametrize(
    "command",
    [
        ["count", "queens", "-n", "8"],
        ["optimize", "peaceable-queens", "-n", "7"],
    ],
)
def test_a_checkpoint_in_use_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    checkpoint = tmp_path / "run.jsonl"
    held = FileLock(checkpoint)
    try:
        err = _fails(capsys, *command, "--checkpoint", str(checkpoint))
        assert "in use by another chessplace run" in err and str(checkpoint) in err
    finally:
        held.release()
    assert main([*command, "--checkpoint", str(checkpoint)]) == 0


def test_a_directory_of_stray_proofs_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Proof files with no manifest naming them, beside a user's notes, are not a
    certificate: the directory is refused before solving and nothing in it changes (an
    earlier certificate is replaced whole: tests/certificates/test_stops.py)."""
    directory = tmp_path / "cert"
    directory.mkdir()
    for stale in ("refutation-0007.drup.gz", "cover.drup.gz", "refutation.drup.gz"):
        (directory / stale).write_text("old")
    (directory / "notes.txt").write_text("mine")
    before = {path.name: path.read_bytes() for path in directory.iterdir()}
    code = main(["optimize", "peaceable-queens", "-n", "5", "--certificate", str(directory)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "holds files that are not a certificate" in err
    assert {path.name: path.read_bytes() for path in directory.iterdir()} == before
