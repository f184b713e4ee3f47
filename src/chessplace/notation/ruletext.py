"""The user's rules in words, as the command line and the named-puzzle problem file
state them: count rules (``--count "each rank=2"``, ``--count "white:a1,a2,b1,b2<=1"``),
one-way attack pairs (``--no-attack white:black``; ``none``: armies may attack each
other) and board regions (``--regions AABB,AABB,CCDD,CCDD``).

A count rule is written ``[ARMY:]SQUARES OP K``: SQUARES is ``all``, ``each rank``
(or ``each-rank``), ``each file``, ``each region`` or a comma list of squares; OP is
``=``, ``<=`` or ``>=``; K a whole number no larger than the board's squares. A
problem file may give a list of such texts or the spelled form's objects
(:mod:`chessplace.notation.rulefile`). :class:`~chessplace.core.problem.Problem` checks
the rest (armies by name, the regions' shape) and says what is wrong in one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chessplace.core.board import MAX_SQUARE_NAME, Square, parse_square, square_name
from chessplace.core.problem import Problem
from chessplace.core.rules import FAMILIES, MAX_COUNT_RULES, CountRule
from chessplace.notation.rulefile import counts_from_data, no_attack_from_data
from chessplace.runtime.clipping import clipped

RuleListing = str | Sequence[Any] | None
"""Rules as one text, a list of texts (or of the spelled form's values); ``None``: none."""

OPERATORS = ("<=", ">=", "=")
"""The comparisons a count rule's text may use, the two-character ones first."""

SPELLING = "[ARMY:]SQUARES OP K, as 'each rank=2' or 'white:a1,b2<=1'"
"""How a count rule is written, for error messages."""

NO_ATTACK_NONE = "none"
"""``--no-attack none``: no pair forbidden, armies may attack each other."""


def with_rules(
    problem: Problem,
    counts: RuleListing = None,
    no_attack: RuleListing = None,
    regions: RuleListing = None,
) -> Problem:
    """``problem`` with the count rules, attack pairs and board regions named added;
    ``ValueError`` with one line for the user on anything wrong."""
    if counts is None and no_attack is None and regions is None:
        return problem
    rules = problem.counts + count_rules(counts, problem.board.size)
    pairs = problem.no_attack if no_attack is None else attack_pairs(no_attack)
    areas = problem.areas if regions is None else region_rows(regions)
    return replace(problem, counts=rules, no_attack=pairs, areas=areas)


def count_rules(listing: RuleListing, squares: int) -> tuple[CountRule, ...]:
    """Count rules from their texts or the spelled form's objects (a list may mix
    them); ``squares``, the board's, bounds K and the lists."""
    if listing is None:
        return ()
    if isinstance(listing, str):
        return (count_rule(listing, squares),)
    if not isinstance(listing, (list, tuple)):
        raise ValueError(f"counts: expected a list of rules, not {_shown(listing)}")
    if len(listing) > MAX_COUNT_RULES:
        raise ValueError(
            f"counts: {len(listing):,} rules; a problem takes at most {MAX_COUNT_RULES:,}"
        )
    return tuple(_count_item(item, index, squares) for index, item in enumerate(listing))


def _count_item(item: Any, index: int, squares: int) -> CountRule:
    """A rule's text, or the spelled form's object read as ``counts.INDEX``."""
    if isinstance(item, str):
        return count_rule(item, squares)
    try:
        return counts_from_data([item])[0]
    except ValueError as error:
        raise ValueError(str(error).replace("counts.0", f"counts.{index}")) from None


def count_rule(text: str, squares: int) -> CountRule:
    """The rule ``[ARMY:]SQUARES OP K`` says, on a board of ``squares`` squares."""
    where = f"count {clipped(repr(text), 40)}"
    if not text.strip():
        raise ValueError(f"count: an empty rule; write {SPELLING}")
    if len(text) > squares * (MAX_SQUARE_NAME + 1) + 100:
        raise ValueError(f"count: a rule of {len(text):,} characters, too long for the board")
    at = next((i for i, char in enumerate(text) if char in "<>="), None)
    if at is None:
        raise ValueError(f"{where}: no =, <= or >= before the count; write {SPELLING}")
    operator = next(op for op in (*OPERATORS, text[at]) if text.startswith(op, at))
    if operator not in OPERATORS:
        raise ValueError(f"{where}: {operator!r} is no comparison: use =, <= or >=")
    left, bound = text[:at], text[at + len(operator) :].strip()
    army: str | None = None
    if ":" in left:
        named, _, left = left.rpartition(":")
        army = named.strip()
        if not army:
            raise ValueError(f"{where}: no army's name before ':'; write {SPELLING}")
    k = _bound(bound, where, squares)
    low, high = {"=": (k, k), "<=": (0, k), ">=": (k, None)}[operator]
    chosen = _squares(left, where)
    try:
        return CountRule(chosen, low, high, army)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _bound(text: str, where: str, squares: int) -> int:
    """K: ASCII digits, no more than the board's squares."""
    if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
        raise ValueError(f"{where}: the count cannot be negative: {clipped(text, 20)}")
    if not text or not text.isascii() or not text.isdigit():
        shown = clipped(repr(text), 30) if text else "nothing"
        raise ValueError(f"{where}: expected a whole number after the comparison, not {shown}")
    if len(text) > len(str(squares)) or int(text) > squares:
        raise ValueError(f"{where}: {clipped(text, 20)} is more than the board's {squares} squares")
    return int(text)


def _squares(text: str, where: str) -> frozenset[Square] | str:
    """A family (``each rank``, ``each-rank``, ``all``) or a comma list of squares."""
    words = " ".join(text.lower().replace("-", " ").replace("_", " ").split())
    if words in FAMILIES:
        return words
    if not words:
        raise ValueError(f"{where}: no squares before the comparison; write {SPELLING}")
    found: set[Square] = set()
    for name in (part.strip() for part in text.split(",")):
        try:
            square = parse_square(name)
        except ValueError:
            raise ValueError(
                f"{where}: {clipped(repr(name), 30)} is no square; name squares (a1,b2) "
                "or all, each-rank, each-file, each-region"
            ) from None
        if square in found:
            raise ValueError(f"{where}: {square_name(square)} is listed twice")
        found.add(square)
    return frozenset(found)


def attack_pairs(listing: RuleListing) -> tuple[tuple[str, str], ...]:
    """``(attacker, target)`` pairs from ``ATTACKER:TARGET`` texts (or the spelled
    form's ``[attacker, target]`` lists); ``none`` alone: no pair, the armies may attack
    each other. Whether the armies exist the problem checks."""
    if isinstance(listing, str):
        listing = [listing]
    if not isinstance(listing, (list, tuple)):
        raise ValueError(f"no_attack: expected ATTACKER:TARGET pairs, not {_shown(listing)}")
    if not all(isinstance(item, str) for item in listing):
        found = no_attack_from_data(list(listing))
        return () if found is None else found
    words = [item.strip() for item in listing]
    if NO_ATTACK_NONE in (word.lower() for word in words):
        if len(words) > 1:
            raise ValueError("no-attack: 'none' lets every army attack every other; give it alone")
        return ()
    pairs: list[tuple[str, str]] = []
    for word in words:
        attacker, colon, target = word.partition(":")
        if not colon or not attacker.strip() or not target.strip():
            raise ValueError(
                f"no-attack {clipped(repr(word), 40)}: write ATTACKER:TARGET, as white:black "
                "(the attacker may not attack the target), or none"
            )
        pairs.append((attacker.strip(), target.strip()))
    return tuple(pairs)


def region_rows(listing: RuleListing) -> tuple[str, ...]:
    """Board regions: rows of letters, top rank first, as ``AABB,AABB,CCDD,CCDD`` or a
    list of strings; their shape against the board the problem checks."""
    if isinstance(listing, str):
        if not listing.strip():
            raise ValueError(
                "regions: none given; write one row of letters per rank, top rank first, "
                "as AABB,AABB,CCDD,CCDD"
            )
        return tuple(row.strip() for row in listing.split(","))
    if not isinstance(listing, (list, tuple)) or not all(isinstance(r, str) for r in listing):
        raise ValueError("regions: expected rows of letters, one per rank, the top rank first")
    return tuple(listing)


def _shown(value: object) -> str:
    return clipped(repr(value), 40)
