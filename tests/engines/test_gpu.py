"""The GPU counting engine, on Numba's CUDA simulator (CI has no GPU).

The simulator is chosen by an environment variable read when Numba is
imported, so each check runs in a child Python with it set; this process
keeps the real CUDA target (and, without a GPU, sees the engine refuse).
Boards stay small: the simulator runs a Python thread per CUDA thread.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chessplace import api, puzzles
from chessplace.core.board import Board
from chessplace.core.pieces import piece_from_text
from chessplace.core.problem import Army, Problem
from chessplace.core.result import Status
from chessplace.data import reference
from chessplace.engines.base import Task
from chessplace.engines.gpu.devices import SIMULATOR, probe
from chessplace.engines.gpu.engine import GpuEngine
from chessplace.faces.cli import main
from tests.paths import ROOT

SRC = ROOT / "src"

_COUNTS = """
import json, sys
from chessplace import api, puzzles
from chessplace.core.board import Board
from chessplace.core.pieces import piece_from_text
from chessplace.core.problem import Army, Problem
out = []
for betza, n, prefixes in json.loads(sys.argv[1]):
    piece = piece_from_text(betza)
    problem = Problem("independent", Board.square(n), (Army("white", piece, n, n),))
    result = api.count(problem, unique=True, solver="gpu", prefixes=prefixes)
    out.append([betza, n, prefixes, result.status.value, result.count, result.unique])
print(json.dumps(out))
"""

_STOP_AND_RESUME = """
import json, sys
from pathlib import Path
from chessplace import api, puzzles
from chessplace.core.board import Board
from chessplace.runtime.control import Control
checkpoint = Path(sys.argv[1])
problem = puzzles.queens(Board.square(10))
def stop_at_first_slice(progress):
    if progress.done:
        control.stop()
control = Control(on_progress=stop_at_first_slice)
first = api.count(problem, unique=True, solver="gpu", control=control, checkpoint=checkpoint)
again = api.count(problem, unique=True, solver="gpu", checkpoint=checkpoint)
print(json.dumps([[r.status.value, r.count, r.unique, r.note] for r in (first, again)]))
"""


def _simulated(script: str, *arguments: str) -> Any:
    """What ``script`` prints (JSON), run in a child Python on the CUDA simulator."""
    env = {**os.environ, SIMULATOR: "1", "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-c", script, *arguments],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _independent(betza: str, n: int) -> Problem:
    return Problem("independent", Board.square(n), (Army("white", piece_from_text(betza), n, n),))


def test_counts_match_the_tables_and_the_bitboard_counter() -> None:
    # prefixes=1: the shortest prefixes, so the kernel's stack goes deep; the default
    # plan leaves it two rows. Rooks and chancellors check a piece without diagonals.
    cases = [("WWFF", n, 1) for n in range(3, 10)] + [
        ("WWFF", 8, 1 << 20),
        ("WWFFN", 10, 1),
        ("WWN", 6, 1),
        ("WW", 6, 1),
    ]
    counted = _simulated(_COUNTS, json.dumps(cases))
    for betza, n, _, status, count, unique in counted:
        assert status == "complete"
        if betza == "WWFF":
            assert (count, unique) == (reference.known("A000170", n), reference.known("A002562", n))
        elif betza == "WWFFN":
            assert (count, unique) == (reference.known("A051223", n), reference.known("A051224", n))
        else:
            cpu = api.count(_independent(betza, n), unique=True, solver="bitboard")
            assert (count, unique) == (cpu.count, cpu.unique)


def test_a_stop_gives_a_partial_count_and_the_checkpoint_resumes(tmp_path: Path) -> None:
    stopped, resumed = _simulated(_STOP_AND_RESUME, str(tmp_path / "q10.journal"))
    status, count, unique, _ = stopped
    assert status == "partial" and count < 724 and unique is None
    status, count, unique, note = resumed
    assert (status, count, unique) == ("complete", 724, 92)
    assert note.startswith("resumed ")


@pytest.mark.skipif(probe().found, reason="this machine has a GPU (or the simulator)")
def test_without_a_gpu_the_engine_refuses_and_counts_run_as_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    problem = puzzles.queens(Board.square(8))
    reason = GpuEngine().refusal(problem, Task.COUNT)
    assert reason is not None and reason.startswith("no GPU")
    assert main(["count", "queens", "-n", "8", "--solver", "gpu"]) == 2
    assert "no GPU" in capsys.readouterr().err
    result = api.count(problem)
    assert (result.solver, result.passed_over, result.status) == ("bitboard", (), Status.COMPLETE)


def test_the_engine_refuses_what_the_bitboard_counter_refuses() -> None:
    bishops = puzzles.bishops(Board.square(6))
    reason = GpuEngine().refusal(bishops, Task.COUNT)
    assert reason is not None and "bitboard" in reason
    assert GpuEngine().refusal(puzzles.queens(Board.square(8)), Task.LIST) is not None
