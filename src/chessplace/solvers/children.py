"""SAT work in child processes: a stop or a time limit ends it at once (PySAT's
CaDiCaL cannot be interrupted in-process), and Ctrl-C is left to the parent.

Every child dies with its parent, whatever ends the parent (SIGKILL included,
:mod:`chessplace.lifeline`). The kernel's signal comes when the *thread* that
forked the child ends, not the whole process: that is right here, because a
child is started and ended (:meth:`Child.end`, in a ``finally``) by one engine
call in one thread, so the forking thread outlives its children unless the
process itself is ending. Where prctl is missing there is no cheap fallback:
PySAT holds the GIL for a whole ``solve()``, so a watchdog thread in the child
would never run; such children still end whenever the parent exits through
Python (multiprocessing terminates daemonic children at exit), which the
command line's SIGTERM handling and second Ctrl-C both do.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chessplace.lifeline import die_with_parent

_START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


@dataclass(frozen=True)
class Child:
    """A running child and the pipe end its answers arrive on."""

    process: Any
    receiver: Any

    def end(self) -> None:
        """Kill the child if it still runs, and release it."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.receiver.close()


def start(target: Callable[..., None], *args: Any) -> Child:
    """Run ``target(sender, *args)`` in a child process that ignores Ctrl-C
    and dies with this process."""
    context: Any = multiprocessing.get_context(_START_METHOD)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_deaf, args=(os.getpid(), target, sender, *args), daemon=True)
    process.start()
    sender.close()
    return Child(process, receiver)


def _deaf(parent: int, target: Callable[..., None], sender: Any, *args: Any) -> None:
    # A terminal's Ctrl-C reaches the whole process group, and PySAT installs
    # its own SIGINT handler in the child: blocking the signal keeps it out.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    die_with_parent(parent)
    target(sender, *args)
