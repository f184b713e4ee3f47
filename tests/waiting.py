"""Waiting for a state, not for a time: what the tests do instead of sleeping.

A fixed sleep is a guess at how long something takes, and a loaded machine (two
cores shared with the engines' children) loses such guesses. ``wait_until`` polls
for the state itself, with a deadline generous enough never to be the reason a
sound test fails, and says which state never came when one does not.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

PATIENCE = 300.0
"""Seconds to wait for a state by default: ample on a loaded machine (only a test
that fails waits this long)."""

WORK_PATIENCE = 900.0
"""Seconds to wait for a state that takes real work (chunks of a search in a journal):
it comes at the pace of the CPU the machine has left."""


def wait_until(
    predicate: Callable[[], T],
    *,
    what: str | Callable[[], str],
    timeout: float = PATIENCE,
    every: float = 0.05,
    alive: subprocess.Popen[Any] | None = None,
) -> T:
    """Poll ``predicate`` until it returns something true, and return that.

    Raise ``AssertionError`` naming ``what`` (called for its words when it is a
    function, so it can show the last state seen) when ``timeout`` seconds pass
    first, or when the process ``alive`` ends first (the state can then never
    come)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if alive is not None and alive.poll() is not None:
            ended = f"the process ended first (exit {alive.returncode})"
            raise AssertionError(f"{_words(what)}: never happened; {ended}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{_words(what)}: never happened in {timeout:g} s")
        time.sleep(every)  # the pace of the polling, not a guess at a duration


def _words(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()
