"""The compiled row-by-row bitboard search: generated, compiled by Numba, cached on disk.

One piece per row of an n×n board, for any piece that rides like a rook.
:mod:`chessplace.engines.bitboard.codegen` writes the search for one
:class:`~chessplace.engines.bitboard.codegen.Shape` as a Python module; this
module stores that source under the user's cache directory, named by its
own hash, and imports it, so Numba compiles each shape once per machine
and later runs load the machine code from Numba's cache. Compiling takes
seconds and cannot be interrupted in-process, so a run that may be stopped
compiles in a child process first (:func:`compile_apart`): a stop kills it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import cache
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

import numba
import numpy as np

from chessplace.core.pieces import BISHOP_DIRECTIONS, Piece
from chessplace.engines.bitboard import leaf
from chessplace.engines.bitboard.codegen import Shape, source
from chessplace.runtime.lifeline import start_child

MAX_N = 32
"""Largest board side: masks are 64-bit words and diagonals shift past the edge."""

DEATH_WAIT_SECONDS = 1.0
"""How long a child's death without an answer is taken as a possible stop on its way."""


Search = Callable[[np.ndarray, int, np.ndarray, np.ndarray], tuple[int, int]]
"""``search(forbid, first, out, stop)``: see :func:`chessplace.engines.bitboard.codegen.source`."""


def stop_flag() -> np.ndarray:
    """A fresh stop flag for searches: set its one byte and they return ``STOPPED``."""
    return np.zeros(1, dtype=np.uint8)


def shape_of(piece: Piece, n: int, collect: bool, plain: bool = False) -> Shape:
    """The compiled shape for ``piece`` on n×n: its diagonals and its further leaps
    (``plain``: counting every solution, without symmetry)."""
    diagonals = piece.ride_directions >= BISHOP_DIRECTIONS
    leaps = {
        (dx, dy)
        for dx, dy in piece.bounded_vectors
        if dy > 0 and dx != 0 and dy < n and not (diagonals and abs(dx) == dy)
    }
    return Shape(n, diagonals, tuple(sorted(leaps)), collect, plain and not collect)


_COMPILING = threading.Lock()


def compiled(shape: Shape) -> Search:
    """The search for ``shape``, compiled on first use and cached on disk."""
    with _COMPILING:  # threads of one count share one compilation
        return _compiled(shape)


def compiled_before(shape: Shape) -> bool:
    """True when this process holds the search for ``shape``, or this machine has
    compiled it for this Python and Numba."""
    return shape in _held or _ready_path(shape).exists()


def compile_apart(shape: Shape, stopped: Callable[[], bool], poll: float = 0.1) -> bool:
    """Compile the search for ``shape`` into Numba's disk cache in a child process,
    unless this machine has it already; False when ``stopped()`` came first (the
    child is killed, and the next run compiles again).

    A child that ends without an answer says nothing: when no stop follows within a
    second (a signal to the whole process group reaches the child first), the
    compilation in this process, which comes next, does the work or raises its error.
    """
    if compiled_before(shape):
        return True
    child = start_child(_compile_into_cache, shape)
    try:
        while not wait([child.receiver], timeout=poll):
            if stopped():
                return False
        try:
            return bool(child.receiver.recv())
        except EOFError:
            return not _stops_within(stopped, DEATH_WAIT_SECONDS, poll)
    finally:
        child.end()


def _stops_within(stopped: Callable[[], bool], seconds: float, poll: float) -> bool:
    """True when ``stopped()`` holds within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not stopped():
        if time.monotonic() >= deadline:
            return False
        time.sleep(min(poll, seconds))
    return True


def _compile_into_cache(sender: Any, shape: Shape) -> None:
    """The child of :func:`compile_apart`: it answers only once the search is cached."""
    try:
        _compiled(shape)
    except Exception:  # said once, by the compilation in the parent that follows
        return
    sender.send(True)


@cache
def _module_text(shape: Shape) -> str:
    """The generated source, stamped with the helpers it calls: Numba's cache
    does not notice when a called function changes, a new file name does."""
    helpers = hashlib.sha256(Path(leaf.__file__).read_bytes()).hexdigest()[:20]
    return f"# chessplace.engines.bitboard.leaf {helpers}\n{source(shape)}"


def _source_path(text: str) -> Path:
    """Where the module of source ``text`` lives: named by its hash, so a changed
    generator never meets an old compilation."""
    name = "chessplace_search_" + hashlib.sha256(text.encode()).hexdigest()[:20]
    return _cache_directory() / f"{name}.py"


def _ready_path(shape: Shape) -> Path:
    """The mark left once the search for ``shape`` has compiled (its source alone may
    be the trace of a compilation cut short), named for this Python and Numba, whose
    caches Numba keeps apart."""
    source_path = _source_path(_module_text(shape))
    tag = f"{sys.implementation.cache_tag}-numba{numba.__version__}"
    return source_path.with_name(f"{source_path.stem}.{tag}.ready")


_held: set[Shape] = set()
"""The shapes whose search this process has compiled or loaded."""


@cache
def _compiled(shape: Shape) -> Search:
    text = _module_text(shape)
    path = _source_path(text)
    name = path.stem
    if not path.exists():
        _write_whole(path, text)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Numba's disk cache finds a function's globals by importing its module.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    search: Search = module.search
    # Compile (or load from Numba's cache) now, on a board where nothing fits.
    blocked = np.full(shape.n, (1 << shape.n) - 1, dtype=np.uint64)
    search(blocked, 0, np.zeros((0, shape.n), dtype=np.int64), stop_flag())
    _held.add(shape)
    with contextlib.suppress(OSError):  # a cache turned read-only: compile again next time
        _ready_path(shape).touch()
    return search


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it: other
    processes (Dask workers) may write the same file. No temporary file is left."""
    with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".tmp", delete=False) as f:
        temporary = Path(f.name)
    try:
        temporary.write_text(text)
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


@cache
def _cache_directory() -> Path:
    """``$CHESSPLACE_CACHE``, else ``$XDG_CACHE_HOME/chessplace``, else ~/.cache/chessplace."""
    root = os.environ.get("CHESSPLACE_CACHE") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "chessplace"
    )
    directory = Path(root) / "kernels"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if os.access(directory, os.W_OK):
            return directory
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="chessplace-kernels-"))
