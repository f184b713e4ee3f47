"""Child processes that die with their parent, whatever ends it (SIGKILL included).

On Linux a child asks the kernel for SIGKILL when its parent goes
(``prctl(PR_SET_PDEATHSIG)``). The kernel sends it when the *thread* that
forked the child ends, so the thread that starts children must outlive them
unless the process itself is ending. Used by the SAT children and by the
certificate checker's proof-checking workers; it decides nothing about
answers or verdicts.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Ask for SIGKILL when the parent ``parent`` ends; leave at once if it already has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    # The parent may have died between the fork and the prctl call: then this
    # child was already adopted by another process and no signal will come.
    if os.getppid() != parent:
        os._exit(1)
