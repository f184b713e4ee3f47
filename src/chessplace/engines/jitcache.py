"""Where Numba keeps the compiled kernels when it cannot keep them where it would.

Numba caches a ``cache=True`` function beside its source (``__pycache__``) or in
the user's cache directory (``$XDG_CACHE_HOME/numba``, ``~/.cache/numba``); with
neither writable (a read-only install and no writable home) it refuses to define
the function at all, so every command that loads an engine died. Before any
kernel is defined, :func:`ensure_cache_dir` then points ``NUMBA_CACHE_DIR`` (which
child processes inherit) at a directory of this user's under the system's
temporary directory: the kernels compile there once and are found again.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path


def ensure_cache_dir() -> None:
    """Give Numba a writable cache directory when neither of its own is writable
    (and ``NUMBA_CACHE_DIR`` names none)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    if _writable(Path(__file__).parent / "__pycache__") or _writable(_user_wide()):
        return
    fallback = _private_temporary()
    if fallback is None:  # nothing is writable: Numba says so when it compiles
        return
    os.environ["NUMBA_CACHE_DIR"] = str(fallback)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # Numba already loaded has read the environment
        setattr(config, "CACHE_DIR", str(fallback))  # noqa: B010 (mypy sees no such attribute)


def _user_wide() -> Path:
    """Numba's user-wide cache directory (its ``appdirs`` rule)."""
    if sys.platform == "darwin":
        return Path("~/Library/Caches/numba").expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "numba")


def _writable(directory: Path) -> bool:
    """Whether ``directory`` exists or can be made, and takes a file (Numba's test)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return False
    return True


def _private_temporary() -> Path | None:
    """``chessplace-numba-UID`` in the temporary directory when it is this user's own
    directory (not a link, nor another user's), else a fresh one; ``None`` when
    neither can be had."""
    shared = Path(tempfile.gettempdir(), f"chessplace-numba-{os.getuid()}")
    try:
        shared.mkdir(mode=0o700, exist_ok=True)
        info = shared.lstat()
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and _writable(shared):
            return shared
    except OSError:
        pass
    try:
        return Path(tempfile.mkdtemp(prefix="chessplace-numba-"))
    except OSError:
        return None
