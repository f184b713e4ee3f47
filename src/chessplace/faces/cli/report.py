"""How the command line prints an answer: the board, a summary line or JSON, a drawing,
and the exit code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from chessplace import api
from chessplace.api import Conflict
from chessplace.core.board import Square, square_name
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result, Status
from chessplace.faces.cli.certificates import certify
from chessplace.faces.cli.exits import EXIT_NO, EXIT_OK, EXIT_STOPPED, answer_written
from chessplace.faces.cli.supervision import unbroken_output
from chessplace.forms.jsonio import result_head, write_json
from chessplace.forms.text import render_text
from chessplace.regions.deduction import GRADES

EXIT_BY_STATUS = {
    Status.OPTIMAL: EXIT_OK,
    Status.FEASIBLE: EXIT_OK,
    Status.COMPLETE: EXIT_OK,
    Status.INFEASIBLE: EXIT_NO,
    Status.UNKNOWN: EXIT_STOPPED,
    Status.PARTIAL: EXIT_STOPPED,
}


def draw(
    arguments: argparse.Namespace,
    placement: Placement,
    conflicts: bool = False,
    ringed: Iterable[Square] = (),
) -> None:
    """Write the board to ``--render``/``-o`` as SVG or PNG, by the file's extension,
    and say on stderr which file was written."""
    from chessplace.forms.drawing import marked_svg
    from chessplace.forms.svg import svg_to_png

    path = Path(arguments.render)  # its ending is checked before any work (outputs.py)
    svg = marked_svg(
        placement, show_attacks=arguments.show_attacks, conflicts=conflicts, ringed=ringed
    )
    if path.suffix.lower() == ".svg":
        path.write_text(svg, encoding="utf-8")
    else:
        path.write_bytes(svg_to_png(svg))
    print(f"chessplace: wrote {arguments.render}", file=sys.stderr)


def report(arguments: argparse.Namespace, problem: Problem, task: str, result: Result) -> int:
    conflict = _why(arguments, problem, result)
    if getattr(arguments, "render", None) and result.placement is not None:
        draw(arguments, result.placement)
    with answer_written():
        if arguments.json:
            head = result_head(problem, task, result)
            if conflict is not None:
                head["why"] = conflict_json(problem, conflict)
            with unbroken_output():
                write_json(head, result.placement, sys.stdout)
        else:
            if result.placement is not None and task != "count":
                print(render_text(result.placement, arguments.ascii))
            print(summary_line(problem, task, result))
            if conflict is not None:
                print(f"why: {conflict.describe(problem)}")
    if getattr(arguments, "certificate", None):
        with answer_written():  # its one line goes to standard error
            if certify(arguments, problem, task, result, arguments.started):
                return EXIT_STOPPED  # the certificate asked for was stopped: none written
    return exit_code(task, result)


def _why(arguments: argparse.Namespace, problem: Problem, result: Result) -> Conflict | None:
    """With ``--why`` and no answer: the minimal set of given pieces and blocked squares
    that cannot be completed, drawn to ``--render`` (its squares ringed)."""
    if not getattr(arguments, "why", False) or result.status is not Status.INFEASIBLE:
        return None
    conflict = api.why_not(problem)
    if conflict is None:  # cannot be: the answer was no
        return None
    if getattr(arguments, "render", None):
        shown = conflict.problem(problem)
        pieces = Placement.from_squares(shown, shown.given or [() for _ in problem.armies])
        draw(arguments, pieces, ringed=[s for _, s in conflict.given] + list(conflict.blocked))
    return conflict


def conflict_json(problem: Problem, conflict: Conflict) -> dict[str, Any]:
    """``--why`` as JSON: the given pieces and blocked squares of the minimal set."""
    return {
        "given": [
            {
                "piece": problem.armies[a].piece.name,
                "army": problem.armies[a].name,
                "square": square_name(s),
            }
            for a, s in conflict.given
        ],
        "blocked": [square_name(s) for s in conflict.blocked],
        "rules": list(conflict.rules),
        "minimal": not conflict.stopped,
        "message": conflict.describe(problem),
    }


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
    graded = ""
    if result.difficulty is not None:
        grade, steps = result.difficulty
        counted = f"{steps} step{'' if steps == 1 else 's'}"
        if grade in GRADES:
            graded = f" · difficulty: {grade} ({counted})"
        else:
            graded = f" · {grade} after {counted}"
    took = " ".join(filter(None, [f"{result.seconds:.3f} s", result.compiled_note]))
    return f"{what}: {found} — {how} · {result.solver} · {took}{graded}"
