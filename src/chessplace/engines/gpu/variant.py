"""The choices the GPU kernel's generator leaves open, to be timed against each other.

Today's kernel is the default: its search stack in shared memory, each solution
weighed by its class's size inside the search loop, and threads per block chosen
by :func:`chessplace.engines.gpu.kernel.launch_of`. ``benchmarks/gpu_variants.py``
times the others on a GPU. How many prefixes the CPU expands (and so the prefix
depth) is the engine's ``prefixes`` option, beside the variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Stack = Literal["shared", "local"]
Weighing = Literal["in_loop", "on_host"]


@dataclass(frozen=True)
class KernelVariant:
    """One way to generate and launch the counting kernel.

    ``stack``: where each thread keeps its stack, its rows' columns and its
    banned columns: ``shared`` memory laid out [level][word][thread], or
    ``local`` arrays of its own (registers where the compiler can, else local
    memory, which the L1 cache holds). ``weighing``: ``in_loop`` searches the
    canonical prefixes and weighs each solution by its class's size as it is
    found; ``on_host`` searches the prefixes whose first queen is in the left
    half (and middle) of the first row, counts every solution plainly, applies
    each prefix's mirror weight (2 or 1), and leaves the classes to Burnside's
    lemma on the CPU afterwards (:mod:`chessplace.engines.gpu.burnside`).
    ``block``: threads per block, or ``None`` for the launcher's own choice.
    """

    stack: Stack = "shared"
    weighing: Weighing = "in_loop"
    block: int | None = None

    def __post_init__(self) -> None:
        if self.stack not in ("shared", "local"):
            raise ValueError(f"stack is 'shared' or 'local', not {self.stack!r}")
        if self.weighing not in ("in_loop", "on_host"):
            raise ValueError(f"weighing is 'in_loop' or 'on_host', not {self.weighing!r}")
        if self.block is not None and (self.block <= 0 or self.block % 32):
            raise ValueError(
                f"threads per block must be a positive multiple of 32, not {self.block}"
            )

    @property
    def name(self) -> str:
        """A short name: ``shared/in_loop/auto``."""
        return f"{self.stack}/{self.weighing}/{self.block or 'auto'}"


TODAY = KernelVariant()
"""Today's kernel: the default everywhere."""
