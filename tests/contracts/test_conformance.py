"""Conformance: every registered engine against the exhaustive oracle on small random problems.

The engines and their tasks come from the registry, so an engine is tested
the moment it is registered. Hypothesis draws small problems (boards up to
4×5; queens, rooks, bishops, knights, kings, amazons, nightriders and a few
Betza pieces; one to three armies; independent, peaceable or dominating;
exact, lower or upper counts); every engine that is installed and does not
refuse a task is run through the public door (:mod:`chessplace.api`) and
must agree with plain exhaustive search, and every answer must verify.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chessplace import api, puzzles
from chessplace.core.board import Board
from chessplace.core.pieces import piece_from_text
from chessplace.core.problem import ARMY_NAMES, Army, Problem, Sense
from chessplace.core.result import Result, Status
from chessplace.encodings.cnf import AT_MOST_ONE_ONLY, ENCODINGS
from chessplace.engines.base import Engine, Task
from chessplace.engines.gpu.devices import probe
from chessplace.engines.registry import ENGINES
from chessplace.faces.cli import main

ORACLE = "exhaustive"
PIECES = ("Q", "R", "B", "N", "K", "QN", "NN", "FD", "WA", "C", "W2")
"""Queen, rook, bishop, knight, king, amazon, nightrider; Betza leapers and a short rider."""
ROOK_MOVERS = ("Q", "R", "QN")
MAX_SQUARES = 20
SEVERAL_ARMIES_SQUARES = 12
"""Several armies multiply the oracle's work: their boards stay smaller."""
DOMINATING_SQUARES = 12
UNPROVEN_SECONDS = 0.3
"""Time limit for engines that never prove: they search until it passes."""
PROVEN_SECONDS = 120.0
"""A stop for engines that prove, far beyond what these boards need."""


def _counted(draw: st.DrawFn, problem: Problem, typical: int) -> Problem:
    """``problem`` with a drawn count, often at an edge: near ``typical`` (where
    engines differ), none, or more than the board holds."""
    kind = draw(st.sampled_from(("none", "exactly", "at_least", "at_most")))
    if kind == "none":
        return problem
    size = problem.board.size
    value = draw(
        st.one_of(
            st.sampled_from(sorted({0, max(0, typical - 1), typical, typical + 1, size + 1})),
            st.integers(0, size + 1),
        )
    )
    return problem.with_counts(**{kind: value})


@st.composite
def classic_problems(draw: st.DrawFn) -> Problem:
    """One army of a rook-like piece (or bishops) on a square board: what the bitboard
    counter and the constructions take."""
    n = draw(st.integers(1, 4))
    board = Board.square(n)
    piece = piece_from_text(draw(st.sampled_from((*ROOK_MOVERS, "B"))))
    problem = Problem("independent", board, (Army("white", piece, n, n),))
    return _counted(draw, problem, n)


@st.composite
def boards(draw: st.DrawFn, squares: int) -> Board:
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, min(5, squares // rows)))
    return Board(rows, cols)


@st.composite
def independent_problems(draw: st.DrawFn) -> Problem:
    """1–3 armies, no piece attacking another (of its own army or any other)."""
    armies = draw(st.integers(1, 3))
    board = draw(boards(MAX_SQUARES if armies == 1 else SEVERAL_ARMIES_SQUARES))
    pieces = draw(st.lists(st.sampled_from(PIECES), min_size=armies, max_size=armies))
    problem = Problem(
        "independent",
        board,
        tuple(Army(ARMY_NAMES[i], piece_from_text(p)) for i, p in enumerate(pieces)),
        equal_armies=armies > 1 and draw(st.booleans()),
    )
    return _counted(draw, problem, min(board.rows, board.cols))


@st.composite
def peaceable_problems(draw: st.DrawFn) -> Problem:
    """2–3 armies that must not attack each other (their own pieces may)."""
    armies = draw(st.integers(2, 3))
    board = draw(boards(SEVERAL_ARMIES_SQUARES))
    if draw(st.booleans()):  # one piece for every army, as the named puzzles have it
        pieces = [draw(st.sampled_from(PIECES))] * armies
    else:
        pieces = draw(st.lists(st.sampled_from(PIECES), min_size=armies, max_size=armies))
    army_list = [Army(ARMY_NAMES[i], piece_from_text(p)) for i, p in enumerate(pieces)]
    white = draw(st.one_of(st.none(), st.integers(0, board.size // 2)))
    if white is not None:  # --white W: white fixed, the others as large as they can be
        army_list[0] = Army(ARMY_NAMES[0], army_list[0].piece, white, white, fixed=True)
    problem = Problem(
        "peaceable",
        board,
        tuple(army_list),
        independent=False,
        equal_armies=white is None and draw(st.booleans()),
    )
    return _counted(draw, problem, board.size // (2 * armies))


@st.composite
def dominating_problems(draw: st.DrawFn) -> Problem:
    board = draw(boards(DOMINATING_SQUARES))
    piece = piece_from_text(draw(st.sampled_from(PIECES)))
    problem = Problem(
        "dominating",
        board,
        (Army("white", piece),),
        independent=False,
        dominating=True,
        sense=Sense.MINIMIZE,
    )
    return _counted(draw, problem, 2)


PROBLEMS = st.one_of(
    classic_problems(), independent_problems(), peaceable_problems(), dominating_problems()
)


def engine_tasks(problem: Problem) -> list[tuple[Engine, Task]]:
    """Every installed engine (the oracle aside) and task that accepts ``problem``."""
    return [
        (engine, task)
        for name, engine in ENGINES.items()
        if name != ORACLE and engine.available()
        for task in Task
        if task in engine.tasks and engine.refusal(problem, task) is None
    ]


class Oracle:
    """The exhaustive engine's answers for one problem, each computed once."""

    def __init__(self, problem: Problem) -> None:
        assert ENGINES[ORACLE].refusal(problem, Task.COUNT) is None, problem.describe()
        self.problem = problem
        self._results: dict[Task, Result] = {}

    def result(self, task: Task) -> Result:
        if task not in self._results:
            result = _call(self.problem, task, ORACLE, None)
            definite = (Status.FEASIBLE, Status.INFEASIBLE, Status.OPTIMAL, Status.COMPLETE)
            assert result.status in definite, result
            _check_placement(result)
            self._results[task] = result
        return self._results[task]


def _call(
    problem: Problem, task: Task, solver: str, time_limit: float | None, **options: Any
) -> Result:
    if task is Task.SOLVE:
        return api.solve(problem, solver=solver, time_limit=time_limit, **options)
    if task is Task.OPTIMIZE:
        return api.optimize(problem, solver=solver, time_limit=time_limit, **options)
    return api.count(problem, unique=True, solver=solver, time_limit=time_limit, **options)


def _check_placement(result: Result) -> None:
    if result.placement is not None:
        assert result.placement.verify() == (), result
        if result.objective is not None:
            assert result.objective == result.placement.objective, result


def _better(problem: Problem, a: int, b: int) -> bool:
    """True when objective ``a`` beats ``b`` in the problem's sense."""
    return a > b if problem.sense is Sense.MAXIMIZE else a < b


def check_engine(
    engine: Engine, task: Task, problem: Problem, oracle: Oracle, **options: Any
) -> None:
    """One engine's answer for ``task`` (run with ``options``) agrees with the oracle's."""
    if task is Task.LIST:
        check_listing(engine, problem, oracle)
        return
    limit = PROVEN_SECONDS if engine.proves else UNPROVEN_SECONDS
    result = _call(problem, task, engine.name, limit, **options)
    _check_placement(result)
    expected = oracle.result(task)
    if task is Task.SOLVE:
        if engine.proves or result.status is Status.INFEASIBLE:
            assert result.status is expected.status, result
        else:
            assert result.status in (expected.status, Status.UNKNOWN), result
        if result.status is Status.FEASIBLE:
            assert result.placement is not None, result
    elif task is Task.OPTIMIZE:
        check_optimum(engine, problem, result, expected)
    else:
        assert result.status is Status.COMPLETE, result
        assert (result.count, result.unique) == (expected.count, expected.unique), result


def check_optimum(engine: Engine, problem: Problem, result: Result, expected: Result) -> None:
    if expected.status is Status.INFEASIBLE:
        assert result.status in (Status.INFEASIBLE, Status.UNKNOWN), result
        assert not engine.proves or result.status is Status.INFEASIBLE, result
        return
    optimum = expected.objective
    assert optimum is not None
    if result.bound is not None:  # a proven bound never cuts off the optimum
        assert not _better(problem, optimum, result.bound), result
    if result.status is Status.OPTIMAL or engine.proves:
        assert result.status is Status.OPTIMAL, result
        assert result.objective == optimum, result
    elif result.status is Status.FEASIBLE:
        assert result.objective is not None and result.placement is not None, result
        assert not _better(problem, result.objective, optimum), result
    else:
        assert result.status is Status.UNKNOWN, result


def check_listing(engine: Engine, problem: Problem, oracle: Oracle) -> None:
    """Listed placements verify, are distinct, and number as many as the oracle counts
    (so they are every placement)."""
    seen = set()
    for placement in api.solutions(problem, solver=engine.name):
        assert placement.verify() == (), placement
        seen.add(placement.armies)
    assert len(seen) == oracle.result(Task.COUNT).count


def check_refused_without_a_count(engine: Engine, task: Task, problem: Problem) -> None:
    """api's rule: solving, counting and listing need a count to aim at."""
    with pytest.raises(api.BadRequest, match="sets no count"):
        if task is Task.LIST:
            api.solutions(problem, solver=engine.name)
        else:
            _call(problem, task, engine.name, None)


def check_problem(problem: Problem) -> None:
    oracle = Oracle(problem)
    for engine, task in engine_tasks(problem):
        try:
            if task is not Task.OPTIMIZE and not problem.has_target and not problem.dominating:
                check_refused_without_a_count(engine, task, problem)
                continue
            check_engine(engine, task, problem, oracle)
        except Exception as error:
            raise AssertionError(
                f"{engine.name} {task.value}: {problem.describe()}: {error!r}"
            ) from error


SQUARE = Board.square
EXAMPLES = (
    puzzles.queens(SQUARE(4)).with_counts(at_most=4),  # the bitboard counter once said 2
    puzzles.amazons(SQUARE(4)).with_counts(at_most=4),
    puzzles.queens(SQUARE(5)),
    puzzles.bishops(SQUARE(4)),
    puzzles.peaceable_queens(SQUARE(3)).with_counts(at_least=20),  # SAT count: a traceback
    puzzles.peaceable_queens(Board(3, 4)).with_counts(exactly=2),
    puzzles.dominating_queens(SQUARE(3)).with_counts(at_most=2),
    puzzles.region_puzzle("queens-game", ("AABBB", "AABBB", "ACCCB", "DDCCE", "DDDCE")),
    puzzles.region_puzzle("queens-game", ("AAAAB", "AAAAB", "ACDAB", "EEDBB", "EEDBB")),
)
"""Always run; between them every registered engine and task meets a problem it takes."""

COMMON = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _with_examples(test: Any) -> Any:
    for problem in EXAMPLES:
        test = example(problem=problem)(test)
    return test


@_with_examples
@settings(COMMON, max_examples=40, derandomize=True, database=None)
@given(problem=PROBLEMS)
def test_engines_agree_with_exhaustive_search(problem: Problem) -> None:
    check_problem(problem)


@pytest.mark.slow
@settings(COMMON, max_examples=300)
@given(problem=PROBLEMS)
def test_engines_agree_with_exhaustive_search_at_length(problem: Problem) -> None:
    check_problem(problem)


def test_every_engine_and_task_meets_an_example() -> None:
    """A newly registered engine is exercised: some example is one it takes (the GPU
    engine where this machine has a GPU or the simulator; else tests/test_gpu.py runs
    it on the simulator)."""
    missing = [
        f"{name} {task.value}"
        for name, engine in ENGINES.items()
        if name != ORACLE and not (name == "gpu" and not probe().found)
        for task in engine.tasks
        if all(engine.refusal(problem, task) is not None for problem in EXAMPLES)
    ]
    assert missing == [], "add an example these engines take to EXAMPLES"


ENCODED = Problem(
    "peaceable",
    Board(3, 3),
    (Army("white", piece_from_text("K"), 0, 2), Army("black", piece_from_text("K"), 0, 2)),
    independent=False,
    equal_armies=True,
)
"""Square variables (kings leap), upper and lower bounds, and a climb to the optimum."""


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_sat_encoding_agrees_with_exhaustive_search(encoding: str) -> None:
    oracle = Oracle(ENCODED)
    for task in (Task.SOLVE, Task.OPTIMIZE, Task.COUNT):
        check_engine(ENGINES["sat"], task, ENCODED, oracle, encoding=encoding)


def _exhaustive_count(problem: Problem) -> int | None:
    return api.count(problem, solver=ORACLE).count


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ("queens -n 4 --at-most 4", puzzles.queens(SQUARE(4)).with_counts(at_most=4)),
        ("amazons -n 4 --at-most 4", puzzles.amazons(SQUARE(4)).with_counts(at_most=4)),
        (
            "peaceable-queens -n 3 --at-least 20",
            puzzles.peaceable_queens(SQUARE(3)).with_counts(at_least=20),
        ),
    ],
)
def test_command_line_counts_agree_with_exhaustive_search(
    capsys: pytest.CaptureFixture[str], arguments: str, problem: Problem
) -> None:
    code = main(["count", *arguments.split(), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert (code, data["status"], data["count"]) == (0, "complete", _exhaustive_count(problem))


def test_web_count_agrees_with_exhaustive_search() -> None:
    testclient = pytest.importorskip("fastapi.testclient")
    from chessplace.faces.web.app import create_app

    with testclient.TestClient(create_app()) as client:
        body = {"puzzle": "amazons", "n": 4, "at_most": 4}
        data = client.post("/api/count", json=body).json()
    expected = _exhaustive_count(puzzles.amazons(SQUARE(4)).with_counts(at_most=4))
    assert (data["status"], data["count"]) == ("complete", expected)


@pytest.mark.parametrize("encoding", [*AT_MOST_ONE_ONLY, "nonsense"])
def test_encodings_that_cannot_bound_counts_are_refused(
    capsys: pytest.CaptureFixture[str], encoding: str
) -> None:
    code = main(["optimize", "peaceable-queens", "-n", "6", "--encoding", encoding])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1
    assert all(name in err for name in ENCODINGS)


def test_heuristic_solve_gives_up_without_a_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Local search cannot prove a target unreachable: it stops at its default limit."""
    pytest.importorskip("numba")
    from chessplace.engines.heuristic import engine as heuristic

    monkeypatch.setattr(heuristic, "DEFAULT_SECONDS", 0.5)
    unreachable = puzzles.peaceable_queens(SQUARE(3)).with_counts(at_least=5)
    answers: list[Result] = []
    worker = threading.Thread(
        target=lambda: answers.append(api.solve(unreachable, solver="heuristic")), daemon=True
    )
    worker.start()
    worker.join(30)
    assert [answer.status for answer in answers] == [Status.UNKNOWN]
