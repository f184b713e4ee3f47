"""The term command: a stop reaches the command it runs, which keeps its work."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from tests.processes import alive, children
from tests.waiting import WORK_PATIENCE, wait_until


def test_sigterm_stops_the_command_too_and_its_checkpoint_is_kept(tmp_path: Path) -> None:
    """SIGTERM to ``term`` while its count runs: exit 3 with one line saying so, the
    count stopped as well (not killed: its checkpoint keeps the parts it finished, and a
    rerun resumes from them), no process left, and no record written."""
    journal, record = tmp_path / "parts.jsonl", tmp_path / "n18.json"
    command = ["count", "queens", "-n", "18", "--workers", "1", "--checkpoint", str(journal)]
    term = [sys.executable, "-m", "chessplace.research", "term", str(record), "--", *command]
    child = subprocess.Popen(term, stderr=subprocess.PIPE, text=True)
    wait_until(
        lambda: journal.exists() and len(journal.read_text().splitlines()) >= 3,
        what="two parts in the checkpoint",
        timeout=WORK_PATIENCE,
        alive=child,
    )
    started = children(child.pid)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 3, err
    assert err.strip().splitlines()[-1].startswith("term: stopped; the command's last line:")
    assert started and not any(map(alive, started))
    assert not record.exists()
    kept = len(journal.read_text().splitlines()) - 1
    assert kept >= 2
    again = subprocess.run(
        [sys.executable, "-m", "chessplace", *command, "--time-limit", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "resumed" in again.stderr, again.stderr
