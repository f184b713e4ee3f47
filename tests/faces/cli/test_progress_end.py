"""The progress on stderr ends where the answer does (issue 52): optimize of a proven
peaceable problem ended its progress with "best 14, bound 25", then printed
"optimal, proven"."""

from __future__ import annotations

import re

import pytest

from chessplace.core.result import Result, Status
from chessplace.faces.cli import main
from chessplace.faces.cli.supervision import _settled
from chessplace.runtime.control import Control

PROGRESS = re.compile(r"^chessplace: [\d.]+ s: (.*)$")


def _progress(err: str) -> list[str]:
    return [m[1] for line in err.splitlines() if (m := PROGRESS.match(line))]


@pytest.mark.parametrize(
    ("arguments", "optimum"),
    [
        (["optimize", "peaceable-queens", "-n", "8"], 9),
        (["optimize", "dominating-queens", "-n", "5"], 3),  # a minimum: the bound rises
        (["count", "peaceable-queens", "-n", "6", "--optimal"], 5),
    ],
    ids=["peaceable", "domination", "optimal-count"],
)
def test_a_proven_optimum_ends_its_progress_with_best_equal_to_bound(
    capsys: pytest.CaptureFixture[str], arguments: list[str], optimum: int
) -> None:
    assert main(arguments) == 0
    out, err = capsys.readouterr()
    lines = _progress(err)
    assert len(lines) >= 2, err  # the engine reported on its way
    assert lines[-1] == f"best {optimum}, bound {optimum}, proven", err
    assert str(optimum) in out


def test_an_answer_without_progress_gets_no_ending(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["optimize", "bishops", "-n", "8"]) == 0  # by construction, at once
    assert _progress(capsys.readouterr().err) == []


def test_only_a_proven_optimum_settles_the_progress() -> None:
    control = Control()
    best = Result(Status.FEASIBLE, "sat", objective=14, bound=25)
    assert _settled(best, control) is None
    assert _settled(Result(Status.COMPLETE, "bitboard", count=92), control) is None
    settled = _settled(Result(Status.OPTIMAL, "lines", objective=14, bound=14), control)
    assert settled is not None and (settled.objective, settled.bound) == (14, 14)
