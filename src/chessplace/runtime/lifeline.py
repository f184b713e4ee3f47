"""Child processes that die with their parent, whatever ends it (SIGKILL included).

Used for SAT work (a stop or a time limit ends it at once: PySAT's solvers
cannot be interrupted in-process), and, through :func:`fan_out` (many jobs,
a bounded number of children at once), for the certificate's proof-logging
solves and for the checker's proof checks; it decides nothing about answers
or verdicts. Ctrl-C is left to the parent.

On Linux a child asks the kernel for SIGKILL when its parent goes
(``prctl(PR_SET_PDEATHSIG)``). The kernel sends it when the *thread* that
forked the child ends, not the whole process: that is right here, because a
child is started and ended (:meth:`Child.end`, in a ``finally``) by one call
in one thread, so the forking thread outlives its children unless the
process itself is ending. Where prctl is missing there is no cheap fallback:
PySAT holds the GIL for a whole ``solve()``, so a watchdog thread in the child
would never run; such children still end whenever the parent exits through
Python (multiprocessing terminates daemonic children at exit), which the
command line's SIGTERM handling and second Ctrl-C both do.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

_PR_SET_PDEATHSIG = 1
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


def start_child(target: Callable[..., None], *args: Any) -> Child:
    """Run ``target(sender, *args)`` in a child process that ignores Ctrl-C, takes
    SIGTERM as an ordinary process does, and dies with this process."""
    context: Any = multiprocessing.get_context(_START_METHOD)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_run_as_child, args=(os.getpid(), target, sender, *args), daemon=True
    )
    # A stop that came during the fork would be raised inside the fork's own
    # handlers, where Python ignores exceptions, and be lost: it waits until after.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    sender.close()
    return Child(process, receiver)


_STOPS = {signal.SIGINT, signal.SIGTERM}
"""The signals that stop a run."""


def fan_out(
    target: Callable[..., None],
    jobs: Sequence[tuple[Any, ...]],
    cores: Callable[[], int],
    stopped: Callable[[], bool] = lambda: False,
    poll: float = 0.1,
) -> Generator[tuple[int, Any], None, None]:
    """Run ``target(sender, *job)`` for every job, each in its own child (:func:`start_child`),
    at most ``cores()`` at once; yield ``(index, answer)`` as children finish, the answer
    being the one object the child sent, or ``None`` when it died without one.

    Ends early, starting nothing more, once ``stopped()`` (asked every ``poll``
    seconds). Children still running when the iteration ends, however it ends,
    are killed: close the iterator (``contextlib.closing``) when leaving it early.
    """
    waiting = deque(enumerate(jobs))
    running: dict[Any, tuple[int, Child]] = {}
    try:
        while waiting or running:
            if stopped():
                return
            while waiting and len(running) < max(1, cores()):
                index, job = waiting.popleft()
                child = start_child(target, *job)
                running[child.receiver] = (index, child)
            for ready in wait(list(running), timeout=poll):
                index, child = running.pop(ready)
                try:
                    answer = child.receiver.recv()
                except EOFError:
                    answer = None
                finally:
                    child.end()
                yield index, answer
    finally:
        for _, child in running.values():
            child.end()


def _run_as_child(parent: int, target: Callable[..., None], sender: Any, *args: Any) -> None:
    """The body of every :func:`start_child` child: :func:`become_child`, then the work."""
    become_child(parent)
    target(sender, *args)


def become_child(parent: int) -> None:
    """What a child process of ours does first (the parent started it with SIGINT and
    SIGTERM blocked, so that a stop during the start waits for this): leave Ctrl-C
    to the parent, die of SIGTERM, and die with the parent ``parent``.

    A terminal's Ctrl-C reaches the whole process group, and PySAT installs its
    own SIGINT handler in a child: keeping the signal blocked keeps it out. The
    parent's own SIGTERM handler (a stop, or an interrupt) is not the child's.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, {signal.SIGINT})
    _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """Ask for SIGKILL when the parent ``parent`` ends; leave at once if it already has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    # The parent may have died between the fork and the prctl call: then this
    # child was already adopted by another process and no signal will come.
    if os.getppid() != parent:
        os._exit(1)
