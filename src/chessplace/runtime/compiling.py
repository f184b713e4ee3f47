"""Time spent compiling the searches, kept apart from the time spent solving.

The compiled searches (Numba) compile on their first run on a machine and load from
a cache afterwards: the first run of a 1×1 problem took 34 s, the second 0.1 s.
Engines say when a compilation starts and ends (:func:`started`, :func:`ended`, or
:func:`compiling` around one); :func:`seconds_between` says how much of a stretch
of time went to compiling, so that an answer's seconds leave it out; and a face that
wants to tell its user before the wait registers a listener (:func:`on_compile`),
told once per search and process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str], None]
"""Told the search that starts compiling, as words: ``"the line search"``."""

_lock = threading.Lock()
_spans: list[tuple[float, float]] = []
"""Finished compilations, as ``time.perf_counter()`` spans, in the order they ended."""
_open: dict[int, tuple[float, int]] = {}
"""Per thread: when its outermost compilation started, and how deep it is nested."""
_told: set[str] = set()
_listeners: list[Listener] = []


def on_compile(listener: Listener) -> Callable[[], None]:
    """Tell ``listener`` when a search first compiles in this process (once per search);
    returns the function that removes it."""
    with _lock:
        _listeners.append(listener)

    def remove() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return remove


def notice(what: str) -> str:
    """What a face says before the wait: ``compiling the line search (first run only:
    later runs load it from a cache)…``."""
    return f"compiling {what} (first run only: later runs load it from a cache)…"


def started(what: str | None) -> None:
    """A compilation of ``what`` (``"the line search"``; ``None``: not worth a word)
    starts in this thread."""
    thread = threading.get_ident()
    with _lock:
        begun, depth = _open.get(thread, (time.perf_counter(), 0))
        _open[thread] = (begun, depth + 1)
        if depth or what is None or what in _told:
            return
        _told.add(what)
        listeners = list(_listeners)
    for listener in listeners:
        listener(what)


def ended() -> None:
    """The compilation last started in this thread has ended."""
    thread = threading.get_ident()
    with _lock:
        if thread not in _open:
            return
        begun, depth = _open.pop(thread)
        if depth > 1:
            _open[thread] = (begun, depth - 1)
        else:
            _spans.append((begun, time.perf_counter()))


@contextmanager
def compiling(what: str | None) -> Iterator[None]:
    """Count the time inside as compiling ``what`` (a child process's compilation)."""
    started(what)
    try:
        yield
    finally:
        ended()


def seconds_between(start: float, end: float) -> float:
    """Seconds of ``time.perf_counter()``'s ``start`` to ``end`` during which some
    thread was compiling (overlapping compilations counted once)."""
    now = time.perf_counter()
    with _lock:
        spans = [*_spans, *((begun, now) for begun, _ in _open.values())]
    total, reached = 0.0, start
    for begun, finished in sorted(spans):
        begun, finished = max(begun, reached), min(finished, end)
        if finished > begun:
            total += finished - begun
            reached = finished
    return total
