"""The HTTP API (it mirrors the CLI and answers with the same JSON) and the static page."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from itertools import islice
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Response
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from chessplace import api
from chessplace.board import square_name
from chessplace.checking import Attack, attacked_squares
from chessplace.control import Control
from chessplace.jsonio import placement_from_data, placement_pieces, result_json
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.puzzles import problem_from_attributes
from chessplace.result import Result
from chessplace.solvers.registry import NoSolver
from chessplace.web.jobs import Jobs

DEFAULT_SECONDS = 20.0
MAX_SECONDS = 120.0
MAX_BROWSE = 1000


class Options(BaseModel):
    """The CLI's options as a JSON body."""

    model_config = ConfigDict(extra="forbid")

    puzzle: str
    n: int | None = Field(None, ge=1, le=1_000_000)
    rows: int | None = Field(None, ge=1, le=1000)
    cols: int | None = Field(None, ge=1, le=1000)
    piece: str | None = None
    at_least: int | None = Field(None, ge=0)
    exactly: int | None = Field(None, ge=0)
    at_most: int | None = Field(None, ge=0)
    armies: int | None = Field(None, ge=1, le=8)
    white: int | None = Field(None, ge=0)
    solver: str | None = None
    time_limit: float | None = Field(None, gt=0, le=MAX_SECONDS)
    unique: bool = False
    optimal: bool = False

    def problem(self) -> Problem:
        problem: Problem = _checked(lambda: problem_from_attributes(self))
        return problem


class JobRequest(Options):
    task: Literal["solve", "optimize", "count"]


class PlacementRequest(Options):
    pieces: list[dict[str, Any]]


class BrowseRequest(Options):
    offset: int = Field(0, ge=0, le=MAX_BROWSE)


def _checked(make: Callable[[], Any]) -> Any:
    """Bad options become a 400 with the message the CLI would print."""
    try:
        return make()
    except (ValueError, NoSolver) as error:
        raise HTTPException(status_code=400, detail=str(error)) from None


def _run(task: str, options: Options, control: Control) -> dict[str, Any]:
    problem = options.problem()
    call: dict[str, Callable[[], Result]] = {
        "solve": lambda: api.solve(problem, solver=options.solver, control=control),
        "optimize": lambda: api.optimize(problem, solver=options.solver, control=control),
        "count": lambda: api.count(
            problem,
            unique=options.unique,
            optimal=options.optimal,
            solver=options.solver,
            control=control,
        ),
    }
    return result_json(problem, task, _checked(call[task]))


def _placement(request: PlacementRequest) -> Placement:
    problem = request.problem()
    placement: Placement = _checked(lambda: placement_from_data(problem, request.pieces))
    return placement


def create_app() -> FastAPI:
    """The application: API under /api, the page at /."""
    app = FastAPI(title="chessplace", version="0.1.0")
    jobs = Jobs()
    static = files("chessplace.web").joinpath("static")

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return static.joinpath("index.html").read_text(encoding="utf-8")

    @app.get("/api/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    def limited(options: Options) -> Control:
        return Control(min(options.time_limit or DEFAULT_SECONDS, MAX_SECONDS))

    @app.post("/api/solve")
    def solve(options: Options) -> dict[str, Any]:
        return _run("solve", options, limited(options))

    @app.post("/api/optimize")
    def optimize(options: Options) -> dict[str, Any]:
        return _run("optimize", options, limited(options))

    @app.post("/api/count")
    def count(options: Options) -> dict[str, Any]:
        return _run("count", options, limited(options))

    @app.post("/api/verify")
    def verify(request: PlacementRequest) -> dict[str, Any]:
        placement = _placement(request)
        violations = placement.verify()
        attacks = [v for v in violations if isinstance(v, Attack)]
        return {
            "task": "verify",
            "puzzle": request.puzzle,
            "status": "invalid" if violations else "valid",
            "violations": [str(v) for v in violations],
            "conflicts": [
                [square_name(a.attacker.square), square_name(a.victim.square)] for a in attacks
            ],
            "attacked": sorted(square_name(s) for s in attacked_squares(placement)),
            "pieces": placement_pieces(placement),
        }

    @app.post("/api/solutions")
    def solutions(request: BrowseRequest) -> dict[str, Any]:
        """The placement at ``offset`` among all solutions (or one per symmetry class)."""
        problem = request.problem()
        stream = _checked(lambda: api.solutions(problem, control=limited(request)))
        if request.unique:
            stream = _first_of_each_class(stream)
        found = list(islice(stream, request.offset, request.offset + 2))
        if not found:
            raise HTTPException(404, f"there are only {request.offset} solutions")
        return {
            "offset": request.offset,
            "more": len(found) > 1,
            "pieces": placement_pieces(found[0]),
        }

    @app.post("/api/render")
    def render(request: PlacementRequest, format: Literal["svg", "png"] = "svg") -> Response:
        from chessplace.drawing import marked_svg
        from chessplace.svgboard import svg_to_png

        placement = _placement(request)
        svg = _checked(lambda: marked_svg(placement, conflicts=True))
        if format == "svg":
            return Response(svg, media_type="image/svg+xml")
        return Response(_checked(lambda: svg_to_png(svg)), media_type="image/png")

    @app.post("/api/jobs")
    def start(request: JobRequest) -> dict[str, Any]:
        request.problem()  # bad options fail now, not in the background
        seconds = min(request.time_limit or MAX_SECONDS, MAX_SECONDS)
        job_id = jobs.start(seconds, lambda control: _run(request.task, request, control))
        return {"id": job_id}

    @app.get("/api/jobs/{job_id}")
    def status(job_id: str) -> dict[str, Any]:
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no job {job_id}")
        return job.view(job_id)

    @app.delete("/api/jobs/{job_id}")
    def cancel(job_id: str) -> dict[str, Any]:
        job = jobs.cancel(job_id)
        if job is None:
            raise HTTPException(404, f"no job {job_id}")
        return job.view(job_id)

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app


def _first_of_each_class(stream: Any) -> Any:
    seen: set[object] = set()
    for placement in stream:
        key = placement.canonical_key()
        if key not in seen:
            seen.add(key)
            yield placement
