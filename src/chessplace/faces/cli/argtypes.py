"""Types of command-line values: each turns text into a value or an argparse error."""

from __future__ import annotations

import argparse
import math
import re
import sys

from chessplace.faces.web.limits import LEAST_MEMORY_MB
from chessplace.runtime.clipping import clipped


def ascii_int(text: str) -> int:
    """An optionally signed run of ASCII digits (``int`` alone also takes other scripts'
    digits, underscores and spaces); ``ValueError`` otherwise."""
    body = _unsigned(text)
    if not body or not body.isascii() or not body.isdigit() or len(body) > MAX_DIGITS:
        raise ValueError(text)
    return int(text)


def _unsigned(text: str) -> str:
    return text[1:] if text[:1] in "+-" else text


MAX_DIGITS = 30
"""The longest number read: far past any board, count or limit chessplace accepts."""

SHOWN_CHARS = 40
"""The most of a bad value an error message repeats."""


def shown(text: str) -> str:
    """``text`` quoted for an error message, cut short when long."""
    return repr(clipped(text, SHOWN_CHARS))


def not_a(what: str, text: str) -> str:
    """The error for ``text`` that should have been ``what`` ("a count")."""
    body = _unsigned(text)
    if body.isascii() and body.isdigit() and len(body) > MAX_DIGITS:
        return f"expected {what} of at most {MAX_DIGITS} digits, not one of {len(body):,}"
    return f"expected {what}, not {shown(text)}"


def positive_int(text: str) -> int:
    try:
        value = ascii_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_a("a positive integer", text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {value}")
    return value


def count_limit(text: str) -> int:
    """A limit of a count or a listing: what ``islice`` and the counters take."""
    value = positive_int(text)
    if value > sys.maxsize:
        raise argparse.ArgumentTypeError(f"expected at most {sys.maxsize:,}, not {value:,}")
    return value


MAX_WORKERS = 256
"""The most local threads or processes ``--workers`` may ask for."""


def worker_count(text: str) -> int:
    value = positive_int(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_WORKERS} workers, not {value}")
    return value


def reserved_workers(text: str) -> int:
    """A number of workers that may be 0 (none reserved)."""
    value = count_value(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_WORKERS} workers, not {value}")
    return value


def count_value(text: str) -> int:
    try:
        value = ascii_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_a("a count", text)) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a count cannot be negative: {value}")
    return value


ASCII_FLOAT = re.compile(r"([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")


def positive_float(text: str) -> float:
    try:
        if not ASCII_FLOAT.fullmatch(text):
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {shown(text)}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(
            f"a time limit must be positive and finite, not {shown(text)}"
        )
    return value


def memory_cap(text: str) -> int:
    value = positive_int(text)
    if value < LEAST_MEMORY_MB:
        raise argparse.ArgumentTypeError(
            f"a worker needs at least {LEAST_MEMORY_MB} MiB, not {value}"
        )
    return value


def port_number(text: str) -> int:
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, not {value}")
    return value


def task_side(text: str) -> tuple[str, int]:
    task, _, side = text.partition("=")
    if not side:
        raise argparse.ArgumentTypeError(f"expected TASK=N, not {shown(text)}")
    return task, positive_int(side)


def file_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file name, not an empty one")
    return text
