"""Values quoted in messages, cut short so that a huge or hostile one is not echoed whole."""

from __future__ import annotations


def clipped(text: str, most: int) -> str:
    """``text``, or its first characters and "..." when it is longer than ``most``."""
    return text if len(text) <= most else text[: most - 3] + "..."
