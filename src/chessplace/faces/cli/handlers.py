"""What each ``chessplace`` command does with its parsed arguments."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chessplace import api
from chessplace.core.placement import Placement
from chessplace.core.problem import MAX_PIECES, Problem
from chessplace.core.violations import Violation
from chessplace.faces.cli.certificates import check, refuse_uncertifiable
from chessplace.faces.cli.exits import EXIT_NO, EXIT_OK, UsageError, answer_written
from chessplace.faces.cli.inputs import read_input
from chessplace.faces.cli.listing import list_placements
from chessplace.faces.cli.outputs import output_fault
from chessplace.faces.cli.problemargs import problem_from
from chessplace.faces.cli.regions import explain_command, generate_command, hint_command
from chessplace.faces.cli.report import draw, report
from chessplace.faces.cli.serve import serve
from chessplace.faces.cli.supervision import supervised, unbroken_output
from chessplace.forms.jsonio import read_placement, write_json
from chessplace.forms.text import render_text
from chessplace.notation.problemfile import to_text
from chessplace.runtime import compiling


def run(arguments: argparse.Namespace) -> int:
    """Dispatch one parsed command; bad input surfaces as :class:`UsageError`."""
    fault = output_fault(arguments)
    if fault:
        raise UsageError(fault)
    if getattr(arguments, "certificate", None):
        refuse_uncertifiable(arguments)
        arguments.started = time.monotonic()  # the certificate gets what the limit leaves
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "solve": _solve_or_optimize,
        "optimize": _solve_or_optimize,
        "count": _count,
        "verify": _verify,
        "check": check,
        "solvers": _solvers,
        "render": _solve_or_optimize,
        "serve": serve,
        "demo": _demo,
        "export": _export,
        "generate": generate_command,
        "explain": explain_command,
        "hint": hint_command,
    }
    if getattr(arguments, "print_problem", None):
        handlers[arguments.command] = _print_problem
    # The demo says it on its own console, between its boards.
    quiet = arguments.command == "demo"
    unsay = compiling.on_compile(say_compiling) if not quiet else None
    try:
        return handlers[arguments.command](arguments)
    except BrokenPipeError:
        raise
    except (ValueError, OSError) as error:  # api.NoSolver is a ValueError
        raise UsageError(str(error)) from None
    finally:
        if unsay is not None:
            unsay()


def say_compiling(search: str) -> None:
    """Before a first run's wait, on stderr: the search compiles, once per machine."""
    with contextlib.suppress(OSError, ValueError):  # stderr closed: the work goes on
        print(f"chessplace: {compiling.notice(search)}", file=sys.stderr, flush=True)


def _print_problem(arguments: argparse.Namespace) -> int:
    """``--print-problem [json|toml]``: the problem file the options mean."""
    print(to_text(problem_from(arguments), arguments.print_problem), end="")
    return EXIT_OK


def _engine_options(arguments: argparse.Namespace) -> dict[str, Any]:
    """``solver`` and the engine options given (api picks the engine that takes them)."""
    given = {
        "encoding": arguments.encoding,
        "backend": arguments.sat_backend,
        "workers": getattr(arguments, "workers", None),
        "dask": getattr(arguments, "dask", None),
        "checkpoint": Path(arguments.checkpoint)
        if getattr(arguments, "checkpoint", None)
        else None,
    }
    return {"solver": arguments.solver} | {k: v for k, v in given.items() if v is not None}


def _solve_or_optimize(arguments: argparse.Namespace) -> int:
    """solve, optimize, and render (which solves when a count is given)."""
    problem = problem_from(arguments)
    task = arguments.command
    if task == "render":
        task = "solve" if problem.has_target else "optimize"
    result = supervised(
        arguments.time_limit,
        lambda control: api.run(task, problem, control=control, **_engine_options(arguments)),
    )
    return report(arguments, problem, task, result)


def _count(arguments: argparse.Namespace) -> int:
    problem = problem_from(arguments)
    if arguments.list:
        if arguments.optimal:
            raise UsageError("--list streams the placements of a count: no --optimal")
        return list_placements(arguments, problem, _engine_options(arguments))
    result = supervised(
        arguments.time_limit,
        lambda control: api.run(
            "count",
            problem,
            unique=arguments.unique,
            optimal=arguments.optimal,
            limit=arguments.limit,
            control=control,
            **_engine_options(arguments),
        ),
    )
    if result.passed_over and not arguments.json:
        print(
            f"chessplace: counted by {result.solver} ({'; '.join(result.passed_over)})",
            file=sys.stderr,
        )
    return report(arguments, problem, "count", result)


def _verify(arguments: argparse.Namespace) -> int:
    problem = problem_from(arguments)
    text = read_input(arguments.file, f"a placement on {problem.board}", input_limit(problem))
    placement = read_placement(problem, text)
    violations = placement.verify()
    if arguments.render:
        draw(arguments, placement, conflicts=True)
    with answer_written():
        _show_verdict(arguments, problem, placement, violations)
    return EXIT_NO if violations else EXIT_OK


def _show_verdict(
    arguments: argparse.Namespace,
    problem: Problem,
    placement: Placement,
    violations: tuple[Violation, ...],
) -> None:
    """The placement and every broken rule, as a board and lines or as JSON."""
    if arguments.json:
        data: dict[str, Any] = {
            "task": "verify",
            "puzzle": problem.puzzle,
            "rows": problem.board.rows,
            "cols": problem.board.cols,
            "shape": problem.board.shape.value,
            "status": "invalid" if violations else "valid",
            "violations": [str(v) for v in violations],
        }
        if problem.regions is not None:
            data |= {"grid": list(problem.regions.rows), "stars": problem.regions.per_line}
        with unbroken_output():
            write_json(data, placement, sys.stdout)
    else:
        print(render_text(placement, arguments.ascii))
        for violation in violations:
            print(f"✗ {violation}")
        verdict = f"{len(violations)} broken rule(s)" if violations else "valid"
        print(f"{problem.puzzle} on {problem.board}: {len(placement)} pieces — {verdict}")


MAX_INPUT_BYTES = 128 << 20
"""The largest placement file verify reads: room for the JSON of the largest answer,
a million pieces (93 MB for a million queens; at most 113 MB on the widest board)."""

INPUT_BYTES_PER_SQUARE = 1 << 10
"""What verify reads per square of the board, beyond a fixed 64 KiB (a piece's JSON
takes about 130 bytes indented; the rest leaves room for a long list of broken rules)."""


def input_limit(problem: Problem) -> int:
    """The largest placement file verify reads for ``problem``'s board: hostile input
    for a small board is refused at its first kilobytes, not parsed into gigabytes."""
    squares = min(problem.board.size, MAX_PIECES)
    return min(MAX_INPUT_BYTES, (64 << 10) + squares * INPUT_BYTES_PER_SQUARE)


def _solvers(arguments: argparse.Namespace) -> int:
    for info in api.engines():
        state = f"installed {info.version or ''}".strip() if info.installed else "not installed"
        print(f"{info.name:<13} {state:<24} {'/'.join(info.tasks):<24} {info.summary}")
    return EXIT_OK


def _export(arguments: argparse.Namespace) -> int:
    from chessplace.faces.cli.export import export_command

    return export_command(arguments)


def _demo(arguments: argparse.Namespace) -> int:
    from chessplace.faces.cli.demo import run_demo

    run_demo(ascii_only=arguments.ascii)
    return EXIT_OK
