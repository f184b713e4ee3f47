"""The ``chessplace`` command line: argument parsing; exit codes in :mod:`.exits`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from chessplace.core.board import Shape
from chessplace.export import FORMATS
from chessplace.faces.cli.argtypes import (
    count_value,
    file_path,
    memory_cap,
    port_number,
    positive_float,
    positive_int,
    reserved_workers,
    task_side,
    worker_count,
)
from chessplace.faces.cli.exits import UsageError
from chessplace.faces.cli.regions import (
    add_explain_parsers,
    add_generate_parser,
    add_grid_arguments,
    add_limit_argument,
)
from chessplace.faces.web.limits import DEFAULT_SECONDS
from chessplace.notation.problemfile import FORMS
from chessplace.notation.puzzles import PUZZLES, REGION_PUZZLES


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _puzzle_arguments(parser: argparse.ArgumentParser) -> None:
    _problem_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.add_argument("--ascii", action="store_true", help="draw boards in plain ASCII")
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        help="stop after S seconds and report the best answer so far",
    )


def _problem_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "puzzle",
        help=f"one of: {', '.join([*PUZZLES, *REGION_PUZZLES])}; or a problem file, "
        "PROBLEM.json or PROBLEM.toml (see --print-problem)",
    )
    parser.add_argument(
        "--print-problem",
        nargs="?",
        const="json",
        choices=FORMS,
        metavar="json|toml",
        help="print the problem file these options mean (JSON, or TOML), and stop",
    )
    parser.add_argument("-n", type=positive_int, help="board size n×n")
    parser.add_argument("--rows", type=positive_int, help="ranks of a rectangular board")
    parser.add_argument("--cols", type=positive_int, help="files of a rectangular board")
    parser.add_argument(
        "--shape",
        type=str.lower,
        choices=[shape.value for shape in Shape],
        help="how the edges join: plane (none, the default), torus (both pairs: every ride "
        "wraps round) or cylinder (the first and last files: rides along ranks wrap)",
    )
    parser.add_argument(
        "--torus",
        action="store_true",
        default=None,
        help="short for --shape torus",
    )
    parser.add_argument(
        "--piece", help="piece name or Betza notation (independent, peaceable, dominating)"
    )
    parser.add_argument(
        "--armies", type=positive_int, metavar="K", help="number of peaceable armies (default 2)"
    )
    parser.add_argument(
        "--white",
        type=count_value,
        metavar="W",
        help="peaceable: exactly W white pieces, the other armies as large as they can be",
    )
    add_grid_arguments(parser)
    _position_arguments(parser)
    _rule_arguments(parser)


def _position_arguments(parser: argparse.ArgumentParser) -> None:
    """The position the puzzle starts from (see :mod:`chessplace.notation.position`)."""
    parser.add_argument(
        "--blocked",
        metavar="SQUARES",
        help="squares no piece may stand on, rides passing over them: a1,c3",
    )
    parser.add_argument(
        "--given",
        metavar="PIECES",
        help="pieces every answer keeps, counted in their army: letter and square, upper "
        "case for the first (white) army, lower case for the second (Qd1,qe8; the letter "
        "as text boards draw the piece); ARMY:SQUARE for any army (red:d4)",
    )
    parser.add_argument(
        "--pawns",
        metavar="SQUARES|K",
        help="neutral pawns that stop every ride through their square: b2,c5; "
        "queens-and-pawns: the number K of pawns the answer places",
    )
    parser.add_argument(
        "--dominate",
        metavar="SQUARES",
        help="every answer occupies or attacks these squares (a1,b2), and no others need "
        "be: domination of listed squares, for one army (dominating-queens: the fewest "
        "queens that cover them)",
    )


def _rule_arguments(parser: argparse.ArgumentParser) -> None:
    """The user's rules (see :mod:`chessplace.notation.ruletext`)."""
    parser.add_argument(
        "--count",
        dest="counts",
        action="append",
        metavar="RULE",
        help="a count rule, [ARMY:]SQUARES OP K: SQUARES all, each-rank, each-file, "
        "each-region or a list (a1,b2), OP =, <= or >= ('each rank=2', "
        "'white:a1,a2,b1,b2<=1'); repeat for more",
    )
    parser.add_argument(
        "--no-attack",
        action="append",
        metavar="ATTACKER:TARGET",
        help="no piece of army ATTACKER may attack one of TARGET (white:black), the other "
        "way free unless also given; repeat for more; none: armies may attack each other",
    )
    parser.add_argument(
        "--regions",
        metavar="ROWS",
        help="board regions for --count each-region: a letter per square, rows top rank "
        "first, comma-separated (AABB,AABB,CCDD,CCDD)",
    )


def _solver_arguments(parser: argparse.ArgumentParser, heuristic: bool = False) -> None:
    chooser = parser.add_mutually_exclusive_group()
    chooser.add_argument("--solver", help="engine to use (see `chessplace solvers`)")
    if heuristic:
        chooser.add_argument(
            "--heuristic",
            action="store_const",
            const="heuristic",
            dest="solver",
            help="local search for large peaceable boards (= --solver heuristic): "
            "fast, unproven; optimize searches until --time-limit (60 s by default)",
        )
    parser.add_argument(
        "--encoding",
        help="cardinality encoding for the sat solver "
        "(totalizer, seqcounter, sortnetwrk, cardnetwrk, ...)",
    )
    parser.add_argument(
        "--sat-backend",
        help="SAT solver for the sat engine (cadical195, kissat404, glucose42, ...)",
    )


def _count_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--at-least", type=count_value, metavar="M", help="at least M pieces (in each army)"
    )
    group.add_argument(
        "--exactly", type=count_value, metavar="M", help="exactly M pieces (in each army)"
    )
    group.add_argument(
        "--at-most", type=count_value, metavar="M", help="at most M pieces (in each army)"
    )


def _render_arguments(parser: argparse.ArgumentParser, *flags: str, required: bool = False) -> None:
    parser.add_argument(
        *flags,
        dest="render",
        metavar="FILE",
        type=file_path,
        required=required,
        help="draw the board to FILE.svg or FILE.png",
    )
    parser.add_argument(
        "--show-attacks",
        action="store_true",
        help="tint the squares the pieces attack in the drawing",
    )


def _checkpoint_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        type=file_path,
        help="record finished subproblems; resume from them after an interruption",
    )


def _cluster_arguments(parser: argparse.ArgumentParser, engine: str) -> None:
    parser.add_argument(
        "--workers",
        type=worker_count,
        help=f"{engine}: local worker threads, or LocalCluster processes (default: every core)",
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help=f"{engine} on a Dask cluster: a scheduler address (tcp://HOST:8786), "
        "or 'local' for a LocalCluster",
    )


def _export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", required=True, choices=FORMATS, help="file format")
    parser.add_argument(
        "-o", "--output", type=file_path, help="file to write (default or -: standard output)"
    )
    parser.add_argument("--encoding", help="dimacs: cardinality encoding (as for the sat engine)")
    parser.add_argument(
        "--no-symmetry", action="store_true", help="dimacs: leave out the symmetry breaking"
    )


def _certificate_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--certificate",
        metavar="DIR",
        type=file_path,
        help="write a certificate of a proven answer into DIR (see `chessplace check`)",
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chessplace")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="chessplace", description="Solve chess-placement puzzles.")
    parser.add_argument("--version", action="version", version=f"chessplace {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    solve = commands.add_parser("solve", help="find one placement")
    _puzzle_arguments(solve)
    solve.add_argument(
        "--why",
        action="store_true",
        help="when there is no placement, name a minimal set of the given pieces and "
        "blocked squares that cannot be completed (drawn with --render)",
    )
    _count_arguments(solve)
    _solver_arguments(solve, heuristic=True)
    _render_arguments(solve, "--render")
    _cluster_arguments(solve, "the line engine (peaceable riders)")
    _checkpoint_argument(solve)
    _certificate_argument(solve)

    optimize = commands.add_parser(
        "optimize", help="most pieces (fewest for domination), with a proof"
    )
    _puzzle_arguments(optimize)
    _solver_arguments(optimize, heuristic=True)
    _render_arguments(optimize, "--render")
    _cluster_arguments(optimize, "the line engine (peaceable riders)")
    _checkpoint_argument(optimize)
    _certificate_argument(optimize)

    count = commands.add_parser("count", help="count placements, all and up to symmetry")
    _puzzle_arguments(count)
    _count_arguments(count)
    _solver_arguments(count)
    count.add_argument(
        "--unique",
        action="store_true",
        help="also count up to symmetry (the board's, and swapping interchangeable armies)",
    )
    count.add_argument(
        "--optimal",
        action="store_true",
        help="prove the optimum first, then count the placements that reach it",
    )
    add_limit_argument(count)
    count.add_argument(
        "--list",
        action="store_true",
        help="stream every solution as a JSON line instead of counting",
    )
    _cluster_arguments(count, "counting")
    _checkpoint_argument(count)
    _certificate_argument(count)

    verify = commands.add_parser("verify", help="check a placement and name every attack")
    _puzzle_arguments(verify)
    _count_arguments(verify)
    verify.add_argument("file", nargs="?", default="-", help="JSON or text board; - for stdin")
    _render_arguments(verify, "--render")

    render = commands.add_parser(
        "render", help="solve (or optimize, without a count) and draw the answer as SVG or PNG"
    )
    _puzzle_arguments(render)
    _count_arguments(render)
    _solver_arguments(render)
    _render_arguments(render, "-o", "--output", required=True)

    export = commands.add_parser(
        "export", help="write the model (with a count: the checking problem) to a file"
    )
    _problem_arguments(export)
    _count_arguments(export)
    _export_arguments(export)

    check = commands.add_parser(
        "check", help="check a certificate without trusting chessplace's solvers"
    )
    check.add_argument("directory", type=file_path, help="a directory written by --certificate")

    add_generate_parser(commands)
    add_explain_parsers(commands)
    commands.add_parser("solvers", help="list engines, installed or not, with versions")
    serve = commands.add_parser("serve", help="the web app on a local ASGI server")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=port_number, default=8000, help="port to listen on")
    serve.add_argument(
        "--workers", type=worker_count, help="worker processes (default: one per core)"
    )
    serve.add_argument(
        "--queue", type=positive_int, default=64, help="jobs that may wait for a worker"
    )
    serve.add_argument(
        "--small-workers",
        type=reserved_workers,
        default=1,
        metavar="N",
        help="worker processes reserved for small jobs, besides --workers (0: none)",
    )
    serve.add_argument(
        "--small-queue",
        type=positive_int,
        default=64,
        metavar="N",
        help="small jobs that may wait for a small worker",
    )
    serve.add_argument(
        "--memory-mb", type=memory_cap, default=2048, help="memory cap of each worker (MiB)"
    )
    serve.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        help=f"seconds a job gets unless it asks (default {DEFAULT_SECONDS:g} or the most)",
    )
    serve.add_argument(
        "--max-time-limit", type=positive_float, default=120.0, metavar="S", help="most seconds"
    )
    serve.add_argument(
        "--max-side",
        type=task_side,
        action="append",
        default=[],
        metavar="TASK=N",
        help="largest board side for a task (solve, optimize, count, solutions, verify, render, "
        "generate)",
    )
    demo = commands.add_parser("demo", help="the classic puzzles one after the other")
    demo.add_argument("--ascii", action="store_true", help="draw boards in plain ASCII")
    return parser


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse, letting verify's FILE follow the options (argparse cannot on its own).
    With no arguments at all: the usage and the list of commands on stderr, then a
    usage error."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help(sys.stderr)
        raise UsageError("no command given: chessplace COMMAND --help tells more")
    arguments, extra = parser.parse_known_args(argv)
    if (
        arguments.command == "verify"
        and arguments.file == "-"
        and len(extra) == 1
        and (extra[0] == "-" or not extra[0].startswith("-"))
    ):
        arguments.file, extra = extra[0], []
    if extra:
        raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(arguments, "show_attacks", False) and not arguments.render:
        raise UsageError("--show-attacks tints a drawing: give --render FILE too")
    return arguments
