"""Placements of armies on a board."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chessplace.core.board import Square, Symmetry
from chessplace.core.problem import Problem
from chessplace.core.verification import violations
from chessplace.core.violations import Violation


@dataclass(frozen=True)
class Placement:
    """The squares each army of ``problem`` occupies, in army order, and the squares
    of the pawns the answer places (``problem.free_pawns`` of them; given pawns are
    the problem's)."""

    problem: Problem
    armies: tuple[frozenset[Square], ...]
    pawns: frozenset[Square] = frozenset()

    @classmethod
    def from_squares(
        cls,
        problem: Problem,
        armies: Iterable[Iterable[Square]],
        pawns: Iterable[Square] = (),
    ) -> Placement:
        return cls(problem, tuple(frozenset(squares) for squares in armies), frozenset(pawns))

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
            self.problem,
            tuple(frozenset(map(symmetry, squares)) for squares in self.armies),
            frozenset(map(symmetry, self.pawns)),
        )

    def canonical_key(self) -> tuple[tuple[Square, ...], ...]:
        """The same key for every placement in one class under the board's symmetries
        (and renumbering armies that are interchangeable); placed pawns come last."""
        orders = [
            (*(self.armies[p.index(i)] for i in range(len(p))), self.pawns)
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
        own = (*self.armies, self.pawns)
        return self.canonical_key() == tuple(tuple(sorted(squares)) for squares in own)

    def verify(self) -> tuple[Violation, ...]:
        """Every broken rule of the problem; empty when the placement is valid."""
        return violations(self)

    def _repr_svg_(self) -> str:
        """Jupyter draws placements as boards, broken rules marked and a grid's regions
        coloured (:func:`chessplace.forms.drawing.marked_svg`)."""
        from chessplace.forms.drawing import marked_svg  # a drawing the layers allow by name

        return marked_svg(self, conflicts=True)

    def __str__(self) -> str:
        """The board as text (:func:`chessplace.forms.text.render_text`)."""
        from chessplace.forms.text import render_text  # a drawing the layers allow by name

        return render_text(self)
