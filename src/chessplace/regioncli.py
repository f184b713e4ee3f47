"""The command line of region puzzles: ``--grid``/``--stars``/``--limit`` and ``generate``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from chessplace import api
from chessplace.argtypes import ascii_int, positive_float, positive_int
from chessplace.exits import EXIT_OK, EXIT_STOPPED, UsageError
from chessplace.jsonio import result_json
from chessplace.puzzles import REGION_PUZZLES
from chessplace.regions import MAX_GRID_CHARS
from chessplace.result import Status
from chessplace.supervision import supervised
from chessplace.textboard import render_text


def _seed(text: str) -> int:
    try:
        return ascii_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, not {text!r}") from None


def add_grid_arguments(parser: argparse.ArgumentParser) -> None:
    """``--grid`` and ``--stars`` for the puzzle commands."""
    parser.add_argument(
        "--grid",
        dest="grid_file",
        metavar="FILE",
        help="queens-game, star-battle: the regions, one letter or digit per square, "
        "top rank first (or a JSON list of strings); - for stdin",
    )
    parser.add_argument(
        "--stars", type=positive_int, metavar="K", help="star-battle: K stars per row (default 1)"
    )


def add_limit_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--limit",
        type=positive_int,
        metavar="N",
        help="stop counting at N placements (--limit 2: is the solution unique?)",
    )


def with_grid(arguments: argparse.Namespace) -> argparse.Namespace:
    """The arguments with ``grid`` holding the text of ``--grid FILE`` (or ``None``)."""
    name = getattr(arguments, "grid_file", None)
    text = None if name is None else read_grid(name)
    return argparse.Namespace(**{**vars(arguments), "grid": text})


def read_grid(name: str) -> str:
    """The text of a grid file (``-``: standard input), refusing huge ones."""
    try:
        if name == "-":
            text = sys.stdin.read(MAX_GRID_CHARS + 1)
        else:
            with open(name, encoding="utf-8", errors="replace") as source:
                text = source.read(MAX_GRID_CHARS + 1)
    except OSError as error:
        raise UsageError(f"cannot read grid {name}: {error.strerror or error}") from None
    if len(text) > MAX_GRID_CHARS:
        raise UsageError(f"grid {name}: longer than {MAX_GRID_CHARS // 1024} KiB; not a grid")
    return text


GENERATE_SECONDS = 60.0
"""How long ``generate`` searches for a unique grid without ``--time-limit``."""


def add_generate_parser(commands: Any) -> None:
    generate = commands.add_parser(
        "generate", help="a new queens-game or star-battle grid with exactly one solution"
    )
    generate.add_argument("puzzle", help=f"one of: {', '.join(REGION_PUZZLES)}")
    generate.add_argument("-n", type=positive_int, required=True, help="grid size n×n")
    generate.add_argument("--stars", type=positive_int, metavar="K", help="star-battle: K per row")
    generate.add_argument("--seed", type=_seed, help="the same seed makes the same grid")
    generate.add_argument("--json", action="store_true", help="print grid and solution as JSON")
    generate.add_argument("--ascii", action="store_true", help="draw boards in plain ASCII")
    generate.add_argument(
        "--time-limit",
        type=positive_float,
        default=GENERATE_SECONDS,
        metavar="S",
        help=f"give up after S seconds (exit 3; default {GENERATE_SECONDS:.0f})",
    )
    generate.add_argument(
        "--show-solution", action="store_true", help="draw the solution on stderr too"
    )


def generate_command(arguments: argparse.Namespace) -> int:
    """``chessplace generate``: the grid on stdout (so that it can be saved and read
    back with ``--grid``), its solution drawn on it and a summary on stderr."""
    result = supervised(
        arguments.time_limit,
        lambda control: api.generate(
            arguments.puzzle,
            arguments.n,
            stars=arguments.stars,
            seed=arguments.seed,
            control=control,
        ),
    )
    if result.placement is None:
        print(
            f"chessplace: stopped before a unique grid was made ({result.seconds:.1f} s)",
            file=sys.stderr,
        )
        return EXIT_STOPPED
    problem = result.placement.problem
    assert problem.regions is not None
    if arguments.json:
        print(json.dumps(result_json(problem, "generate", result), indent=2))
        return EXIT_OK
    print("\n".join(problem.regions.rows))
    if arguments.show_solution:
        print(file=sys.stderr)
        print(render_text(result.placement, arguments.ascii), file=sys.stderr)
    seed = "" if arguments.seed is None else f" (seed {arguments.seed})"
    print(
        f"{problem.describe()}: one solution, proven{seed} · {result.solver} · "
        f"{result.seconds:.3f} s",
        file=sys.stderr,
    )
    return EXIT_OK if result.status is Status.FEASIBLE else EXIT_STOPPED
