"""The user's rules in a spelled problem file: the top-level list ``counts``,
``rules.no_attack`` and ``board.regions``, read and written.

```json
{"counts": [{"army": "white", "squares": ["a1", "b2"], "at_most": 1},
            {"squares": "each rank", "exactly": 2}],
 "rules": {"no_attack": [["white", "black"]]},
 "board": {"regions": ["AABB", "AABB", "CCDD", "CCDD"]}}
```

Every wrong key, type or name is a ``ValueError`` in one line that names it.
"""

from __future__ import annotations

from typing import Any

from chessplace.core.board import Square, parse_square, square_name
from chessplace.core.problem import Problem
from chessplace.core.rules import FAMILIES, MAX_COUNT_RULES, CountRule

COUNT_KEYS = frozenset({"army", "squares", "at_least", "at_most", "exactly"})

Cover = tuple[int, int | None]
"""How many times each square to dominate is covered: (at least, at most)."""


def counts_from_data(value: Any) -> tuple[CountRule, ...]:
    """The ``counts`` list of a problem file."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError("counts: expected a list of count rules")
    if len(value) > MAX_COUNT_RULES:
        raise ValueError(
            f"counts: {len(value):,} rules; a problem takes at most {MAX_COUNT_RULES:,}"
        )
    return tuple(_count_rule(item, f"counts.{index}") for index, item in enumerate(value))


def _count_rule(item: Any, where: str) -> CountRule:
    if not isinstance(item, dict):
        raise ValueError(f"{where}: expected an object with squares and a bound")
    _known_keys(item, COUNT_KEYS, where)
    army = item.get("army")
    if army is not None and not isinstance(army, str):
        raise ValueError(f"{where}.army: expected an army's name")
    low, high = _bounds(item, where)
    if low is None and high is None:
        raise ValueError(f"{where}: give exactly, at_least or at_most")
    squares = _squares(item.get("squares"), where)
    try:
        return CountRule(squares, low or 0, high, army)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _squares(value: Any, where: str) -> frozenset[Square] | str:
    if isinstance(value, str):
        if value not in FAMILIES:
            raise ValueError(
                f"{where}.squares: {value[:30]!r} is not one of {', '.join(FAMILIES)} "
                "(or a list of squares)"
            )
        return value
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ValueError(
            f"{where}.squares: expected a list of squares or one of {', '.join(FAMILIES)}"
        )
    try:
        return frozenset(parse_square(name) for name in value)
    except ValueError as error:
        raise ValueError(f"{where}.squares: {error}") from None


def no_attack_from_data(value: Any) -> tuple[tuple[str, str], ...] | None:
    """``rules.no_attack``: a list of ``[attacker, target]`` army names."""
    if value is None:
        return None
    pairs = value if isinstance(value, list) else None
    if pairs is None or not all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, str) for n in pair)
        for pair in pairs
    ):
        raise ValueError("rules.no_attack: expected a list of [attacker, target] army names")
    return tuple((attacker, target) for attacker, target in pairs)


def areas_from_data(value: Any) -> tuple[str, ...] | None:
    """``board.regions``: one string per rank, the top rank first."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(row, str) for row in value):
        raise ValueError("board.regions: expected a list of strings, one per rank, the top first")
    return tuple(value)


def counts_to_data(problem: Problem) -> list[dict[str, Any]]:
    """The ``counts`` list that reads back as ``problem.counts``."""
    found = []
    for rule in problem.counts:
        item: dict[str, Any] = {}
        if rule.army is not None:
            item["army"] = rule.army
        if isinstance(rule.squares, str):
            item["squares"] = rule.squares
        else:
            ordered = sorted(rule.squares, key=lambda s: (s[1], s[0]))
            item["squares"] = [square_name(s) for s in ordered]
        if rule.at_most == rule.at_least:
            item["exactly"] = rule.at_least
        else:
            if rule.at_least:
                item["at_least"] = rule.at_least
            if rule.at_most is not None:
                item["at_most"] = rule.at_most
            if not rule.at_least and rule.at_most is None:
                item["at_least"] = 0
        found.append(item)
    return found


COVER_KEYS = frozenset({"squares", "exactly", "at_least", "at_most", "by"})


def cover_from_data(value: dict[str, Any], armies: list[str]) -> tuple[bool | list[Any], Cover]:
    """``rules.dominating`` as an object: which squares (``"all"`` or a list) and how
    many times each is covered; ``(True or the listed squares, (at_least, at_most))``."""
    _known_keys(value, COVER_KEYS, "rules.dominating")
    by = value.get("by")
    if by is not None and by not in armies:
        raise ValueError(f"rules.dominating.by: {str(by)[:30]!r} is not an army of the problem")
    squares = value.get("squares", "all")
    if squares != "all" and not isinstance(squares, list):
        raise ValueError('rules.dominating.squares: expected "all" or a list of squares')
    low, high = _bounds(value, "rules.dominating")
    return (True if squares == "all" else squares), (1 if low is None else low, high)


def cover_to_data(problem: Problem, listed: list[str] | None) -> dict[str, Any]:
    """``rules.dominating`` as an object, for a problem whose squares are covered other
    than at least once."""
    low, high = problem.cover
    data: dict[str, Any] = {"squares": "all" if listed is None else listed}
    if low == high:
        data["exactly"] = low
    else:
        data["at_least"] = low
        if high is not None:
            data["at_most"] = high
    return data


def _known_keys(item: dict[str, Any], keys: frozenset[str], where: str) -> None:
    for key in item:
        if key not in keys:
            raise ValueError(
                f"{where}.{str(key)[:30]}: unknown key (known: {', '.join(sorted(keys))})"
            )


def _bounds(item: dict[str, Any], where: str) -> tuple[int | None, int | None]:
    """``(at_least, at_most)`` from ``exactly`` or ``at_least`` and ``at_most`` (``None``
    where not given), whole numbers, never ``exactly`` beside the others."""
    bounds = {key: item.get(key) for key in ("exactly", "at_least", "at_most")}
    for key, bound in bounds.items():
        if bound is not None and (not isinstance(bound, int) or isinstance(bound, bool)):
            raise ValueError(f"{where}.{key}: expected a whole number")
    exactly = bounds["exactly"]
    if exactly is None:
        return bounds["at_least"], bounds["at_most"]
    if bounds["at_least"] is not None or bounds["at_most"] is not None:
        raise ValueError(f"{where}: exactly with at_least or at_most; give one or the others")
    return exactly, exactly
