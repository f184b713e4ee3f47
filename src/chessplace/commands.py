"""What each ``chessplace`` command does with its parsed arguments."""

from __future__ import annotations

import argparse
import json
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chessplace import api
from chessplace.certificates import command as certificates
from chessplace.control import Control
from chessplace.engines.registry import NoSolver, engines
from chessplace.exits import EXIT_NO, EXIT_OK, EXIT_STOPPED, UsageError
from chessplace.jsonio import placement_pieces, read_placement, result_json
from chessplace.outputs import output_fault
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.puzzles import problem_from_attributes
from chessplace.regioncli import explain_command, generate_command, hint_command, with_grid
from chessplace.result import Result, Status
from chessplace.supervision import GRACE_SECONDS, abandon, stop_on_interrupt, supervised
from chessplace.textboard import render_text

EXIT_BY_STATUS = {
    Status.OPTIMAL: EXIT_OK,
    Status.FEASIBLE: EXIT_OK,
    Status.COMPLETE: EXIT_OK,
    Status.INFEASIBLE: EXIT_NO,
    Status.UNKNOWN: EXIT_STOPPED,
    Status.PARTIAL: EXIT_STOPPED,
}


def run(arguments: argparse.Namespace) -> int:
    """Dispatch one parsed command; bad input surfaces as :class:`UsageError`."""
    fault = output_fault(arguments)
    if fault:
        raise UsageError(fault)
    if getattr(arguments, "certificate", None):
        certificates.refuse_uncertifiable(arguments)
        arguments.started = time.monotonic()  # the certificate gets what the limit leaves
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "solve": _solve,
        "optimize": _optimize,
        "count": _count,
        "verify": _verify,
        "check": certificates.check,
        "solvers": _solvers,
        "render": _render_command,
        "serve": _serve,
        "demo": _demo,
        "export": _export,
        "generate": generate_command,
        "explain": explain_command,
        "hint": hint_command,
    }
    try:
        return handlers[arguments.command](arguments)
    except BrokenPipeError:
        raise
    except (ValueError, NoSolver, OSError) as error:
        raise UsageError(str(error)) from None


def problem_from(arguments: argparse.Namespace) -> Problem:
    """The problem the puzzle, board, grid and count options describe."""
    return problem_from_attributes(with_grid(arguments))


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


def _solve(arguments: argparse.Namespace) -> int:
    problem = problem_from(arguments)
    result = supervised(
        arguments.time_limit,
        lambda control: api.solve(problem, control=control, **_engine_options(arguments)),
    )
    return _report(arguments, problem, "solve", result)


def _optimize(arguments: argparse.Namespace) -> int:
    problem = problem_from(arguments)
    result = supervised(
        arguments.time_limit,
        lambda control: api.optimize(problem, control=control, **_engine_options(arguments)),
    )
    return _report(arguments, problem, "optimize", result)


def _count(arguments: argparse.Namespace) -> int:
    problem = problem_from(arguments)
    if arguments.list:
        if arguments.optimal:
            raise UsageError("--list streams the placements of a count: no --optimal")
        return _list(arguments, problem)
    result = supervised(
        arguments.time_limit,
        lambda control: api.count(
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
    return _report(arguments, problem, "count", result)


def _list(arguments: argparse.Namespace, problem: Problem) -> int:
    """Stream solutions as JSON lines; nothing is held in memory.

    The engine runs in a thread that feeds a short queue and this thread
    writes, so Ctrl-C, SIGTERM and the time limit are heard while it
    computes. A stopped listing ends with the placements so far (exit 3);
    an engine still running :data:`GRACE_SECONDS` after the stop is left
    behind, as by :func:`supervised`.
    """
    control = Control(arguments.time_limit)
    stream = api.solutions(
        problem, unique=arguments.unique, control=control, **_engine_options(arguments)
    )
    lines: queue.Queue[str | None] = queue.Queue(maxsize=1024)
    gone = threading.Event()  # the writer left: the engine must not wait for room
    complete = threading.Event()
    failure: list[BaseException] = []

    def produce() -> None:
        try:
            for placement in stream:
                if not _offer(lines, json.dumps({"pieces": placement_pieces(placement)}), gone):
                    return
            if not control.stopped:
                complete.set()
        except BaseException as error:  # re-raised in the main thread
            failure.append(error)
        finally:
            _offer(lines, None, gone)

    with stop_on_interrupt(control):
        threading.Thread(target=produce, daemon=True).start()
        try:
            ended = _write_lines(lines, control)
        finally:
            gone.set()
            control.stop()  # the engine ends too when writing failed (a closed pipe)
    if failure:
        raise failure[0]
    if not ended:
        print(
            f"chessplace: the engine did not stop within {GRACE_SECONDS:g} s;"
            " the placements so far are written",
            file=sys.stderr,
        )
        abandon()
    return EXIT_OK if complete.is_set() else EXIT_STOPPED


def _offer(lines: queue.Queue[str | None], line: str | None, gone: threading.Event) -> bool:
    """Put ``line`` on the queue once there is room; False if the writer left first."""
    while not gone.is_set():
        try:
            lines.put(line, timeout=0.1)
            return True
        except queue.Full:
            pass
    return False


def _write_lines(lines: queue.Queue[str | None], control: Control) -> bool:
    """Write the queued lines until the end mark (True), or until the grace after a
    stop or the time limit has passed with the engine still producing (False)."""
    stopped_at: float | None = None
    while True:
        try:
            line = lines.get(timeout=0.1)
        except queue.Empty:
            line = ""
        if line is None:
            return True
        if line:
            sys.stdout.write(line + "\n")
        if stopped_at is None and control.stopped:
            stopped_at = time.monotonic()
        if stopped_at is not None and time.monotonic() - stopped_at > GRACE_SECONDS:
            return False


def _verify(arguments: argparse.Namespace) -> int:
    problem = problem_from(arguments)
    try:
        text = _read_bounded(arguments.file)
    except OSError as error:
        raise UsageError(f"cannot read {arguments.file}: {error.strerror}") from None
    placement = read_placement(problem, text)
    violations = placement.verify()
    if arguments.render:
        _draw(arguments, placement, conflicts=True)
    if arguments.json:
        report: dict[str, Any] = {
            "task": "verify",
            "puzzle": problem.puzzle,
            "rows": problem.board.rows,
            "cols": problem.board.cols,
            **({"torus": True} if problem.board.torus else {}),
            "status": "invalid" if violations else "valid",
            "violations": [str(v) for v in violations],
        }
        if problem.regions is not None:
            report |= {"grid": list(problem.regions.rows), "stars": problem.regions.per_line}
        print(json.dumps(report | {"pieces": placement_pieces(placement)}, indent=2))
    else:
        print(render_text(placement, arguments.ascii))
        for violation in violations:
            print(f"✗ {violation}")
        verdict = f"{len(violations)} broken rule(s)" if violations else "valid"
        print(f"{problem.puzzle} on {problem.board}: {len(placement)} pieces — {verdict}")
    return EXIT_NO if violations else EXIT_OK


MAX_INPUT_BYTES = 64 << 20
"""The largest placement file verify reads (a million pieces as JSON is about 60 MB)."""


def _read_bounded(name: str) -> str:
    """The text of a file (``-``: standard input), refusing more than MAX_INPUT_BYTES."""
    if name == "-":
        text = sys.stdin.read(MAX_INPUT_BYTES + 1)
    else:
        with open(name, encoding="utf-8", errors="replace") as source:
            text = source.read(MAX_INPUT_BYTES + 1)
    if len(text) > MAX_INPUT_BYTES:
        raise UsageError(f"{name}: more than {MAX_INPUT_BYTES >> 20} MiB; not a placement")
    return text


def _solvers(arguments: argparse.Namespace) -> int:
    for info in engines():
        state = f"installed {info.version or ''}".strip() if info.installed else "not installed"
        print(f"{info.name:<13} {state:<24} {'/'.join(info.tasks):<24} {info.summary}")
    return EXIT_OK


def _serve(arguments: argparse.Namespace) -> int:
    try:
        import uvicorn

        from chessplace.web.app import create_app
        from chessplace.web.limits import Limits
    except ImportError:
        raise UsageError("the web app needs: pip install 'chessplace[web]'") from None
    chosen = {"workers": arguments.workers} if arguments.workers else {}
    limits = Limits(
        **chosen,
        queue=arguments.queue,
        memory_mb=arguments.memory_mb,
        default_seconds=min(arguments.time_limit, arguments.max_time_limit),
        max_seconds=arguments.max_time_limit,
    ).with_sides(**dict(arguments.max_side))
    listening = _listening_socket(arguments.host, arguments.port)
    server = uvicorn.Server(uvicorn.Config(create_app(limits), log_level="warning"))
    server.run(sockets=[listening])
    return EXIT_OK


def _listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound here so that a busy port is one line and exit code 2."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listening = socket.socket(family, kind, proto)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as error:
        listening.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listening


def _export(arguments: argparse.Namespace) -> int:
    from chessplace.export.command import export_command

    return export_command(arguments)


def _demo(arguments: argparse.Namespace) -> int:
    from chessplace.demo import run_demo

    run_demo(ascii_only=arguments.ascii)
    return EXIT_OK


def _render_command(arguments: argparse.Namespace) -> int:
    problem = problem_from(arguments)
    work = api.solve if problem.has_target else api.optimize
    result = supervised(
        arguments.time_limit,
        lambda control: work(problem, control=control, **_engine_options(arguments)),
    )
    return _report(arguments, problem, "solve" if problem.has_target else "optimize", result)


def _draw(arguments: argparse.Namespace, placement: Placement, conflicts: bool = False) -> None:
    """Write the board to ``--render``/``-o`` as SVG or PNG, by the file's extension."""
    from chessplace.drawing import marked_svg
    from chessplace.svgboard import svg_to_png

    path = Path(arguments.render)
    if path.suffix.lower() not in (".svg", ".png"):
        raise UsageError(f"cannot draw to {path}: the file must end in .svg or .png")
    svg = marked_svg(placement, show_attacks=arguments.show_attacks, conflicts=conflicts)
    if path.suffix.lower() == ".svg":
        path.write_text(svg, encoding="utf-8")
    else:
        path.write_bytes(svg_to_png(svg))


def _report(arguments: argparse.Namespace, problem: Problem, task: str, result: Result) -> int:
    if getattr(arguments, "render", None) and result.placement is not None:
        _draw(arguments, result.placement)
    if arguments.json:
        data = result_json(problem, task, result)
        print(json.dumps(data, indent=2 if len(data["pieces"]) <= 1000 else None))
    else:
        if result.placement is not None and task != "count":
            print(render_text(result.placement, arguments.ascii))
        print(summary_line(problem, task, result))
    if getattr(arguments, "certificate", None):
        certificates.certify(arguments, problem, task, result, arguments.started)
    return exit_code(task, result)


def exit_code(task: str, result: Result) -> int:
    """The exit code of an answer: an optimisation that stopped with its best so far,
    not proven best, was stopped before a definite answer (3) like a partial count."""
    if task == "optimize" and result.status is Status.FEASIBLE:
        return EXIT_STOPPED
    return EXIT_BY_STATUS[result.status]


def summary_line(problem: Problem, task: str, result: Result) -> str:
    """One line that says what was found, how sure it is, by whom and how fast."""
    what = f"{problem.puzzle} on {problem.board}"
    scored = [problem.armies[i].name for i in problem.scored_armies]
    unit = "per army" if problem.equal_armies else (scored[0] if len(scored) == 1 else "pieces")
    fixed = [army for army in problem.armies if army.fixed]
    if fixed:
        unit += "".join(f" beside {army.minimum} {army.name}" for army in fixed)
    if task == "count" and result.count is not None:
        found = f"{result.count:,} placement{'' if result.count == 1 else 's'}"
        if result.objective is not None:
            found += f" with the optimum of {result.objective} {unit}"
        if result.unique is not None:
            found += f", {result.unique:,} up to symmetry"
    elif result.objective is not None:
        found = f"{result.objective} {unit}"
        if result.status is Status.FEASIBLE and result.bound is not None:
            found += f" (bound {result.bound})"
    elif result.placement is not None:
        found = f"{result.placement.objective} {unit}"
    else:
        found = "no placement"
    how = {
        Status.OPTIMAL: "optimal, proven",
        Status.FEASIBLE: {
            "solve": "found",
            "count": "at least that many: stopped at the limit",
        }.get(task, "best found, not proven"),
        Status.INFEASIBLE: "impossible, proven",
        Status.COMPLETE: "complete",
        Status.PARTIAL: "stopped early, a lower bound",
        Status.UNKNOWN: "stopped before an answer",
    }[result.status]
    return f"{what}: {found} — {how} · {result.solver} · {result.seconds:.3f} s"
