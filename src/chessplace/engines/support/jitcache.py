"""Where Numba keeps the compiled kernels when it cannot keep them where it would.

Numba caches a ``cache=True`` function beside its source (``__pycache__``) or in
the user's cache directory (``$XDG_CACHE_HOME/numba``, ``~/.cache/numba``); with
neither writable (a read-only install and no writable home) it refuses to define
the function at all, so every command that loads an engine died. Before any
kernel is defined, :func:`ensure_cache_dir` then points ``NUMBA_CACHE_DIR`` (which
child processes inherit) at a directory of this user's under the system's
temporary directory: the kernels compile there once and are found again.

A compilation (a kernel not in the cache yet) takes seconds to a minute, once per
machine; :func:`watch_compiles` tells :mod:`chessplace.runtime.compiling` when each
starts and ends, so that a face can say so before the wait and an answer's seconds
leave it out.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from chessplace.runtime import compiling


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


SEARCHES = {
    "chessplace.engines.lines": "the line search",
    "chessplace.engines.bitboard": "the bitboard search",
    "chessplace_search_": "the bitboard search",  # its generated modules
    "chessplace.engines.regions": "the region search",
    "chessplace.engines.support.coversearch": "the cover search",
    "chessplace.engines.heuristic": "the local search",
    "chessplace.engines.gpu.burnside": "the symmetric-solution search of the GPU count",
}
"""The search a compiled function belongs to, by its module's name (prefix)."""

_watching = threading.Lock()
_watched: list[bool] = []


def search_of(module: str) -> str | None:
    """The words for the search whose kernel lives in ``module``; ``None`` for Numba's
    own helpers, compiled inside a kernel's compilation or for a caller's own code."""
    found = (words for prefix, words in SEARCHES.items() if module.startswith(prefix))
    return next(found, "a search" if module.startswith("chessplace") else None)


def watch_compiles() -> None:
    """Report Numba's compilations (a cache miss each, never a load from the cache) to
    :mod:`chessplace.runtime.compiling`; called by each kernel module (importing Numba
    is left to them: it takes half a second)."""
    with _watching:
        if _watched:
            return
        from numba.core import event

        class Compilations(event.Listener):
            def on_start(self, happened: Any) -> None:
                dispatcher = happened.data["dispatcher"]
                compiling.started(search_of(getattr(dispatcher.py_func, "__module__", "")))

            def on_end(self, happened: Any) -> None:
                compiling.ended()

        event.register("numba:compile", Compilations())  # type: ignore[no-untyped-call]
        _watched.append(True)
