"""Placements of armies on a board."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chessplace.board import Square, Symmetry
from chessplace.checking import violations
from chessplace.problem import Problem
from chessplace.violations import Violation


@dataclass(frozen=True)
class Placement:
    """The squares each army of ``problem`` occupies, in army order."""

    problem: Problem
    armies: tuple[frozenset[Square], ...]

    @classmethod
    def from_squares(cls, problem: Problem, armies: Iterable[Iterable[Square]]) -> Placement:
        return cls(problem, tuple(frozenset(squares) for squares in armies))

    @property
    def army_sizes(self) -> tuple[int, ...]:
        return tuple(len(squares) for squares in self.armies)

    @property
    def objective(self) -> int:
        return self.problem.objective(self.army_sizes)

    def __len__(self) -> int:
        return sum(self.army_sizes)

    def transformed(self, symmetry: Symmetry) -> Placement:
        """The placement mapped by one of the board's symmetries."""
        return Placement(
            self.problem, tuple(frozenset(map(symmetry, squares)) for squares in self.armies)
        )

    def canonical_key(self) -> tuple[tuple[Square, ...], ...]:
        """The same key for every placement in one class under the board's symmetries
        (and renumbering armies that are interchangeable)."""
        orders = [
            tuple(self.armies[p.index(i)] for i in range(len(p)))
            for p in self.problem.army_permutations
        ]
        return min(
            tuple(tuple(sorted(map(symmetry, squares))) for squares in armies)
            for armies in orders
            for symmetry in self.problem.symmetries()
        )

    def is_canonical(self) -> bool:
        """True for exactly one member of each class: the one :meth:`canonical_key` names.

        Filtering a stream of every placement with it keeps one per class
        without remembering the classes seen.
        """
        return self.canonical_key() == tuple(tuple(sorted(squares)) for squares in self.armies)

    def verify(self) -> tuple[Violation, ...]:
        """Every broken rule of the problem; empty when the placement is valid."""
        return violations(self)

    def _repr_svg_(self) -> str:
        """Jupyter draws placements as boards, broken rules marked and a grid's regions
        coloured: the faces' one drawing (:func:`chessplace.drawing.marked_svg`)."""
        from chessplace.drawing import marked_svg

        return marked_svg(self, conflicts=True)
