"""Problem files (``notation.problemfile``): a named puzzle's file and its spelled-out
form read back as one problem (files through the command line and the HTTP API:
tests/faces/cli/test_own_puzzle.py and test_problem_files.py)."""

from __future__ import annotations

from chessplace.notation.problemfile import from_data, from_text, to_text
from tests.faces.cli.test_own_puzzle import EXAMPLE


def test_a_named_file_and_its_spelled_out_form_are_one_problem() -> None:
    problem = from_data(EXAMPLE)
    assert from_text(to_text(problem)) == problem
    grid = from_data({"puzzle": "queens-game", "grid": ["aabb", "aabb", "ccdd", "ccdd"]})
    assert from_text(to_text(grid)) == grid
