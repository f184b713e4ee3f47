"""SAT work in child processes: a stop or a time limit ends it at once (PySAT's
CaDiCaL cannot be interrupted in-process), and Ctrl-C is left to the parent."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
    """Run ``target(sender, *args)`` in a child process that ignores Ctrl-C."""
    context: Any = multiprocessing.get_context(_START_METHOD)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_deaf, args=(target, sender, *args), daemon=True)
    process.start()
    sender.close()
    return Child(process, receiver)


def _deaf(target: Callable[..., None], sender: Any, *args: Any) -> None:
    # A terminal's Ctrl-C reaches the whole process group, and PySAT installs
    # its own SIGINT handler in the child: blocking the signal keeps it out.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    target(sender, *args)
