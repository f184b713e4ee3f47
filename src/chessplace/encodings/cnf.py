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
)
"""PySAT's encodings of any bound ``sum <= k`` (and ``>= k``)."""
AT_MOST_ONE_ONLY = ("pairwise", "ladder", "bitwise")
"""PySAT encodings of ``sum <= 1`` alone: the counts and objectives here need any k."""
PAIRWISE_LIMIT = 16
"""At most one of this many literals or fewer takes one clause per pair; more, a
sequential counter. Measured on 8 unsatisfiable blocked n-queens instances of CSPLib
prob080 (n = 48, 50, 56; lines of up to 14 free squares, all pairwise with this limit):
CaDiCaL 38 s in total against 46 s with a limit of 6, Kissat 42 s against 53 s, faster on
14 of the 16 solves (2 loaded cores; benchmarks/csplib.py runs the instances)."""


def check_encoding(name: str) -> None:
    """Raise ``ValueError`` naming the encodings that work unless ``name`` is one."""
    choices = ", ".join(ENCODINGS)
    if name in AT_MOST_ONE_ONLY:
        raise ValueError(f"encoding {name!r} only encodes at most one; choose from {choices}")
    if name not in ENCODINGS:
        raise ValueError(f"unknown encoding {name!r}; choose from {choices}")


class Cnf:
    """Clauses over named variables, with ``minimum <= sum <= maximum`` on demand."""

    def __init__(self, encoding: str) -> None:
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        check_encoding(encoding)
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
        if len(lits) <= PAIRWISE_LIMIT:
            self.clauses += [[-p, -q] for i, p in enumerate(lits) for q in lits[i + 1 :]]
        else:
            self.clauses += self._card.atmost(lits, 1, vpool=self.pool, encoding=self._seq).clauses

    def bound(self, lits: list[int], minimum: int, maximum: int | None) -> None:
        """Add ``minimum <= sum(lits) <= maximum`` in the chosen encoding (an empty
        clause when no sum fits)."""
        if minimum > len(lits) or (maximum is not None and maximum < max(minimum, 0)):
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
