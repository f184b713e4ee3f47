"""Input files read by the command line (``-``: standard input), bounded in size."""

from __future__ import annotations

import sys

from chessplace.cli.exits import UsageError

STANDARD_INPUT = "-"


def read_input(name: str, what: str, limit: int) -> str:
    """The text of file ``name`` holding ``what`` ("the grid", "the placement"), at most
    ``limit`` characters, without the byte-order mark some editors write first; a
    :class:`UsageError` when it cannot be read or is longer."""
    try:
        if name == STANDARD_INPUT:
            if sys.stdin is None:
                raise UsageError(f"cannot read {what} from standard input: it is closed")
            text = sys.stdin.read(limit + 1)
        else:
            with open(name, encoding="utf-8", errors="replace") as source:
                text = source.read(limit + 1)
    except OSError as error:
        raise UsageError(f"cannot read {what} {name}: {error.strerror or error}") from None
    if len(text) > limit:
        raise UsageError(f"{name}: more than {_size(limit)}, too long for {what}")
    return text.removeprefix("\ufeff")


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"
