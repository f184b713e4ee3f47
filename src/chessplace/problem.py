"""Problems: a board, armies with their counts, and the rules between them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from chessplace.board import Board
from chessplace.pieces import Piece

ARMY_NAMES = ("white", "black", "red", "blue", "green", "yellow", "purple", "orange")


class Sense(StrEnum):
    """What ``optimize`` looks for."""

    MAXIMIZE = "maximize"
    MINIMIZE = "minimize"


@dataclass(frozen=True)
class Army:
    """Pieces of one kind and colour, with bounds on how many are placed."""

    name: str
    piece: Piece
    minimum: int = 0
    maximum: int | None = None

    def admits(self, count: int) -> bool:
        return count >= self.minimum and (self.maximum is None or count <= self.maximum)

    def describe_count(self) -> str:
        if self.maximum == self.minimum:
            return f"exactly {self.minimum}"
        if self.maximum is None:
            return f"at least {self.minimum}"
        return f"{self.minimum} to {self.maximum}"


@dataclass(frozen=True)
class Problem:
    """A placement puzzle.

    Rules: pieces of different armies never attack each other; pieces of one
    army attack each other only when ``independent`` is false; with
    ``dominating`` every square is occupied or attacked. With these rules a
    placement stays valid when a piece is removed (unless dominating), and
    blockers never change whether a placement is valid.

    ``equal_armies`` makes every army the same size; ``sense`` says whether
    ``optimize`` wants the most or the fewest pieces. The objective of a
    placement is the size of one army when armies are equal, else the total.
    """

    puzzle: str
    board: Board
    armies: tuple[Army, ...]
    independent: bool = True
    dominating: bool = False
    equal_armies: bool = False
    sense: Sense = Sense.MAXIMIZE

    def __post_init__(self) -> None:
        if not self.armies:
            raise ValueError("a problem needs at least one army")
        names = [army.name for army in self.armies]
        if len(set(names)) != len(names):
            raise ValueError(f"army names must differ: {names}")
        if self.dominating and len(self.armies) != 1:
            raise ValueError("domination is defined for a single army")
        for army in self.armies:
            if army.minimum < 0 or (army.maximum is not None and army.maximum < army.minimum):
                raise ValueError(f"{army.name}: bad count bounds {army.describe_count()}")

    @property
    def has_target(self) -> bool:
        """True when the counts say something beyond ``at least 0``."""
        return any(army.minimum > 0 or army.maximum is not None for army in self.armies)

    def with_counts(
        self,
        at_least: int | None = None,
        exactly: int | None = None,
        at_most: int | None = None,
    ) -> Problem:
        """The same puzzle with new bounds for each army (for every army alike)."""
        minimum = exactly if exactly is not None else (at_least or 0)
        maximum = exactly if exactly is not None else at_most
        armies = tuple(replace(a, minimum=minimum, maximum=maximum) for a in self.armies)
        return replace(self, armies=armies)

    def without_counts(self) -> Problem:
        """The puzzle with every count free: what ``optimize`` works on."""
        return replace(self, armies=tuple(replace(a, minimum=0, maximum=None) for a in self.armies))

    def objective(self, army_sizes: tuple[int, ...]) -> int:
        """The value ``optimize`` compares, from the size of each army."""
        return min(army_sizes) if self.equal_armies else sum(army_sizes)

    def describe(self) -> str:
        counts = ", ".join(f"{a.name} {a.piece.name}s {a.describe_count()}" for a in self.armies)
        return f"{self.puzzle} on {self.board}: {counts}"
