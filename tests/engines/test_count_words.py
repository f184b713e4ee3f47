"""What a long count says: a hopeless one is refused up front (``count queens -n 40``
ran ten minutes on CP-SAT with no word), a resumed one says how much it resumed, and
a stopped proof says how many of its chunks are done (it read as finished)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from chessplace import Board, Status, puzzles
from chessplace.data.reference import terms
from chessplace.runtime.control import Control, Progress


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chessplace", *args], capture_output=True, text=True, timeout=120
    )


def test_a_hopeless_count_is_refused_up_front() -> None:
    done = _cli("count", "queens", "-n", "40")
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("chessplace: error: counting queens on 40×40")
    assert "would take cpsat about" in line and "years" in line and "time limit" in line
    limited = _cli("count", "queens", "-n", "40", "--time-limit", "1", "--json")
    assert limited.returncode == 3, limited.stderr  # a lower bound, as asked


@pytest.mark.parametrize(("n", "count"), [(n, c) for n, c in terms("A000170").items() if n >= 8])
def test_the_estimate_is_near_the_known_counts(n: int, count: int) -> None:
    from chessplace.engines.support.estimate import placements_estimate

    estimate = placements_estimate(puzzles.queens(Board.square(n)))
    assert estimate is not None and count / 5 < estimate < count * 5


def test_only_a_rook_rider_with_one_piece_a_rank_is_estimated() -> None:
    from chessplace.engines.support.estimate import placements_estimate

    assert placements_estimate(puzzles.bishops(Board.square(8))) is None
    assert placements_estimate(puzzles.peaceable_queens(Board.square(6))) is None


def test_a_resumed_count_says_how_much_it_resumed(tmp_path: Path) -> None:
    checkpoint = tmp_path / "q9.jsonl"
    first = _cli("count", "queens", "-n", "9", "--checkpoint", str(checkpoint))
    assert first.returncode == 0 and "resumed" not in first.stderr, first.stderr
    lines = checkpoint.read_text().splitlines()
    checkpoint.write_text("\n".join(lines[:5]) + "\n")  # the header and four parts
    again = _cli("count", "queens", "-n", "9", "--checkpoint", str(checkpoint))
    assert again.returncode == 0, again.stderr
    assert f"resumed: 4 of {len(lines) - 1} parts done" in again.stderr
    assert "352 placements" in again.stdout


def test_a_stopped_proof_says_how_many_chunks_are_done() -> None:
    """The last word of a proof stopped after 300 chunks of 8×8 peaceable queens."""
    from chessplace.engines.lines.engine import LineSearchEngine

    said: list[str] = []

    def watch(progress: Progress) -> None:
        said.append(progress.message)
        if progress.done is not None and progress.done >= 300:
            control.stop()

    control = Control(on_progress=watch)
    result = LineSearchEngine().optimize(puzzles.peaceable_queens(Board.square(8)), control)
    assert result.status is not Status.OPTIMAL
    last = re.fullmatch(r"[\d,]+ nodes, ([\d,]+) of ([\d,]+) chunks done", said[-1])
    assert last, said[-1]
    finished, total = (int(x.replace(",", "")) for x in last.groups())
    assert 300 <= finished < total
