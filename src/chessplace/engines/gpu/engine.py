"""The GPU counting engine: what the bitboard counter counts, searched by CUDA threads."""

from __future__ import annotations

from pathlib import Path

from chessplace.core.problem import Problem
from chessplace.core.result import Result
from chessplace.engines.base import Engine, Task
from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.bitboard.engine import BitboardEngine
from chessplace.engines.gpu.prefixes import ENOUGH_PREFIXES
from chessplace.runtime.control import Control

PAYS_FROM = 16
"""The smallest board side on which the GPU is chosen unasked: below it the bitboard
counter answers in well under a second, less than the GPU takes to start."""

_BITBOARD = BitboardEngine()


class GpuEngine(Engine):
    """Counts on every CUDA GPU of this machine (or Numba's simulator, for tests).

    ``checkpoint`` names a file of finished slices to resume from;
    ``prefixes`` is how many prefixes the CPU aims to hand the GPU.
    """

    name = "gpu"
    summary = "CUDA search (numba-cuda): counts one-per-row pieces with rook moves on a GPU"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.COUNT})

    def __init__(self, checkpoint: Path | None = None, prefixes: int = ENOUGH_PREFIXES) -> None:
        self.checkpoint = checkpoint
        self.prefixes = prefixes

    def refusal(self, problem: Problem, task: Task) -> str | None:
        from chessplace.engines.gpu.devices import probe
        from chessplace.engines.gpu.kernel import launch_of

        reason = super().refusal(problem, task)
        if reason:
            return reason
        reason = _BITBOARD.refusal(problem, task)
        if reason:
            return f"the GPU counts what the bitboard counter counts, and {reason}"
        n = problem.board.rows
        if n < 3:
            return "the GPU search counts boards from 3×3"
        devices = probe()
        if not devices.found:
            return devices.describe()
        if launch_of(_shape(problem), min(2, n - 2), devices.simulated) is None:
            return "the piece's leaps need a longer stack than a block's shared memory holds"
        return None

    def declines(self, problem: Problem, task: Task) -> str | None:
        from chessplace.engines.gpu.devices import probe

        devices = probe()
        if not devices.found:
            return devices.describe()
        if devices.simulated:
            return "the CUDA simulator is for tests: name the solver to use it"
        n = problem.board.rows
        if n < PAYS_FROM:
            return f"a {n}×{n} board is too small to pay for the GPU (from {PAYS_FROM}×{PAYS_FROM})"
        return None

    def describe(self) -> str:
        from chessplace.engines.gpu.devices import probe

        return f"{self.summary} [{probe().describe()}]"

    def count(self, problem: Problem, control: Control, unique: bool) -> Result:
        from chessplace.engines.gpu.devices import probe
        from chessplace.engines.gpu.kernel import launch_of
        from chessplace.engines.gpu.prefixes import plan
        from chessplace.engines.gpu.runner import run_count

        devices = probe()
        shape = _shape(problem)
        work = plan(shape, self.prefixes)
        launch = launch_of(shape, work.rows, devices.simulated)
        assert launch is not None  # refusal() checked the shallowest plan
        piece = problem.armies[0].piece.betza
        tally = run_count(work, launch, piece, control, len(devices.names), self.checkpoint)
        return tally.result(self.name, unique, "slices")


def _shape(problem: Problem) -> Shape:
    from chessplace.engines.bitboard.kernel import shape_of

    return shape_of(problem.armies[0].piece, problem.board.rows, collect=False)
