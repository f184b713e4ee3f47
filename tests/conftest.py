"""Shared helpers for the tests."""

from __future__ import annotations

from chessplace.placement import Placement
from chessplace.result import Result


def assert_valid(result: Result) -> Placement:
    """The result carries a placement that the independent checker accepts."""
    assert result.placement is not None, result
    violations = result.placement.verify()
    assert violations == (), [str(v) for v in violations]
    return result.placement
