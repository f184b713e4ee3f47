"""The GPU counting engine: what the bitboard counter counts, searched by CUDA threads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from chessplace.core.problem import Problem
from chessplace.core.result import Result
from chessplace.engines.base import Engine, Task
from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.bitboard.engine import BitboardEngine
from chessplace.engines.gpu.prefixes import ENOUGH_PREFIXES
from chessplace.engines.gpu.variant import TODAY, KernelVariant
from chessplace.runtime.control import Control

PAYS_FROM = 16
"""The smallest board side on which the GPU is chosen unasked: below it the bitboard
counter answers in well under a second, less than the GPU takes to start."""

_BITBOARD = BitboardEngine()


class GpuEngine(Engine):
    """Counts on every CUDA GPU of this machine (or Numba's simulator, for tests).

    ``checkpoint`` names a file of finished slices to resume from;
    ``prefixes`` is how many prefixes the CPU aims to hand the GPU; ``variant``
    is how the kernel is generated and launched (today's by default: see
    :mod:`chessplace.engines.gpu.variant`).
    """

    name = "gpu"
    summary = "CUDA search (numba-cuda): counts one-per-row pieces with rook moves on a GPU"
    package = "numba"
    module = "numba"
    tasks = frozenset({Task.COUNT})

    def __init__(
        self,
        checkpoint: Path | None = None,
        prefixes: int = ENOUGH_PREFIXES,
        variant: KernelVariant = TODAY,
    ) -> None:
        self.checkpoint = checkpoint
        self.prefixes = prefixes
        self.variant = variant

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
        shallowest = 1 if self.variant.weighing == "on_host" else min(2, n - 2)
        if launch_of(_shape(problem), shallowest, devices.simulated, self.variant) is None:
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
        from chessplace.engines.gpu.burnside import classes
        from chessplace.engines.gpu.devices import probe
        from chessplace.engines.gpu.kernel import launch_of
        from chessplace.engines.gpu.prefixes import plan
        from chessplace.engines.gpu.runner import run_count

        devices = probe()
        shape = _shape(problem)
        on_host = self.variant.weighing == "on_host"
        work = plan(shape, self.prefixes, mirror=on_host)
        launch = launch_of(shape, work.rows, devices.simulated, self.variant)
        assert launch is not None  # refusal() checked the shallowest plan
        piece = problem.armies[0].piece.betza
        tally = run_count(work, launch, piece, control, len(devices.names), self.checkpoint)
        if on_host and unique and tally.finished:
            tally = replace(tally, canonical=classes(shape, tally.solutions))
        return tally.result(self.name, unique, "slices")


def _shape(problem: Problem) -> Shape:
    from chessplace.engines.bitboard.kernel import shape_of

    return shape_of(problem.armies[0].piece, problem.board.rows, collect=False)
