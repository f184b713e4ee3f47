"""Where a count made of parts got to, and the result it answers (the bitboard and GPU
counters both)."""

from __future__ import annotations

from dataclasses import dataclass

from chessplace.core.result import Result, Status


@dataclass(frozen=True)
class Tally:
    """Where a count got to."""

    solutions: int
    canonical: int
    finished: bool
    resumed: int

    def result(self, engine: str, unique: bool, parts: str) -> Result:
        """The count as ``engine``'s answer: complete or partial, the classes only when
        asked for and finished, a note of the ``parts`` a checkpoint gave back."""
        return Result(
            Status.COMPLETE if self.finished else Status.PARTIAL,
            engine,
            count=self.solutions,
            unique=self.canonical if unique and self.finished else None,
            note=f"resumed {self.resumed} finished {parts}" if self.resumed else "",
        )
