"""A run's control (``runtime.control``): its time limit is a positive, finite number."""

from __future__ import annotations

import pytest

from chessplace.runtime.control import Control


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 0.0, -1.0])
def test_a_time_limit_is_positive_and_finite(bad: float) -> None:
    with pytest.raises(ValueError, match="positive and finite"):
        Control(bad)
