"""Output paths that permissions would allow but that take nothing (/proc, /sys; root
is allowed everything) are refused before the work: ``--certificate /proc/foo`` did
the whole solve, printed it, and only then failed to write."""

from __future__ import annotations

import sys

import pytest

from chessplace.faces.cli import main

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="uses /proc and /sys")


@pytest.mark.parametrize(
    ("args", "refused"),
    [
        (["optimize", "peaceable-queens", "-n", "9", "--certificate", "/proc/foo"], "/proc/foo"),
        (["optimize", "peaceable-queens", "-n", "9", "--certificate", "/sys/foo"], "/sys/foo"),
        (["count", "queens", "-n", "8", "--checkpoint", "/proc/q8.jsonl"], "/proc/q8.jsonl"),
        (["render", "queens", "-n", "8", "-o", "/sys/q8.svg"], "/sys/q8.svg"),
    ],
)
def test_a_path_that_takes_nothing_is_refused_before_the_work(
    capsys: pytest.CaptureFixture[str], args: list[str], refused: str
) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing was solved
    assert len(err.splitlines()) == 1 and f"cannot write {refused}" in err, err
