"""The problem the options describe (``notation.options.problem_from_options``): the
rules as text and as a problem file's values are one problem, and a bad value is one
line naming where it is (the same options on the command line:
tests/faces/cli/test_own_rules.py)."""

from __future__ import annotations

from typing import Any

import pytest

from chessplace.notation.options import problem_from_options


def test_the_rules_take_a_problem_files_values() -> None:
    """What a named-puzzle problem file would hold: texts, the spelled form's objects and
    pairs, and rows of regions as a list."""
    rows = ["AABB", "AABB", "CCDD", "CCDD"]
    as_text = problem_from_options(
        "peaceable-queens",
        n=4,
        counts=["black:each rank<=1"],
        no_attack=["white:black"],
        regions=",".join(rows),
    )
    as_data = problem_from_options(
        "peaceable-queens",
        n=4,
        counts=[{"army": "black", "squares": "each rank", "at_most": 1}],
        no_attack=[["white", "black"]],
        regions=rows,
    )
    assert as_text == as_data
    assert as_text.no_attack == (("white", "black"),) and as_text.areas == tuple(rows)
    free = problem_from_options("peaceable-queens", n=4, no_attack=[])
    assert free.no_attack == () and free.one_way


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"counts": 5}, "counts: expected a list of rules"),
        ({"counts": [{"squares": "each rank"}]}, "counts.0: give exactly, at_least or at_most"),
        ({"counts": ["all=1", 2]}, "counts.1: expected an object"),
        ({"counts": ["all=1", {"squares": "x", "exactly": 1}]}, "counts.1.squares: 'x' is not"),
        ({"counts": [None] * 10_001}, "a problem takes at most 10,000"),
        ({"no_attack": 5}, "no_attack: expected ATTACKER:TARGET pairs"),
        ({"no_attack": [["white"]]}, "rules.no_attack: expected a list of [attacker, target]"),
        ({"regions": 5}, "regions: expected rows of letters"),
        ({"regions": ["AAAA", 5]}, "regions: expected rows of letters"),
    ],
)
def test_bad_rule_values_are_one_line(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=r"^[^\n]*$") as raised:
        problem_from_options("queens", n=4, **options)
    assert message in str(raised.value)
