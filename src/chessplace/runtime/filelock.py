"""One run at a time per file: an exclusive lock held beside a checkpoint while it is open.

The lock is an ``flock`` on a hidden file next to the checkpoint
(``.NAME.lock``), not on the checkpoint itself, because a checkpoint is
rewritten by renaming a fresh copy over it. The kernel drops the lock when
the holder exits however it ends, so a killed run never leaves it stale; the
empty lock file stays (removing it could let two runs lock two files).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class InUse(ValueError):
    """Another run holds the file."""


class FileLock:
    """Held from construction until :meth:`release`; :class:`InUse` if another run has it."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(f".{path.name}.lock")
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise InUse(f"cannot lock {path}: {error.strerror or error}") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._fd)
            self._fd = None
            raise InUse(f"{path} is in use by another chessplace run") from None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
