"""Known values (OEIS and classic results), shared by tests, benchmarks and the demo."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files


@cache
def _table() -> dict[str, dict[str, object]]:
    text = files("chessplace").joinpath("data/oeis.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def known(sequence: str, n: int) -> int | None:
    """Term ``n`` of a stored sequence, or ``None`` beyond what is stored."""
    entry = _table()[sequence]
    values = entry["values"]
    assert isinstance(values, list)
    index = n - int(entry["offset"])  # type: ignore[call-overload]
    return int(values[index]) if 0 <= index < len(values) else None


def terms(sequence: str) -> dict[int, int]:
    """Every stored term of a sequence, by n."""
    entry = _table()[sequence]
    values = entry["values"]
    assert isinstance(values, list)
    offset = int(entry["offset"])  # type: ignore[call-overload]
    return {offset + i: int(v) for i, v in enumerate(values)}
