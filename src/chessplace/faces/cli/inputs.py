"""Input files read by the command line (``-``: standard input), bounded in size."""

from __future__ import annotations

import os
import stat
import sys
from typing import TextIO

from chessplace.faces.cli.exits import UsageError

STANDARD_INPUT = "-"


def read_input(name: str, what: str, limit: int) -> str:
    """The text of file ``name`` holding ``what`` ("the grid", "the placement"), at most
    ``limit`` bytes (UTF-8; a character that is not is replaced), without the
    byte-order mark some editors write first; a :class:`UsageError` when it cannot be
    read or is longer."""
    data = read_bytes(name, what, limit)
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff")


def read_bytes(name: str, what: str, limit: int) -> bytes:
    """The bytes of file ``name`` holding ``what``, at most ``limit`` of them; a
    :class:`UsageError` when it cannot be read or is longer."""
    try:
        if name == STANDARD_INPUT:
            if sys.stdin is None:
                raise UsageError(f"cannot read {what} from standard input: it is closed")
            data = _from_stream(sys.stdin, limit + 1)
        else:
            if stat.S_ISFIFO(os.stat(name).st_mode):  # open() would wait for a writer
                raise UsageError(f"cannot read {what} {name}: a FIFO, not a regular file")
            with open(name, "rb") as source:
                data = source.read(limit + 1)
    except OSError as error:
        raise UsageError(f"cannot read {what} {name}: {error.strerror or error}") from None
    if len(data) > limit:
        raise UsageError(f"{name}: more than {_size(limit)}, too long for {what}")
    return data


def _from_stream(stream: TextIO, most: int) -> bytes:
    """Up to ``most`` bytes of a text stream: from its bytes underneath where it has
    them, else (a stream in memory) its characters, encoded."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        return bytes(buffer.read(most))
    return stream.read(most).encode("utf-8", errors="replace")[:most]


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"
