"""The HTTP API (it mirrors the CLI and answers with the same JSON) and the static page.

The server checks every request (strict types, sizes, seconds, body bytes)
before any work, and hands the work to a bounded pool of worker processes
(:mod:`chessplace.faces.web.jobs.pool`); only tiny verify and render requests run here (a hint
never: its rules may run to the time limit). Small jobs (a board of a few dozen squares,
:data:`~chessplace.faces.web.limits.SMALL_SQUARES`) have workers of their own.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import date
from functools import partial
from importlib.resources import files
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from chessplace.faces.web import work
from chessplace.faces.web.catalog import catalog
from chessplace.faces.web.daily import Made, daily_request
from chessplace.faces.web.events import job_events
from chessplace.faces.web.jobs.pool import Pool
from chessplace.faces.web.jobs.registry import Jobs
from chessplace.faces.web.jobs.tickets import Busy, Outcome, Work
from chessplace.faces.web.limits import Limits
from chessplace.faces.web.middleware import BodyLimit, CancelOnDisconnect
from chessplace.faces.web.requests import (
    BrowseRequest,
    GenerateRequest,
    JobRequest,
    Options,
    PlacementRequest,
    one_line,
    shorten,
)
from chessplace.faces.web.screenshots import read_screenshot
from chessplace.runtime.control import Control


def create_app(limits: Limits | None = None) -> FastAPI:
    """The application: API under /api, the page at /, work in ``limits.workers`` processes."""
    limits = limits or Limits()
    pool = Pool(limits)
    jobs = Jobs(pool)
    made = Made()
    static = files("chessplace.faces.web").joinpath("static")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            pool.close()

    app = FastAPI(title="chessplace", version="0.1.0", lifespan=lifespan)
    app.state.pool = pool
    app.add_middleware(CancelOnDisconnect)
    app.add_middleware(BodyLimit, limit=limits.body_bytes)  # added last: it runs first
    app.add_exception_handler(RequestValidationError, _invalid)

    def admitted(task: str, options: Options) -> float:
        """Check sizes, seconds and options before any work; the run's time limit."""
        board = _checked(options.board)
        seconds: float = _checked(lambda: limits.seconds(options.time_limit))
        if options.limit is not None and task != "count":
            raise HTTPException(400, "limit: only a count stops at a limit")
        if options.unique and task not in ("count", "solutions"):
            raise HTTPException(
                400, "unique: only a count or the solutions list groups by symmetry"
            )
        if options.optimal and task == "solutions":
            raise HTTPException(400, "optimal: solutions are listed for the counts given")
        if options.optimal and task != "count":
            raise HTTPException(400, "optimal: only a count counts the optimal placements")
        if board is not None:
            _checked(lambda: limits.check_board(task, *board))
        _checked(options.problem)
        return seconds

    def is_small(task: str, options: Options) -> bool:
        """Whether an admitted request goes to the small lane (by its board alone)."""
        return limits.small(task, options.board())

    async def heavy(job: Work, seconds: float, small: bool = False) -> Response:
        """Run ``job`` in the pool (waiting in its line if need be) and answer with its
        outcome; a ``small`` job in the small lane."""
        try:
            ticket = pool.submit(job, seconds, small)
        except Busy as error:
            raise HTTPException(503, str(error)) from None
        try:
            outcome = await asyncio.wrap_future(ticket.future)
        except asyncio.CancelledError:
            pool.cancel(ticket)
            raise
        return _response(outcome)

    async def task(name: str, options: Options) -> Response:
        """solve, optimize or count, checked and run in the pool."""
        seconds = admitted(name, options)
        return await heavy(partial(work.task, name, options), seconds, is_small(name, options))

    async def checked_placement(
        task: str,
        request: PlacementRequest,
        job: Callable[[Control], work.Answer],
        inline: bool = True,
    ) -> Response:
        """Check a request that carries pieces, and run it: here when ``inline`` allows
        and it is tiny, else in the pool."""
        seconds = admitted(task, request)
        if len(request.pieces) > limits.pieces:
            raise HTTPException(
                400, f"{len(request.pieces)} pieces is over this server's limit of {limits.pieces}"
            )
        rows, cols = request.board() or (0, 0)
        tiny = rows * cols <= limits.inline_cells and len(request.pieces) <= limits.inline_pieces
        if inline and tiny:
            return _response(await run_in_threadpool(_inline, job, seconds))
        return await heavy(job, seconds, is_small(task, request))

    @app.get("/", response_class=HTMLResponse)
    async def index() -> str:
        return static.joinpath("index.html").read_text(encoding="utf-8")

    @app.get("/api/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/api/limits")
    async def public_limits() -> dict[str, Any]:
        return limits.public()

    @app.get("/api/catalog")
    async def known() -> dict[str, Any]:
        return catalog()

    @app.post("/api/solve")
    async def solve(options: Options) -> Response:
        return await task("solve", options)

    @app.post("/api/optimize")
    async def optimize(options: Options) -> Response:
        return await task("optimize", options)

    @app.post("/api/count")
    async def count(options: Options) -> Response:
        return await task("count", options)

    @app.post("/api/solutions")
    async def solutions(request: BrowseRequest) -> Response:
        """The placement at ``offset`` among all solutions (or one per symmetry class)."""
        if request.offset > limits.offset:
            raise HTTPException(
                400, f"offset: at most {limits.offset} on this server, not {request.offset}"
            )
        seconds = admitted("solutions", request)
        return await heavy(partial(work.browse, request), seconds, is_small("solutions", request))

    @app.post("/api/verify")
    async def verify(request: PlacementRequest) -> Response:
        return await checked_placement("verify", request, partial(work.verify, request))

    @app.post("/api/hint")
    async def hint(request: PlacementRequest) -> Response:
        """The next human-style step of a region puzzle (see ``chessplace hint``): in the
        pool whatever the grid's size, since the rules may run to the time limit."""
        job = partial(work.hint, request)
        return await checked_placement("verify", request, job, inline=False)

    @app.post("/api/render")
    async def render(request: PlacementRequest, format: Literal["svg", "png"] = "svg") -> Response:
        return await checked_placement("render", request, partial(work.render, request, format))

    @app.post("/api/generate")
    async def generate(request: GenerateRequest) -> Response:
        """A new queens-game or star-battle grid whose solution is unique."""
        seconds = _checked(lambda: limits.seconds(request.time_limit))
        _checked(lambda: limits.check_board("generate", request.n, request.n))
        return await heavy(partial(work.generate, request), seconds)

    @app.get("/api/daily/{puzzle}/{day}")
    async def daily(puzzle: str, day: str) -> Response:
        """The daily grid of ``puzzle`` (queens-game, star-battle) on ``day``
        (YYYY-MM-DD), as ``/api/generate`` answers it with the day's seed: the same for
        everyone, made once and then kept."""
        request = _checked(lambda: daily_request(puzzle, day, date.today()))
        kept = made.get(request)
        if kept is not None:
            return Response(kept, media_type="application/json")
        answer = await heavy(partial(work.generate, request), limits.max_seconds)
        body = bytes(answer.body)
        if answer.status_code == 200 and json.loads(body).get("grid"):
            made.keep(request, body)
        return answer

    @app.post(
        "/api/screenshot",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"image/*": {"schema": {"type": "string", "format": "binary"}}},
            }
        },
    )
    async def screenshot(request: Request) -> Response:
        """The grid of a Queens game or Star Battle read from a screenshot of it (the
        image's bytes as the body: PNG, JPEG, WebP, GIF or BMP), as ``--image`` reads
        it: ``{"grid": rows, "n": n}``; no grid found is a 400 saying why."""
        data = await request.body()
        return await heavy(partial(read_screenshot, data), limits.default_seconds)

    @app.post("/api/jobs")
    async def start(request: JobRequest) -> dict[str, Any]:
        seconds = admitted(request.task, request)
        try:
            job = partial(work.task, request.task, request)
            job_id = jobs.start(job, seconds, is_small(request.task, request))
        except Busy as error:
            raise HTTPException(503, str(error)) from None
        return _found(job_id, jobs.view(job_id))

    @app.get("/api/jobs/{job_id}")
    async def status(job_id: str) -> dict[str, Any]:
        return _found(job_id, jobs.view(job_id))

    @app.get("/api/jobs/{job_id}/events")
    async def events(job_id: str, request: Request) -> StreamingResponse:
        """The job's progress as it comes (server-sent events), then its end."""
        _found(job_id, jobs.view(job_id))
        resumed = request.headers.get("last-event-id", "")
        first = int(resumed) if re.fullmatch("[0-9]{1,8}", resumed) else 0  # isdigit: ², ٣
        return StreamingResponse(
            job_events(jobs, job_id, first, request.is_disconnected),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @app.delete("/api/jobs/{job_id}")
    async def cancel(job_id: str) -> dict[str, Any]:
        return _found(job_id, jobs.cancel(job_id))

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app


def _checked(make: Callable[[], Any]) -> Any:
    """Bad options become a 400 with the message the CLI would print."""
    try:
        return make()
    except ValueError as error:  # NoSolver is one
        raise HTTPException(status_code=400, detail=shorten(str(error))) from None


def _inline(job: Callable[[Control], work.Answer], seconds: float) -> Outcome:
    """A tiny verify or render, run in the server itself."""
    try:
        return Outcome(work.answered(job, Control(seconds)))
    except work.Refused as refusal:
        return Outcome(None, refusal.status, shorten(str(refusal)))


def _response(outcome: Outcome) -> Response:
    if outcome.answer is None:
        return JSONResponse({"detail": shorten(outcome.message)}, status_code=outcome.status)
    return Response(outcome.answer.body, media_type=outcome.answer.media_type)


def _found(job_id: str, view: dict[str, Any] | None) -> dict[str, Any]:
    if view is None:
        raise HTTPException(404, f"no job {shorten(job_id)}")
    return view


async def _invalid(request: Request, error: Exception) -> JSONResponse:
    """Validation errors as one line and a 400, as the CLI reports bad arguments."""
    errors = error.errors() if isinstance(error, RequestValidationError) else []
    return JSONResponse({"detail": one_line(errors)}, status_code=400)
