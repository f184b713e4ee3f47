"""``explain`` and ``hint`` stopped by Ctrl-C or SIGTERM answer as a time limit does:
exit 3, with the steps found so far, never "interrupted" (130) or a silent death."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

STUCK_ROWS = ["AAA" + "B" * 27, "B" * 30] + [
    letter * 30 for letter in "CDEFGHIJKLMNOPQRSTUVWXYZ0123"
]
"""A 30×30 two-star grid of stripes whose small region A gives four steps, after which
the short chain tries square after square for minutes."""


def _catches_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM (its rules are under way)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


def _cpu_seconds(pid: int) -> float:
    """User and system time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture(scope="module", autouse=True)
def _compiled(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The region search that comes before the rules, compiled (once per machine) before
    the runs whose CPU seconds are counted: else a compilation could eat them all."""
    grid = tmp_path_factory.mktemp("warm") / "stuck.txt"
    grid.write_text("\n".join(STUCK_ROWS) + "\n")
    command = [sys.executable, "-m", "chessplace", "hint", "star-battle", "--stars", "2"]
    subprocess.run(
        [*command, "--grid", str(grid), "--time-limit", "1"], capture_output=True, timeout=600
    )


def _stopped_run(tmp_path: Path, stop: signal.Signals, *args: str) -> tuple[int, str, str]:
    grid = tmp_path / "stuck.txt"
    grid.write_text("\n".join(STUCK_ROWS) + "\n")
    command = [sys.executable, "-m", "chessplace", *args, "star-battle", "--stars", "2"]
    process = subprocess.Popen(
        [*command, "--grid", str(grid)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: _catches_sigterm(process.pid), what="the rules under way", alive=process)
        ready = _cpu_seconds(process.pid)
        wait_until(  # the steps take milliseconds, once compiled: three CPU seconds are deep
            lambda: _cpu_seconds(process.pid) >= ready + 3.0,
            what="three CPU seconds into the short chain",
            alive=process,
        )
        process.send_signal(stop)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    return process.returncode, out, err


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_explain_prints_its_steps_and_exits_3(
    tmp_path: Path, stop: signal.Signals
) -> None:
    code, out, err = _stopped_run(tmp_path, stop, "explain")
    assert code == 3, err
    assert len(out.splitlines()) == 4 and "[easy]" in out, out
    assert "interrupted" not in err and "Traceback" not in err
    assert "stopped after 4 steps" in err


def test_a_stopped_explain_in_json_says_it_stopped(tmp_path: Path) -> None:
    code, out, err = _stopped_run(tmp_path, signal.SIGTERM, "explain", "--json")
    data = json.loads(out)
    assert code == 3, err
    assert (data["stopped"], data["solved"], data["grade"]) == (True, False, None)
    assert len(data["steps"]) == 4


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_hint_answers_its_first_step(tmp_path: Path, stop: signal.Signals) -> None:
    code, out, err = _stopped_run(tmp_path, stop, "hint")
    assert code == 0, err
    assert out.startswith("[medium] confined") and len(out.splitlines()) == 1, out
