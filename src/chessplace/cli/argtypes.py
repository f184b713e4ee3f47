"""Types of command-line values: each turns text into a value or an argparse error."""

from __future__ import annotations

import argparse
import math
import re


def ascii_int(text: str) -> int:
    """An optionally signed run of ASCII digits (``int`` alone also takes other scripts'
    digits, underscores and spaces); ``ValueError`` otherwise."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit() or len(body) > MAX_DIGITS:
        raise ValueError(text)
    return int(text)


MAX_DIGITS = 30
"""The longest number read: far past any board, count or limit chessplace accepts."""


def positive_int(text: str) -> int:
    try:
        value = ascii_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {value}")
    return value


MAX_WORKERS = 256
"""The most local threads or processes ``--workers`` may ask for."""


def worker_count(text: str) -> int:
    value = positive_int(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_WORKERS} workers, not {value}")
    return value


def count_value(text: str) -> int:
    try:
        value = ascii_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a count, not {text!r}") from None
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
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"a time limit must be positive and finite, not {text}")
    return value


def port_number(text: str) -> int:
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, not {value}")
    return value


def task_side(text: str) -> tuple[str, int]:
    task, _, side = text.partition("=")
    if not side:
        raise argparse.ArgumentTypeError(f"expected TASK=N, not {text!r}")
    return task, positive_int(side)


def file_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file name, not an empty one")
    return text
