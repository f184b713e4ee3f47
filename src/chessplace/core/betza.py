"""Betza notation for pieces that move alike in every direction.

An atom names a basic step: ``W`` (1,0), ``F`` (1,1), ``D`` (2,0), ``N`` (2,1),
``A`` (2,2), ``H`` (3,0), ``C`` (3,1), ``Z`` (3,2), ``G`` (3,3). A doubled atom
rides (``WW`` is the rook, ``NN`` the nightrider); a number after an atom
limits the ride to that many steps (``W0``, like a ride that crosses the largest
board, rides without limit). ``K``, ``R``, ``B`` and ``Q`` are shorthands, and
atoms concatenate into compounds (``QN`` is the amazon). Directional modifiers
(lower-case letters) are not supported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chessplace.core.board import MAX_SIDE

Vector = tuple[int, int]

ATOMS: dict[str, Vector] = {
    "W": (1, 0),
    "F": (1, 1),
    "D": (2, 0),
    "N": (2, 1),
    "A": (2, 2),
    "H": (3, 0),
    "C": (3, 1),
    "Z": (3, 2),
    "G": (3, 3),
}

# Shorthand → (atom, reach) pairs; reach None rides without limit.
SHORTHANDS: dict[str, tuple[tuple[str, int | None], ...]] = {
    "K": (("W", 1), ("F", 1)),
    "R": (("W", None),),
    "B": (("F", None),),
    "Q": (("W", None), ("F", None)),
}

_TOKEN = re.compile(r"([A-Z])(\1?)([0-9]*)")


@dataclass(frozen=True, order=True)
class Move:
    """One step repeated up to ``reach`` times in all its directions.

    ``step`` is stored in canonical form ``(a, b)`` with ``a >= b >= 0``;
    ``reach`` is 1 for a leaper, ``None`` for an unlimited rider.
    """

    step: Vector
    reach: int | None

    @property
    def directions(self) -> frozenset[Vector]:
        """Every signed, swapped image of the step (4 or 8 vectors)."""
        a, b = self.step
        return frozenset(
            (sx * x, sy * y) for x, y in ((a, b), (b, a)) for sx in (1, -1) for sy in (1, -1)
        )

    def within(self, longest: int) -> Move:
        """This move on a board whose longest side is ``longest`` squares: a limited
        ride that reaches across it becomes an unlimited one (leaps stay leaps)."""
        if (
            self.reach is not None
            and self.reach > 1
            and self.reach >= (longest - 1) // self.step[0]
        ):
            return Move(self.step, None)
        return self

    def within_steps(self, steps: int) -> Move:
        """This move on a board where no ride of it takes more than ``steps`` steps before
        it leaves the board or comes back round to its first square: a limited ride
        that reaches that far is unlimited."""
        if self.reach is not None and self.reach > 1 and self.reach >= steps:
            return Move(self.step, None)
        return self

    def notation(self) -> str:
        atom = next(name for name, vector in ATOMS.items() if vector == self.step)
        if self.reach == 1:
            return atom
        if self.reach is None:
            return atom + atom
        return f"{atom}{self.reach}"


def parse_betza(text: str) -> frozenset[Move]:
    """Moves of a piece in Betza notation; raises ``ValueError`` with the reason."""
    source = text.strip()
    if not source:
        raise ValueError("empty Betza notation")
    moves: dict[Vector, int | None] = {}
    position = 0
    while position < len(source):
        match = _TOKEN.match(source, position)
        if not match:
            raise ValueError(_explain_bad_character(source, position))
        letter, doubled, digits = match.groups()
        for atom, reach in _expand(letter, bool(doubled), digits):
            step = ATOMS[atom]
            moves[step] = _longer(moves.get(step, 0), reach)
        position = match.end()
    return frozenset(Move(step, reach) for step, reach in moves.items())


def _expand(letter: str, doubled: bool, digits: str) -> tuple[tuple[str, int | None], ...]:
    if letter in ATOMS:
        if doubled and digits:
            raise ValueError(f"{letter}{letter}{digits}: use either a doubled atom or a range")
        if doubled:
            return ((letter, None),)
        return ((letter, _reach(digits, default=1)),)
    if letter in SHORTHANDS and not doubled:
        if not digits:
            return SHORTHANDS[letter]
        return tuple((atom, _reach(digits, default=1)) for atom, _ in SHORTHANDS[letter])
    raise ValueError(f"unknown Betza atom {letter + ('' if not doubled else letter)!r}")


def _reach(digits: str, default: int) -> int | None:
    """The ride's limit; ``None`` (unlimited) for 0 and for rides that cross any board."""
    if not digits:
        return default
    significant = digits.lstrip("0")
    if not significant or len(significant) > len(str(MAX_SIDE)):
        return None
    value = int(significant)
    return None if value >= MAX_SIDE else value


def _longer(old: int | None, new: int | None) -> int | None:
    if old is None or new is None:
        return None
    return max(old, new)


def shown(text: str, width: int = 40) -> str:
    """``repr(text)``, cut to about ``width`` characters so error messages stay one short line."""
    return repr(text) if len(text) <= width else repr(text[:width]) + "…"


def _explain_bad_character(source: str, position: int) -> str:
    char = source[position]
    if char.islower():
        return (
            f"Betza modifier {char!r} in {shown(source)} is not supported: chessplace handles "
            "pieces that move alike in every direction"
        )
    return f"unexpected {char!r} in Betza notation {shown(source)}"
