"""The command line of region puzzles: ``--grid``/``--stars``/``--limit``, ``generate``,
``explain`` and ``hint``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from chessplace.core.board import square_name
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.regions import MAX_GRID_CHARS
from chessplace.core.result import Result, Status
from chessplace.faces.cli.argtypes import (
    ascii_int,
    count_limit,
    not_a,
    positive_float,
    positive_int,
)
from chessplace.faces.cli.exits import EXIT_NO, EXIT_OK, EXIT_STOPPED, UsageError, answer_written
from chessplace.faces.cli.images import read_image_grid
from chessplace.faces.cli.inputs import STANDARD_INPUT, read_input
from chessplace.faces.cli.supervision import stop_on_interrupt, supervised
from chessplace.faces.explain import explain
from chessplace.forms.jsonio import read_placement, result_json
from chessplace.forms.text import render_text
from chessplace.making import new_puzzle
from chessplace.notation.puzzles import REGION_PUZZLES, region_puzzle
from chessplace.regions.deduction import GRADES, Explanation
from chessplace.runtime.control import Control


def _seed(text: str) -> int:
    try:
        return ascii_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_a("an integer seed", text)) from None


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
        "--image",
        dest="image_file",
        metavar="FILE",
        help="queens-game, star-battle: the grid read from a screenshot of it (PNG, JPEG, "
        "WebP, GIF, BMP; needs Pillow), in place of --grid",
    )
    parser.add_argument(
        "--stars", type=positive_int, metavar="K", help="star-battle: K stars per row (default 1)"
    )


def add_limit_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--limit",
        type=count_limit,
        metavar="N",
        help="stop counting at N placements (--limit 2: is the solution unique?)",
    )


def with_grid(arguments: argparse.Namespace) -> argparse.Namespace:
    """The arguments with ``grid`` holding the text of ``--grid FILE`` or the grid read
    from ``--image FILE`` (or ``None``)."""
    return argparse.Namespace(**{**vars(arguments), "grid": grid_text(arguments)})


def grid_text(arguments: argparse.Namespace) -> str | None:
    """The grid of ``--grid FILE``, or the one read from the screenshot ``--image FILE``."""
    name = getattr(arguments, "grid_file", None)
    image = getattr(arguments, "image_file", None)
    if name is not None and image is not None:
        raise UsageError("--grid and --image both give the grid: give one")
    if image is not None:
        return read_image_grid(image)
    return None if name is None else read_grid(name)


def read_grid(name: str, what: str = "the grid") -> str:
    """The text of a grid file, or of ``what`` else it holds (``-``: standard input)."""
    return read_input(name, what, MAX_GRID_CHARS)


GENERATE_SECONDS = 60.0
"""How long ``generate`` searches for a unique grid without ``--time-limit``."""
MANY_STARS_SECONDS = 300.0
"""The same with three or more stars per line (a 14×14 3-star grid takes minutes), or
from :data:`LARGE_GRID` a side (a 17×17 Queens game took 2.5 to 88 s, seeds 0..2)."""
LARGE_GRID = 15


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
        metavar="S",
        help=f"give up after S seconds (exit 3; default {GENERATE_SECONDS:.0f}, "
        f"{MANY_STARS_SECONDS:.0f} with 3 or more stars or from {LARGE_GRID}×{LARGE_GRID})",
    )
    generate.add_argument(
        "--show-solution", action="store_true", help="draw the solution on stderr too"
    )
    generate.add_argument(
        "--difficulty",
        choices=GRADES,
        help="only a grid the deduction rules (see explain) solve with this grade",
    )


def generate_limit(time_limit: float | None, stars: int | None, n: int) -> float:
    """``--time-limit``, or without it the default for that many stars per line and
    that size."""
    if time_limit is not None:
        return time_limit
    return GENERATE_SECONDS if (stars or 1) < 3 and n < LARGE_GRID else MANY_STARS_SECONDS


def generate_command(arguments: argparse.Namespace) -> int:
    """``chessplace generate``: the grid on stdout (so that it can be saved and read
    back with ``--grid``), its solution drawn on it and a summary on stderr."""
    result = supervised(
        generate_limit(arguments.time_limit, arguments.stars, arguments.n),
        lambda control: new_puzzle.generate(
            arguments.puzzle,
            arguments.n,
            stars=arguments.stars,
            seed=arguments.seed,
            control=control,
            difficulty=arguments.difficulty,
        ),
    )
    if result.placement is None:
        made = "a unique grid"
        if arguments.difficulty is not None:
            made += f" the rules solve at '{arguments.difficulty}'"
        print(
            f"chessplace: stopped before {made} was made ({result.seconds:.1f} s)",
            file=sys.stderr,
        )
        return EXIT_STOPPED
    with answer_written():
        _show_generated(arguments, result.placement, result)
    return EXIT_OK if arguments.json or result.status is Status.FEASIBLE else EXIT_STOPPED


def _show_generated(arguments: argparse.Namespace, placement: Placement, result: Result) -> None:
    """The grid as JSON, or as rows on stdout with its summary (and solution) on stderr."""
    problem = placement.problem
    assert problem.regions is not None
    if arguments.json:
        print(json.dumps(result_json(problem, "generate", result), indent=2))
        return
    print("\n".join(problem.regions.rows))
    if arguments.show_solution:
        print(file=sys.stderr)
        print(render_text(placement, arguments.ascii), file=sys.stderr)
    seed = "" if arguments.seed is None else f" (seed {arguments.seed})"
    print(
        f"{problem.describe()}: one solution, proven{seed}, {result.note.split('; ')[-1]} · "
        f"{result.solver} · "
        f"{result.seconds:.3f} s",
        file=sys.stderr,
    )


def add_explain_parsers(commands: Any) -> None:
    """``explain`` (every step of a human solution) and ``hint`` (the next step)."""
    explain = commands.add_parser(
        "explain", help="solve a queens-game or star-battle grid step by step, by named rules"
    )
    hint = commands.add_parser("hint", help="the next step of a human solution")
    for parser in (explain, hint):
        parser.add_argument("puzzle", help=f"one of: {', '.join(REGION_PUZZLES)}")
        add_grid_arguments(parser)
        parser.add_argument("--json", action="store_true", help="print the steps as JSON")
        parser.add_argument(
            "--time-limit",
            type=positive_float,
            metavar="S",
            help="stop the rules after S seconds (a large Star Battle grid that needs "
            "guessing has every square tried)",
        )
    hint.add_argument(
        "--placed",
        metavar="FILE",
        help="pieces placed so far: a board or JSON, as verify reads (- for stdin)",
    )


def explain_command(arguments: argparse.Namespace) -> int:
    """``chessplace explain``: each step with its rule, then the grade."""
    problem = _region_problem(arguments)
    found = _explained(arguments, problem)
    if found.dead_end is not None:
        return _no_solution(arguments, problem, found)
    with answer_written():
        if arguments.json:
            print(json.dumps(_explanation_json(problem, found), indent=2))
        else:
            for number, step in enumerate(found.steps, 1):
                print(f"{number:3}. [{step.grade}] {step}")
            if not found.stopped:
                verdict = "solved by the rules alone" if found.solved else "the rules stop here"
                print(f"{verdict}: {found.grade} ({len(found.steps)} steps)")
    if found.stopped:
        return _stopped(arguments, found)
    return EXIT_OK if found.solved else EXIT_NO


def hint_command(arguments: argparse.Namespace) -> int:
    """``chessplace hint``: the easiest next step from the pieces placed so far."""
    if arguments.placed == STANDARD_INPUT and STANDARD_INPUT in (
        arguments.grid_file,
        arguments.image_file,
    ):
        raise UsageError("the grid and --placed cannot both be read from standard input")
    problem = _region_problem(arguments)
    placement = None
    if arguments.placed is not None:
        placement = read_placement(problem, read_grid(arguments.placed, "the placed pieces"))
    found = _explained(arguments, problem, placement)
    if found.dead_end is not None:
        return _no_solution(arguments, problem, found)
    step = found.steps[0] if found.steps else None
    if step is None and found.stopped:
        return _stopped(arguments, found)
    with answer_written():
        if arguments.json:
            data = {"task": "hint", "step": step.to_json() if step else None}
            print(json.dumps(data if step else data | {"solved": found.solved}, indent=2))
        elif step is not None:
            print(f"[{step.grade}] {step}")
        elif found.solved:
            print("solved: every piece is placed and no rule is broken")
        else:
            print("no rule applies here: the next move needs a guess")
    return EXIT_OK if step is not None or found.solved else EXIT_NO


def _explained(
    arguments: argparse.Namespace, problem: Problem, placement: Placement | None = None
) -> Explanation:
    """The rules applied within ``--time-limit``; a first Ctrl-C or SIGTERM stops them
    as the limit does, keeping the steps found so far (a second one aborts)."""
    control = Control(arguments.time_limit)
    with stop_on_interrupt(control, "stopping: reporting the steps found so far"):
        return explain(problem, placement, control)


def _no_solution(arguments: argparse.Namespace, problem: Problem, found: Explanation) -> int:
    """No solution holds the pieces placed, or the grid has none: say why (exit 1)."""
    with answer_written():
        if arguments.json:
            data = _explanation_json(problem, found)
            if arguments.command == "hint":
                data = {"task": "hint", "step": None, "solved": False} | {
                    key: data[key] for key in ("dead_end", "misplaced")
                }
            print(json.dumps(data | {"message": found.dead_end_text()}, indent=2))
        else:
            print(found.dead_end_text())
    return EXIT_NO


def _stopped(arguments: argparse.Namespace, found: Explanation) -> int:
    """The rules were stopped (time limit, Ctrl-C or SIGTERM) before they finished."""
    limit = f" (--time-limit {arguments.time_limit:g})" if arguments.time_limit else ""
    steps = len(found.steps)
    print(f"chessplace: the rules were stopped after {steps} steps{limit}", file=sys.stderr)
    return EXIT_STOPPED


def _region_problem(arguments: argparse.Namespace) -> Problem:
    if arguments.puzzle not in REGION_PUZZLES:
        raise UsageError(f"{arguments.command} takes {' or '.join(REGION_PUZZLES)}")
    text = grid_text(arguments)
    if text is None:
        raise UsageError(
            f"{arguments.puzzle} needs a grid of regions (--grid FILE or --image FILE)"
        )
    return region_puzzle(arguments.puzzle, text, arguments.stars)


def _explanation_json(problem: Problem, found: Explanation) -> dict[str, Any]:
    assert problem.regions is not None
    return {
        "task": "explain",
        "puzzle": problem.puzzle,
        "grid": list(problem.regions.rows),
        "stars": problem.regions.per_line,
        "solved": found.solved,
        "stopped": found.stopped,
        "dead_end": found.dead_end,
        "misplaced": [square_name(s) for s in found.misplaced],
        "grade": None if found.stopped and found.dead_end is None else found.grade,
        "steps": [step.to_json() for step in found.steps],
        "pieces": [square_name(s) for s in found.pieces],
    }
