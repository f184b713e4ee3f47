"""Building CNF for PySAT: a variable pool, clauses and cardinality bounds."""

from __future__ import annotations

from collections.abc import Hashable

ENCODINGS = (
    "seqcounter",
    "sortnetwrk",
    "cardnetwrk",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
    "ladder",
    "pairwise",
)
_PAIRWISE_LIMIT = 6


class Cnf:
    """Clauses over named variables, with ``minimum <= sum <= maximum`` on demand."""

    def __init__(self, encoding: str) -> None:
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self._card = CardEnc
        self._encoding = getattr(EncType, encoding)
        self._seq = EncType.seqcounter

    def named(self, key: Hashable) -> int:
        """The variable called ``key`` (created on first use)."""
        return int(self.pool.id(key))

    def knows(self, key: Hashable) -> bool:
        return key in self.pool.obj2id

    def fresh(self) -> int:
        """A new auxiliary variable."""
        return self.named(("aux", self.pool.top + 1))

    def at_most_one(self, lits: list[int]) -> None:
        if len(lits) <= _PAIRWISE_LIMIT:
            self.clauses += [[-p, -q] for i, p in enumerate(lits) for q in lits[i + 1 :]]
        else:
            self.clauses += self._card.atmost(lits, 1, vpool=self.pool, encoding=self._seq).clauses

    def bound(self, lits: list[int], minimum: int, maximum: int | None) -> None:
        """Add ``minimum <= sum(lits) <= maximum`` in the chosen encoding."""
        if minimum > len(lits):
            self.clauses.append([])
            return
        if minimum > 0:
            self.clauses += self._card.atleast(
                lits, minimum, vpool=self.pool, encoding=self._encoding
            ).clauses
        if maximum is not None and maximum < len(lits):
            self.clauses += self._card.atmost(
                lits, maximum, vpool=self.pool, encoding=self._encoding
            ).clauses
