"""What the checker reports: the pieces it names and the rules they break."""

from __future__ import annotations

from dataclasses import dataclass

from chessplace.core.board import Square, square_name
from chessplace.core.pieces import Piece


@dataclass(frozen=True)
class PlacedPiece:
    """One piece of one army on one square."""

    army: str
    piece: Piece
    square: Square

    def __str__(self) -> str:
        return f"{self.army} {self.piece.name} {square_name(self.square)}"


@dataclass(frozen=True)
class Attack:
    """``attacker`` attacks ``victim`` directly, breaking the problem's rules; with
    ``mutual`` the victim attacks the attacker too (one break, named once)."""

    attacker: PlacedPiece
    victim: PlacedPiece
    mutual: bool = False

    def __str__(self) -> str:
        if self.mutual:
            return f"{self.attacker} and {self.victim} attack each other"
        return f"{self.attacker} attacks {self.victim}"


@dataclass(frozen=True)
class RuleBreak:
    """A broken rule that is not an attack: counts, overlaps, uncovered squares."""

    message: str
    squares: tuple[Square, ...] = ()

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Touch(Attack):
    """Two pieces of a region puzzle side by side or corner to corner."""

    def __str__(self) -> str:
        first, second = self.attacker, self.victim
        return (
            f"{first.piece.name}s on {square_name(first.square)} and "
            f"{square_name(second.square)} touch"
        )


Violation = Attack | RuleBreak
