"""The portfolio: engines race side by side, share their best and their bounds, stop at
the first proof, and leave no thread or child process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from chessplace import api, puzzles
from chessplace.core.board import Board
from chessplace.core.pieces import piece_from_text
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result, Status
from chessplace.data.reference import known
from chessplace.engines.base import Task
from chessplace.engines.catalog import SINGLE_ENGINES
from chessplace.engines.portfolio import PortfolioEngine, _Member, _Race
from chessplace.engines.registry import choose
from chessplace.runtime.control import Control
from tests.conftest import assert_valid
from tests.processes import alive, children, lasting_child
from tests.waiting import wait_until

SQUARE = Board.square
KNIGHT = piece_from_text("N")


def _members_left() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("portfolio-")]


_BEFORE: set[int] = set()


@pytest.fixture(autouse=True)
def _children_before() -> None:
    """Children alive before a test (a web test's forkserver, multiprocessing's
    resource tracker) are not the test's to end."""
    _BEFORE.clear()
    _BEFORE.update(children(os.getpid()))


def _new_children() -> list[int]:
    return [pid for pid in children(os.getpid()) if pid not in _BEFORE]


def _assert_nothing_left() -> None:
    wait_until(  # a killed child may take a moment to be reaped
        lambda: not _members_left() and not _new_children(),
        what=lambda: f"no member left (threads {_members_left()}, children {_new_children()})",
    )


AGREEMENT = [
    ("optimize", puzzles.amazons(SQUARE(5))),
    ("optimize", puzzles.independent(Board(4, 5), KNIGHT)),
    ("optimize", puzzles.dominating_queens(SQUARE(4))),
    ("optimize", puzzles.peaceable_queens(SQUARE(4))),
    ("optimize", puzzles.peaceable_queens(SQUARE(3), armies=3)),
    ("solve", puzzles.queens(SQUARE(3)).with_counts(exactly=3)),  # infeasible
    ("solve", puzzles.peaceable_queens(SQUARE(4)).with_counts(at_least=3)),  # infeasible
    ("solve", puzzles.peaceable_queens(SQUARE(4)).with_counts(at_least=2)),
]


def _answer(task: str, problem: Problem, solver: str) -> Result:
    call = api.optimize if task == "optimize" else api.solve
    return call(problem, solver=solver, time_limit=120)


@pytest.mark.parametrize(("task", "problem"), AGREEMENT)
def test_the_portfolio_agrees_with_exhaustive_search(task: str, problem: Problem) -> None:
    result = _answer(task, problem, "portfolio")
    expected = _answer(task, problem, "exhaustive")
    assert (result.status, result.objective) == (expected.status, expected.objective), result
    assert result.solver.startswith("portfolio("), result
    if result.status is not Status.INFEASIBLE:
        assert_valid(result)
    if result.status is Status.OPTIMAL:
        assert result.bound == result.objective


def test_the_portfolio_answers_unless_one_engine_is_named() -> None:
    problem = puzzles.independent(SQUARE(4), KNIGHT)
    raced = api.optimize(problem)
    assert raced.solver.startswith("portfolio(") and raced.status is Status.OPTIMAL
    assert raced.passed_over and raced.passed_over[0].startswith("construction: ")
    alone = api.optimize(problem, solver="cpsat")
    assert alone.solver == "cpsat" and alone.objective == raced.objective


def test_the_line_engine_runs_alone_where_it_applies() -> None:
    pytest.importorskip("numba")
    assert choose(puzzles.peaceable_queens(SQUARE(8)), Task.OPTIMIZE).engine.name == "lines"
    assert choose(puzzles.peaceable_queens(SQUARE(8), white=5), Task.OPTIMIZE).engine.name == (
        "lines"
    )
    three = puzzles.peaceable_queens(SQUARE(8), armies=3)
    assert choose(three, Task.OPTIMIZE).engine.name == "lines"
    four = puzzles.peaceable_queens(SQUARE(8), armies=4)
    assert choose(four, Task.OPTIMIZE).engine.name == "portfolio"


def test_a_problem_one_prover_takes_is_left_to_it() -> None:
    large = puzzles.independent(SQUARE(40), KNIGHT)  # beyond SAT's board limit
    choice = choose(large, Task.OPTIMIZE)
    assert choice.engine.name == "cpsat"
    assert any(reason.startswith("portfolio: fewer than two") for reason in choice.passed_over)


def test_members_are_the_accepting_provers_then_spare_cores() -> None:
    portfolio = PortfolioEngine()
    problem = puzzles.peaceable_queens(SQUARE(8))
    two = [engine.name for engine in portfolio.members(problem, Task.OPTIMIZE, 2)]
    many = [engine.name for engine in portfolio.members(problem, Task.OPTIMIZE, 16)]
    assert two == ["lines", "sat"]
    assert many == ["lines", "sat", "cpsat", "heuristic"]
    domination = puzzles.dominating_queens(SQUARE(6))
    assert [e.name for e in portfolio.members(domination, Task.OPTIMIZE, 2)] == ["sat", "cpsat"]


def test_a_bound_from_one_member_and_a_placement_from_another_are_a_proof() -> None:
    problem = puzzles.independent(SQUARE(4), KNIGHT)
    optimum = api.optimize(problem, solver="exhaustive")
    smaller = api.solve(problem.with_counts(exactly=6), solver="exhaustive").placement
    assert optimum.objective == 8 and optimum.bound == 8 and smaller is not None
    parent = Control()
    race = _Race(problem, Task.OPTIMIZE, parent)
    race.offer("cpsat", smaller, None, "")
    race.offer("exhaustive", None, optimum.bound, "")
    race.offer("exhaustive", None, 20, "")  # a looser bound changes nothing
    assert race.answer is None and race.bound == 8
    race.offer("sat", optimum.placement, None, "")
    answer = race.outcome()
    assert (answer.status, answer.objective, answer.bound) == (Status.OPTIMAL, 8, 8)
    assert answer.solver == "portfolio(sat)" and "proven by exhaustive" in answer.note
    assert answer.placement == optimum.placement and parent.best == optimum.placement


def test_a_member_stopped_by_the_winner_reports_nothing() -> None:
    """Once a proof has won, a member that returns empty-handed (stopped by the win)
    adds no "returned unknown" line; before any win, it does."""
    problem = puzzles.queens(SQUARE(8)).with_counts(exactly=9)
    proof = api.solve(problem, solver="sat")
    assert proof.status is Status.INFEASIBLE
    for won in (True, False):
        messages: list[str | None] = []
        heard = Control(on_progress=lambda progress, to=messages: to.append(progress.message))
        race = _Race(problem, Task.SOLVE, heard)
        for name in ("sat", "cpsat"):
            race.members[name] = _Member(SINGLE_ENGINES[name], Control())
        if won:
            race.finished("sat", proof)
        race.finished("cpsat", Result(Status.UNKNOWN, "cpsat"))
        assert (race.answer is not None) is won
        assert messages == ([] if won else ["cpsat returned unknown"])


def test_a_lower_bound_proves_a_smallest_placement() -> None:
    problem = puzzles.dominating_queens(SQUARE(4))
    optimum = api.optimize(problem, solver="exhaustive")
    larger = api.solve(problem.with_counts(exactly=3), solver="exhaustive").placement
    assert optimum.objective == 2 and larger is not None
    race = _Race(problem, Task.OPTIMIZE, Control())
    race.offer("cpsat", larger, 2, "")
    assert race.answer is None
    race.offer("sat", optimum.placement, 1, "")  # a weaker lower bound is not taken
    answer = race.outcome()
    assert (answer.status, answer.objective, answer.bound) == (Status.OPTIMAL, 2, 2)


def test_the_first_proof_stops_a_slow_member() -> None:
    """The line engine proves a(8) at once; CP-SAT alone takes far longer than the wait."""
    pytest.importorskip("numba")
    problem = puzzles.peaceable_queens(SQUARE(8))
    answers: list[Result] = []
    worker = threading.Thread(
        target=lambda: answers.append(
            api.optimize(problem, solver="portfolio", members=("lines", "cpsat"))
        ),
        daemon=True,
    )
    worker.start()
    worker.join(120)
    assert answers, "the portfolio did not stop CP-SAT after the line engine's proof"
    (result,) = answers
    assert result.status is Status.OPTIMAL and result.objective == known("A250000", 8)
    assert result.solver == "portfolio(lines)"
    assert_valid(result)
    _assert_nothing_left()


def test_a_time_limit_stops_every_member() -> None:
    problem = puzzles.peaceable_queens(SQUARE(11), armies=3)  # every member far from done
    started = time.monotonic()
    result = api.optimize(problem, solver="portfolio", time_limit=2)
    assert time.monotonic() - started < 2 + 10
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN), result
    if result.placement is not None:
        assert_valid(result)
    _assert_nothing_left()


def test_a_stop_request_stops_every_member() -> None:
    problem = puzzles.peaceable_queens(SQUARE(13))
    control = Control()
    threading.Timer(2, control.stop).start()
    started = time.monotonic()
    result = api.optimize(problem, solver="portfolio", control=control)  # lines and sat
    assert time.monotonic() - started < 2 + 10
    assert result.status is Status.FEASIBLE and result.solver.startswith("portfolio(")
    assert_valid(result)
    _assert_nothing_left()


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_ctrl_c_stops_the_command_and_its_sat_children() -> None:
    command = ["optimize", "peaceable-queens", "-n", "11", "--armies", "3", "--solver", "portfolio"]
    process = subprocess.Popen(
        [sys.executable, "-m", "chessplace", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_until(lasting_child(process.pid, 1), what="SAT children at work", alive=process)
        solvers = children(process.pid)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 3, err
    assert "Traceback" not in err
    assert "best found, not proven · portfolio(" in out
    wait_until(lambda: not any(map(alive, solvers)), what="the SAT children gone")


def test_sat_climbs_from_the_placement_another_member_found() -> None:
    problem = puzzles.independent(SQUARE(4), KNIGHT)
    optimum = api.optimize(problem, solver="exhaustive").placement
    assert optimum is not None

    class Racing(Control):
        def incumbent(self) -> Placement | None:
            return optimum

    result = api.optimize(problem, solver="sat", control=Racing())
    assert result.status is Status.OPTIMAL and result.placement is optimum
