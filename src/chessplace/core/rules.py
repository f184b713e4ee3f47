"""Rules a user states beyond the named puzzles: counts of pieces on sets of squares,
and the areas of a board that the family ``"each region"`` counts over.

A :class:`CountRule` says "the pieces (of one army, or of all) on these squares number
at least / at most / exactly k". Its squares are a set of squares or a family: ``"all"``
(the whole board, one rule), ``"each rank"``, ``"each file"`` or ``"each region"`` (one
rule per member). :func:`count_groups` expands a problem's rules into the groups every
checker and encoding states once each.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from chessplace.core.board import Board, Square, file_name, square_name

FAMILIES = ("all", "each rank", "each file", "each region")
"""The names a count rule may give instead of a set of squares."""

MAX_COUNT_RULES = 10_000
"""The most count rules a problem takes (a rule per square of a 100×100 board)."""

MAX_BOUND = 1_000_000
"""The largest bound a count rule takes: no answer holds more pieces (``MAX_PIECES``)."""


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {str(value)[:30]}")
    if value > MAX_BOUND:
        raise ValueError(
            f"{what} {str(value)[:30]} is more than chessplace handles ({MAX_BOUND:,})"
        )
    return value


@dataclass(frozen=True)
class CountRule:
    """The pieces of ``army`` (``None``: of every army) on ``squares`` number from
    ``at_least`` to ``at_most`` (``None``: no upper bound); ``squares`` is a frozenset of
    squares or one of :data:`FAMILIES`, a rule for each of its members."""

    squares: frozenset[Square] | str
    at_least: int = 0
    at_most: int | None = None
    army: str | None = None

    def __post_init__(self) -> None:
        low = _whole(self.at_least, "a count rule's lower bound")
        if low < 0:
            raise ValueError(f"a count rule's lower bound cannot be negative: {low}")
        if self.at_most is not None:
            high = _whole(self.at_most, "a count rule's upper bound")
            if high < low:
                raise ValueError(f"a count rule asks at least {low} and at most {high}")
        if isinstance(self.squares, str):
            if self.squares not in FAMILIES:
                raise ValueError(
                    f"unknown squares {self.squares!r}: list squares or name one of "
                    + ", ".join(repr(f) for f in FAMILIES)
                )
        else:
            object.__setattr__(self, "squares", frozenset(self.squares))
            if not self.squares:
                raise ValueError("a count rule needs at least one square")

    @property
    def bounds(self) -> str:
        """``exactly 2``, ``at least 1``, ``at most 3`` or ``1 to 3``."""
        if self.at_most == self.at_least:
            return f"exactly {self.at_least}"
        if self.at_most is None:
            return f"at least {self.at_least}"
        if self.at_least == 0:
            return f"at most {self.at_most}"
        return f"{self.at_least} to {self.at_most}"

    def admits(self, count: int) -> bool:
        return count >= self.at_least and (self.at_most is None or count <= self.at_most)

    def noun(self, army: str | None) -> str:
        """``pieces`` (of ``army``), singular after a bound of 1 (``exactly 1 piece``)."""
        one = (self.at_most if self.at_most is not None else self.at_least) == 1
        word = "piece" if one else "pieces"
        return f"{army} {word}" if army else word

    def describe(self) -> str:
        """The rule in words, as errors and descriptions show it."""
        who = self.noun(self.army)
        if isinstance(self.squares, str):
            where = "on the board" if self.squares == "all" else f"on {self.squares}"
        else:
            names = sorted(self.squares, key=lambda s: (s[1], s[0]))
            where = "on " + ",".join(square_name(s) for s in names)
        return f"{self.bounds} {who} {where}"


@dataclass(frozen=True)
class CountGroup:
    """One expanded count rule: ``label`` names the squares (``rank 3``, ``region B``,
    ``a1,b2``), ``army`` the army's number (``None``: every army)."""

    label: str
    army: int | None
    squares: frozenset[Square]
    rule: CountRule


def check_areas(areas: tuple[str, ...], board: Board) -> tuple[str, ...]:
    """``areas`` (one string per rank, the top rank first, one letter or digit per
    square) checked against ``board``: ``ValueError`` in one line when its shape or
    letters are wrong."""
    if isinstance(areas, str) or not all(isinstance(row, str) for row in areas):
        raise ValueError("board regions must be a list of strings, one per rank")
    rows = tuple(areas)
    if len(rows) != board.rows:
        raise ValueError(f"board regions have {len(rows)} rows, the board has {board.rows} ranks")
    for number, row in enumerate(rows):
        if len(row) != board.cols:
            raise ValueError(
                f"board regions row {number + 1} has {len(row)} letters, "
                f"the board has {board.cols} files"
            )
        bad = next((c for c in row if not c.isascii() or not c.isalnum()), None)
        if bad is not None:
            raise ValueError(f"board regions row {number + 1}: {bad!r} is not a letter or digit")
    return rows


def area_of(areas: tuple[str, ...], square: Square) -> str:
    """The letter of the area holding ``square``."""
    return areas[len(areas) - 1 - square[1]][square[0]]


def count_groups(
    rules: tuple[CountRule, ...],
    board: Board,
    areas: tuple[str, ...] | None,
    army_number: Mapping[str, int],
) -> Iterator[CountGroup]:
    """Every group the rules count over, families expanded; ``ValueError`` for a rule
    naming an army the problem lacks or ``"each region"`` without board regions."""
    for rule in rules:
        if rule.army is not None and rule.army not in army_number:
            raise ValueError(
                f"count rule names army {rule.army!r}; the armies are " + ", ".join(army_number)
            )
        army = None if rule.army is None else army_number[rule.army]
        for label, squares in _members(rule.squares, board, areas):
            yield CountGroup(label, army, squares, rule)


def _members(
    squares: frozenset[Square] | str, board: Board, areas: tuple[str, ...] | None
) -> Iterator[tuple[str, frozenset[Square]]]:
    if not isinstance(squares, str):
        for square in squares:
            if not board.contains(square):
                raise ValueError(
                    f"count rule square {square_name(square)} is off the {board} board"
                )
        names = sorted(squares, key=lambda s: (s[1], s[0]))
        yield ",".join(square_name(s) for s in names), squares
    elif squares == "all":
        yield "the board", frozenset(board.squares())
    elif squares == "each rank":
        for rank in range(board.rows):
            yield f"rank {rank + 1}", frozenset((f, rank) for f in range(board.cols))
    elif squares == "each file":
        for file in range(board.cols):
            yield f"file {file_name(file)}", frozenset((file, r) for r in range(board.rows))
    else:
        if areas is None:
            raise ValueError('a count rule on "each region" needs board regions')
        members: dict[str, set[Square]] = {}
        for square in board.squares():
            members.setdefault(area_of(areas, square), set()).add(square)
        for letter in sorted(members):
            yield f"region {letter}", frozenset(members[letter])
