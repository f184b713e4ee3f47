"""The problem a command's arguments state: a problem file (``PROBLEM.json`` or
``PROBLEM.toml`` in the puzzle's place) or the puzzle and its options;
``--print-problem`` shows it as a file."""

from __future__ import annotations

import argparse

from chessplace.core.problem import Problem
from chessplace.faces.cli.exits import UsageError
from chessplace.faces.cli.regions import with_grid
from chessplace.notation.options import PROBLEM_OPTIONS, RULE_OPTIONS, problem_from_attributes
from chessplace.notation.problemfile import read_problem

PROBLEM_FILE_SUFFIXES = (".json", ".toml")
FLAGS = {"counts": "--count", "grid_file": "--grid", "image_file": "--image"}
"""Options whose flag is not their name's."""


def problem_from(arguments: argparse.Namespace) -> Problem:
    """The problem the puzzle (or problem file), board, grid, position and count
    options describe; a problem file states the whole problem, so it takes no other
    problem option."""
    if not arguments.puzzle.lower().endswith(PROBLEM_FILE_SUFFIXES):
        return problem_from_attributes(with_grid(arguments))
    given = [
        name
        for name in (*PROBLEM_OPTIONS, *RULE_OPTIONS, "grid_file", "image_file")
        if name != "grid" and getattr(arguments, name, None) not in (None, False)
    ]
    if given:
        option = given[0].replace("_", "-")
        flag = FLAGS.get(given[0], f"-{option}" if len(option) == 1 else f"--{option}")
        raise UsageError(f"{arguments.puzzle} states the whole problem: give no {flag} beside it")
    try:
        return read_problem(arguments.puzzle)
    except OSError as error:
        raise UsageError(f"cannot read {arguments.puzzle}: {error.strerror or error}") from None
    except ValueError as error:
        raise UsageError(f"{arguments.puzzle}: {error}") from None
