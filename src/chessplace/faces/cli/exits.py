"""Exit codes of the command line, and the error that means bad input.

0 answered; 1 the answer is no (infeasible, or verify found a broken rule);
2 bad input; 3 stopped by a time limit or a signal before a definite answer
(the best found so far is still printed), or before the certificate asked for was
complete (the answer is printed, no certificate written); 130 interrupted with
nothing to report (the shell's code for a Ctrl-C): while the engines load, or a
certificate check.
A reader that leaves early (a broken pipe) does not change the code of an answer
already settled (:func:`answer_written`).
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 3
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad input: reported on one line with exit code 2."""


@contextmanager
def answer_written() -> Iterator[None]:
    """Write an answer whose exit code is already settled: a reader that leaves early
    (a broken pipe, as with ``| head``) ends the writing quietly, the code unchanged."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        reader_left()


def reader_left() -> None:
    """Point standard output and standard error, where their reader has gone, at
    /dev/null (the file descriptors themselves, so that text still buffered goes
    there too): later writes and the final flush go nowhere rather than raise again.
    Standard output is the one taken to be gone when neither can be told apart."""
    out, err = _descriptor(sys.stdout), _descriptor(sys.stderr)
    gone = [fd for fd in (out, err) if fd is not None and _reader_gone(fd)]
    if not gone and out is not None:
        gone = [out]
    nowhere = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in gone:
            os.dup2(nowhere, fd)
    finally:
        os.close(nowhere)


def _descriptor(stream: TextIO | None) -> int | None:
    try:
        return None if stream is None else stream.fileno()
    except (OSError, ValueError):  # a stream in memory, or closed
        return None


def _reader_gone(fd: int) -> bool:
    """Whether ``fd`` is a pipe whose reading end is closed (poll says POLLERR)."""
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & select.POLLERR for _, events in poller.poll(0))
