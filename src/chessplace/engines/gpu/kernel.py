"""The counting kernel compiled for one launch shape, and one slice of prefixes run on it.

The generated module (:mod:`chessplace.engines.gpu.codegen`) is written under
the bitboard kernels' cache directory, named by its hash, and imported, so
Numba's CUDA target can keep the compiled kernel on disk between runs.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.bitboard.kernel import _cache_directory, _write_whole
from chessplace.engines.gpu.codegen import Launch, source
from chessplace.engines.gpu.variant import TODAY, KernelVariant

BLOCK = 128
"""Threads per block, unless the stack leaves shared memory for fewer."""

SIMULATED_BLOCK = 32
"""Threads per block on the simulator (a Python thread each)."""

MOST_THREADS = 1024
"""CUDA's most threads per block."""

SHARED_BYTES = 46 << 10
"""Shared memory one block may take (48 KiB without opting in, less a margin)."""

BLOCKS_PER_PROCESSOR = 16
"""Blocks launched per multiprocessor: more than fit, so none idles while others wait."""


def launch_of(
    shape: Shape, rows: int, simulated: bool, variant: KernelVariant = TODAY
) -> Launch | None:
    """The launch for ``shape`` with ``rows`` prefix rows: the variant's threads per
    block, else the most (a multiple of 32, up to :data:`BLOCK`) whose stacks fit in
    shared memory; ``None`` when they do not fit."""
    per_thread = Launch(shape, rows, 1, variant).shared_bytes
    fits = SHARED_BYTES // per_thread // 32 * 32 if per_thread else MOST_THREADS
    block = variant.block or min(SIMULATED_BLOCK if simulated else BLOCK, fits)
    return Launch(shape, rows, block, variant) if 0 < block <= fits else None


_COMPILING = threading.Lock()


def kernel(launch: Launch) -> Any:
    """The kernel for ``launch`` (compiled on its first call, per device)."""
    with _COMPILING:
        return _kernel(launch)


@cache
def _kernel(launch: Launch) -> Any:
    text = source(launch)
    name = "chessplace_gpu_" + hashlib.sha256(text.encode()).hexdigest()[:20]
    path = _cache_directory() / f"{name}.py"
    if not path.exists():
        _write_whole(path, text)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # Numba's cache finds a kernel's globals through its module
    spec.loader.exec_module(module)
    return module.count


@dataclass(frozen=True)
class Counted:
    """What a slice's prefixes gave: per prefix, its solutions, classes, and whether done."""

    found: np.ndarray
    classes: np.ndarray
    done: np.ndarray


class Running:
    """One slice of prefixes on the current device, started on a stream of its own."""

    def __init__(self, launch: Launch, forbid: Any, tasks: np.ndarray, stop: np.ndarray) -> None:
        from numba import cuda

        size = len(tasks)
        self.stream: Any = cuda.stream()
        device_tasks = cuda.to_device(np.ascontiguousarray(tasks), stream=self.stream)
        self.next = cuda.to_device(np.zeros(1, dtype=np.uint32), stream=self.stream)
        self.found = cuda.device_array(size, dtype=np.uint64, stream=self.stream)
        self.classes = cuda.device_array(size, dtype=np.uint64, stream=self.stream)
        self.done = cuda.to_device(np.zeros(size, dtype=np.uint8), stream=self.stream)
        blocks = min(-(-size // launch.block), processors() * BLOCKS_PER_PROCESSOR)
        kernel(launch)[blocks, launch.block, self.stream](
            device_tasks, forbid, size, self.next, stop, self.found, self.classes, self.done
        )

    def result(self) -> Counted:
        """Wait for the slice, and what it counted."""
        counted = Counted(
            self.found.copy_to_host(stream=self.stream),
            self.classes.copy_to_host(stream=self.stream),
            self.done.copy_to_host(stream=self.stream),
        )
        self.stream.synchronize()
        return counted


def stop_flag() -> np.ndarray:
    """A flag in host memory the GPU reads: set its byte and the kernels stop."""
    from numba import cuda

    flag: np.ndarray = cuda.mapped_array(1, dtype=np.uint8)
    flag[0] = 0
    return flag


def to_device(array: np.ndarray) -> Any:
    """``array`` copied to the current device."""
    from numba import cuda

    return cuda.to_device(np.ascontiguousarray(array))


def processors() -> int:
    """Multiprocessors of the current device (1 on the simulator)."""
    from numba import cuda

    api: Any = cuda
    return int(getattr(api.current_context().device, "MULTIPROCESSOR_COUNT", 1))
