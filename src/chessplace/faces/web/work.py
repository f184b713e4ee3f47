"""The work behind each endpoint, run in a worker process (or inline when tiny).

This module holds the web's only calls into :mod:`chessplace.api` (all in
``_run``, ``browse`` and ``generate``). Every function takes its request and a
:class:`Control` and returns an :class:`Answer`: the response body, already
encoded, so that the server never holds more than the answer's bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chessplace import api
from chessplace.core.board import square_name
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.regions import Regions
from chessplace.core.verification import attacked_squares
from chessplace.core.violations import Attack
from chessplace.faces.explain import explain
from chessplace.faces.web.requests import BrowseRequest, GenerateRequest, Options, PlacementRequest
from chessplace.forms.jsonio import placement_from_data, placement_pieces, result_json
from chessplace.making import new_puzzle
from chessplace.regions.deduction import Explanation
from chessplace.runtime.control import Control

JSON = "application/json"


@dataclass(frozen=True)
class Answer:
    """A response body and its media type."""

    media_type: str
    body: bytes


class Refused(Exception):
    """The request cannot be answered: an HTTP status and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _run(task: str, options: Options, control: Control) -> dict[str, Any]:
    problem = options.problem()
    result = api.run(
        task,
        problem,
        unique=options.unique,
        optimal=options.optimal,
        limit=options.limit,
        solver=options.solver,
        control=control,
    )
    return result_json(problem, task, result)


def task(name: str, options: Options, control: Control) -> Answer:
    """solve, optimize or count: the CLI's ``--json`` object."""
    return _json(_run(name, options, control))


def generate(request: GenerateRequest, control: Control) -> Answer:
    """A new region grid with exactly one solution: ``generate --json`` with the seed;
    stopped before the grid was unique, ``unknown`` with no grid."""
    result = new_puzzle.generate(
        request.puzzle,
        request.n,
        stars=request.stars,
        seed=request.seed,
        control=control,
        difficulty=request.difficulty,
    )
    if result.placement is None:
        return _json(
            {
                "task": "generate",
                "puzzle": request.puzzle,
                "status": result.status.value,
                "solver": result.solver,
                "seconds": round(result.seconds, 6),
                "note": "stopped before a unique grid was made",
                "pieces": [],
            }
        )
    data = result_json(result.placement.problem, "generate", result)
    return _json({**data, "seed": request.seed})


def browse(request: BrowseRequest, control: Control) -> Answer:
    """The placement at ``offset`` among all solutions (or one per symmetry class)."""
    problem = request.problem()
    stream = api.solutions(problem, unique=request.unique, solver=request.solver, control=control)
    seen, found = 0, []
    for placement in stream:
        seen += 1
        if seen > request.offset:
            found.append(placement)
            if len(found) == 2:
                break
    if not found and control.stopped:  # the time limit's answer, not a busy server's
        note = f"stopped after {control.elapsed():.0f} s at solution {seen}"
        data = {"status": "unknown", "offset": request.offset, "more": True, "pieces": []}
        return _json(data | {"note": note})
    if not found:
        what = "solution" if seen == 1 else "solutions"
        kind = " up to symmetry" if request.unique else ""
        there = "there is only" if seen == 1 else "there are only"
        raise Refused(404, f"{there} {seen} {what}{kind}; offset {request.offset} is past the end")
    more = len(found) > 1
    return _json(
        {"status": "feasible", "offset": request.offset, "more": more}
        | {"pieces": placement_pieces(found[0])}
    )


def hint(request: PlacementRequest, control: Control) -> Answer:
    """The next step of a human solution from the pieces placed, the first step that
    places a piece (with the rules before it), and the grid's difficulty; with every
    piece placed and no rule broken, no step: the puzzle is solved. Rules stopped by
    the time limit answer what they found (``stopped``, with a message), not 503."""
    placement = _placement(request)
    problem = placement.problem
    found = explain(problem, placement, control)
    grade = _grade(problem, control, None if placement.armies[0] else found)
    stopped = found.stopped or grade is None
    message = None
    if found.dead_end is not None:
        message = found.dead_end_text()
    elif stopped:
        message = f"the rules were stopped after {control.elapsed():.0f} s"
    ahead = found.next_piece
    return _json(
        {
            "task": "hint",
            "puzzle": request.puzzle,
            "step": found.steps[0].to_json() if found.steps else None,
            "next_piece": None
            if ahead is None
            else {"step": ahead[0].to_json(), "after": [step.rule for step in ahead[1]]},
            "solved": found.solved and not found.steps,
            "difficulty": grade,
            "dead_end": found.dead_end,
            "misplaced": [square_name(s) for s in found.misplaced],
            "stopped": stopped,
            "message": message,
        }
    )


GRADES_KEPT = 256
"""Grids whose grade a worker keeps between hints (a hint asks for it each time)."""
_grades: dict[Regions, str] = {}


def _grade(problem: Problem, control: Control, whole: Explanation | None) -> str | None:
    """The grid's grade by the rules from an empty board (``whole``, when the hint
    started there), kept per grid; ``None`` when ``control`` stopped the rules first."""
    regions = problem.regions
    assert regions is not None
    if regions not in _grades:
        whole = whole or explain(problem, control=control)
        if whole.stopped:
            return None
        if len(_grades) >= GRADES_KEPT:
            _grades.clear()
        _grades[regions] = whole.grade
    return _grades[regions]


def verify(request: PlacementRequest, control: Control) -> Answer:
    """Every broken rule of the placement, the attacked squares and the conflicts."""
    placement = _placement(request)
    violations = placement.verify()
    attacks = [v for v in violations if isinstance(v, Attack)]
    return _json(
        {
            "task": "verify",
            "puzzle": request.puzzle,
            "status": "invalid" if violations else "valid",
            "violations": [str(v) for v in violations],
            "conflicts": [
                [square_name(a.attacker.square), square_name(a.victim.square)] for a in attacks
            ],
            "attacked": sorted(square_name(s) for s in attacked_squares(placement)),
            "attacked_by": [
                sorted(square_name(s) for s in attacked_squares(placement, army))
                for army in range(len(placement.problem.armies))
            ],
            "armies": [
                {"name": army.name, "piece": army.piece.name, "betza": army.piece.betza}
                for army in placement.problem.armies
            ],
            "pieces": placement_pieces(placement),
        }
    )


def render(request: PlacementRequest, image: str, control: Control) -> Answer:
    """The placement drawn as SVG or PNG, broken rules marked."""
    from chessplace.forms.drawing import marked_svg
    from chessplace.forms.svg import svg_to_png

    placement = _placement(request)
    board = placement.problem.board
    for squares in placement.armies:
        for square in squares:
            if not board.contains(square):
                raise ValueError(f"{square_name(square)} is off the {board} board")
    svg = marked_svg(placement, conflicts=True)
    if image == "svg":
        return Answer("image/svg+xml", svg.encode())
    return Answer("image/png", svg_to_png(svg))


def answered(work: Callable[[Control], Answer], control: Control) -> Answer:
    """Run ``work``; a bad request becomes :class:`Refused` with the CLI's message."""
    try:
        return work(control)
    except ValueError as error:  # NoSolver is one
        raise Refused(400, str(error)) from None


def _placement(request: PlacementRequest) -> Placement:
    placement: Placement = placement_from_data(request.problem(), request.pieces)
    return placement


def _json(data: dict[str, Any]) -> Answer:
    return Answer(JSON, json.dumps(data, allow_nan=False).encode())
