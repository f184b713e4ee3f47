"""Which CUDA devices this process can count on: real GPUs, Numba's simulator, or none."""

from __future__ import annotations

import ctypes.util
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SIMULATOR = "NUMBA_ENABLE_CUDASIM"
"""The environment variable that puts Numba's CUDA target on its simulator."""


@dataclass(frozen=True)
class Devices:
    """The GPUs found (their names), whether they are the simulator, or why none."""

    names: tuple[str, ...]
    simulated: bool = False
    reason: str = ""

    @property
    def found(self) -> bool:
        return bool(self.names)

    def describe(self) -> str:
        """One line: the GPUs found, or why there are none."""
        if self.simulated:
            return "the CUDA simulator (tests only)"
        if self.names:
            return ", ".join(self.names)
        return f"no GPU: {self.reason}"


@cache
def probe() -> Devices:
    """The CUDA devices of this process, looked up once. The simulator is on when
    :data:`SIMULATOR` was set before Numba was imported."""
    if os.environ.get(SIMULATOR, "0") in ("", "0") and not _driver_present():
        return Devices((), reason="no CUDA driver on this machine")
    try:
        from numba import cuda
        from numba.core import config
    except ImportError as error:
        return Devices((), reason=f"numba's CUDA target is missing ({error})")
    if getattr(config, "ENABLE_CUDASIM", 0):
        return Devices(("CUDA simulator",), simulated=True)
    try:
        count = len(cuda.gpus)
        names = tuple(_name(cuda.gpus[i]) for i in range(count))
    except Exception as error:  # the driver's many failures all mean "none here"
        return Devices((), reason=_first_line(str(error)) or type(error).__name__)
    if not names:
        return Devices((), reason="the CUDA driver lists no device")
    return Devices(names)


def _driver_present() -> bool:
    """A cheap look for NVIDIA's driver, before importing Numba's CUDA target (a third
    of a second) on every count."""
    return Path("/dev/nvidiactl").exists() or ctypes.util.find_library("cuda") is not None


def _name(device: object) -> str:
    name = getattr(device, "name", "GPU")
    return name.decode() if isinstance(name, bytes) else str(name)


def _first_line(message: str) -> str:
    """The first line of a driver error that says something."""
    lines = [line.strip(" :") for line in message.splitlines()]
    telling = [line for line in lines if line and not line.startswith("Error at driver init")]
    return (telling or lines or [""])[0]
