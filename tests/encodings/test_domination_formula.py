"""The domination formula (``encodings.formulas``): its symmetry breaking keeps a member
of every class (and removes images), and the Hilbert order visits each square once."""

from __future__ import annotations

import pytest

from chessplace import Board, Problem, piece_from_text, puzzles
from chessplace.encodings.formulas import DominationFormula, hilbert_order

SQUARE = Board.square


def _classes(problem: Problem, break_symmetry: bool) -> list[object]:
    """One canonical key per model of the formula (every model enumerated)."""
    from pysat.solvers import Solver

    formula = DominationFormula(problem, "sortnetwrk", break_symmetry=break_symmetry)
    keys = []
    placement_vars = formula.army(0)
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            keys.append(formula.decode(model).canonical_key())
            chosen = set(v for v in model if v > 0)
            solver.add_clause([-v if v in chosen else v for v in placement_vars])
    return keys


@pytest.mark.parametrize(
    ("board", "piece", "size"),
    [(SQUARE(4), "Q", 2), (SQUARE(4), "Q", 3), (SQUARE(5), "Q", 3), (Board(3, 4), "K", 2)],
)
def test_symmetry_breaking_keeps_every_orbit(board: Board, piece: str, size: int) -> None:
    problem = puzzles.dominating(board, piece_from_text(piece)).with_counts(exactly=size)
    everything = _classes(problem, break_symmetry=False)
    broken = _classes(problem, break_symmetry=True)
    assert set(broken) == set(everything)
    assert len(broken) < len(everything)  # it does remove images


@pytest.mark.parametrize("board", [SQUARE(1), SQUARE(7), Board(3, 10), Board(9, 2)], ids=str)
def test_hilbert_order_visits_every_square_once(board: Board) -> None:
    assert sorted(hilbert_order(board)) == list(range(board.size))
