"""The GPU counting engine, on Numba's CUDA simulator (CI has no GPU).

The simulator is chosen by an environment variable read when Numba is
imported, so each check runs in a child Python with it set; this process
keeps the real CUDA target (and, without a GPU, sees the engine refuse).
Boards stay small: the simulator runs a Python thread per CUDA thread.
Every kernel variant counts here, and so does the script that times them
on a GPU (benchmarks/gpu_variants.py); Burnside's classes run on the CPU.
"""

from __future__ import annotations

import itertools
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
from chessplace.engines.bitboard.kernel import shape_of
from chessplace.engines.exhaustive import reaches
from chessplace.engines.gpu.burnside import SYMMETRIES, classes, fixed_by
from chessplace.engines.gpu.devices import SIMULATOR, probe
from chessplace.engines.gpu.engine import GpuEngine
from chessplace.engines.gpu.variant import KernelVariant
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

_VARIANT_COUNTS = """
import json, sys
from chessplace import api
from chessplace.core.board import Board
from chessplace.core.pieces import piece_from_text
from chessplace.core.problem import Army, Problem
from chessplace.engines.gpu.variant import KernelVariant
out = []
for stack, weighing, block in json.loads(sys.argv[1]):
    variant = KernelVariant(stack, weighing, block)
    for betza, n, prefixes in json.loads(sys.argv[2]):
        piece = piece_from_text(betza)
        problem = Problem("independent", Board.square(n), (Army("white", piece, n, n),))
        result = api.count(problem, unique=True, solver="gpu", prefixes=prefixes, variant=variant)
        out.append([variant.name, betza, n, result.status.value, result.count, result.unique])
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


def test_every_kernel_variant_counts_queens_and_amazons_and_their_classes() -> None:
    # Each stack with each weighing, at the launcher's threads per block and at 64
    # (256 with a local stack): deep stacks (prefixes=1), shallow ones (the default
    # target, which leaves the kernel two rows: at n = 8 as at 9, with a quarter of
    # 9's prefixes to simulate), and rook-like pieces whose solutions mirror images
    # can fix.
    variants = [
        (stack, weighing, block)
        for stack in ("shared", "local")
        for weighing in ("in_loop", "on_host")
        for block in (None, 64)
    ] + [("local", "in_loop", 256)]
    cases = [("WWFF", n, 1) for n in (3, 4, 5, 6, 9)] + [
        ("WWFF", 8, 1 << 20),
        ("WWFFN", 10, 1),
        ("WWFFN", 11, 40),
        ("WW", 5, 1),
        ("WWN", 6, 1),
    ]
    counted = _simulated(_VARIANT_COUNTS, json.dumps(variants), json.dumps(cases))
    assert len(counted) == len(variants) * len(cases)
    cpu = {
        betza: api.count(_independent(betza, n), unique=True, solver="bitboard")
        for betza, n, _ in cases
        if betza in ("WW", "WWN")
    }
    for name, betza, n, status, count, unique in counted:
        assert status == "complete", name
        if betza == "WWFF":
            expected = (reference.known("A000170", n), reference.known("A002562", n))
        elif betza == "WWFFN":
            expected = (reference.known("A051223", n), reference.known("A051224", n))
        else:
            expected = (cpu[betza].count, cpu[betza].unique)
        assert (count, unique) == expected, (name, betza, n)


def test_a_variant_is_checked_and_a_block_too_wide_for_shared_memory_is_refused() -> None:
    with pytest.raises(ValueError, match="multiple of 32"):
        KernelVariant(block=48)
    with pytest.raises(ValueError, match="stack"):
        KernelVariant(stack="global")  # type: ignore[arg-type]
    from chessplace.engines.gpu.kernel import launch_of

    shape = shape_of(piece_from_text("WWFF"), 20, collect=False)
    assert launch_of(shape, 2, False, KernelVariant(block=1024)) is None
    wide = launch_of(shape, 2, False, KernelVariant(stack="local", block=1024))
    assert wide is not None and wide.shared_bytes == 0


def test_burnside_classes_match_the_tables() -> None:
    for betza, counts, classes_of in (
        ("WWFF", "A000170", "A002562"),
        ("WWFFN", "A051223", "A051224"),
    ):
        for n, total in reference.terms(counts).items():
            shape = shape_of(piece_from_text(betza), n, collect=False)
            assert classes(shape, total) == reference.known(classes_of, n), (betza, n)


def test_fixed_solutions_match_brute_force_mapped_by_each_symmetry() -> None:
    # Every solution found by brute force (rank by rank, the exhaustive oracle's
    # attacks), mapped by the board's own 7 symmetries besides the identity: how many
    # each fixes, against the search's count for one of each conjugate pair, taken
    # as often as the pair has members.
    cases = [("WWFF", n) for n in range(1, 9)] + [("WW", n) for n in range(1, 7)]
    cases += [("WWN", n) for n in range(4, 8)]
    for betza, n in cases:
        board = Board.square(n)
        solutions = _brute_force(betza, board)
        if betza == "WWFF":
            assert len(solutions) == reference.known("A000170", n)
        listed = sorted(
            sum(frozenset(map(symmetry, squares)) == squares for squares in solutions)
            for symmetry in board.symmetries()[1:]
        )
        shape = shape_of(piece_from_text(betza), n, collect=False)
        searched = sorted(
            itertools.chain.from_iterable(
                [fixed_by(shape, symmetry)] * members for symmetry, members in SYMMETRIES.values()
            )
        )
        assert searched == listed, (betza, n)


def _brute_force(betza: str, board: Board) -> list[frozenset[tuple[int, int]]]:
    """Every placement of one piece per rank that no two attack, rank by rank."""
    piece = piece_from_text(betza)
    found = []

    def extend(placed: list[tuple[int, int]]) -> None:
        if len(placed) == board.rows:
            found.append(frozenset(placed))
            return
        for file in range(board.cols):
            square = (file, len(placed))
            if not any(
                reaches(piece, other, square, board) or reaches(piece, square, other, board)
                for other in placed
            ):
                extend([*placed, square])

    extend([])
    return found


def test_the_variants_script_runs_end_to_end_on_the_simulator(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    script = ROOT / "benchmarks" / "gpu_variants.py"
    command = [sys.executable, str(script), "--simulate", "--queens", "6-7", "--out", str(tmp_path)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "gpu_variants.json").read_text())
    assert report["simulated"] and "skipped" in report["ygch"] and "skipped" in report["ncu"]
    assert {row["variant"] for row in report["rows"]} == set(report["variants"])
    for row in report["rows"]:
        assert (row["status"], row["check"]) == ("complete", "ok (OEIS)"), row
    table = (tmp_path / "gpu_variants.md").read_text()
    assert "not a measurement" in table and "| local-on-host | 7 |" in table
    assert (tmp_path / "gpu_variants.png").stat().st_size > 0


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
