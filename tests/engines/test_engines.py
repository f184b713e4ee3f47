"""Every engine × puzzle on small boards: answers verify, engines agree, counts match."""

from __future__ import annotations

import re
import tomllib

import pytest

from chessplace import (
    Board,
    Placement,
    Problem,
    Status,
    count,
    optimize,
    piece_from_text,
    puzzles,
    solve,
)
from chessplace.data.reference import known
from chessplace.engines.base import Task
from chessplace.engines.registry import ENGINES, NoSolver, choose
from tests.conftest import assert_valid
from tests.paths import ROOT

SQUARE = Board.square


def small_problems() -> list[tuple[str, Problem]]:
    """Problems every general engine must handle, with their ids."""
    found = []
    for n in range(1, 6):
        found += [
            (f"queens-{n}", puzzles.queens(SQUARE(n))),
            (f"bishops-{n}", puzzles.bishops(SQUARE(n))),
            (
                f"peaceable-queens-{n}",
                # at least 1 where a(n) = 0: a solve needs a count to aim at
                puzzles.peaceable_queens(SQUARE(n)).with_counts(
                    at_least=max(1, known("A250000", n))
                ),
            ),
        ]
    found += [
        ("amazons-5", puzzles.amazons(SQUARE(5))),
        ("knights-4", puzzles.independent(SQUARE(4), piece_from_text("N")).with_counts(exactly=8)),
        (
            "nightriders-4",
            puzzles.independent(SQUARE(4), piece_from_text("NN")).with_counts(at_least=4),
        ),
        ("rect-queens-3x5", puzzles.queens(Board(3, 5))),
        ("dominating-queens-4", puzzles.dominating_queens(SQUARE(4)).with_counts(exactly=2)),
        (
            "peaceable-kings-3-armies",
            puzzles.peaceable(SQUARE(4), piece_from_text("K"), 3).with_counts(at_least=2),
        ),
    ]
    return found


PROBLEMS = small_problems()


def _oracle(problem: Problem, task: Task) -> str:
    """The exhaustive search where it runs, else CP-SAT."""
    try:
        choose(problem, task, "exhaustive")
    except NoSolver:
        return "cpsat"
    return "exhaustive"


@pytest.mark.parametrize("engine", ["cpsat", "sat", "exhaustive"])
@pytest.mark.parametrize(("label", "problem"), PROBLEMS, ids=[p[0] for p in PROBLEMS])
def test_general_engines_solve_and_agree(engine: str, label: str, problem: Problem) -> None:
    oracle = solve(problem, solver=_oracle(problem, Task.SOLVE))
    try:
        result = solve(problem, solver=engine)
    except NoSolver:
        assert engine == "exhaustive"
        return
    assert result.status == oracle.status
    if result.status is Status.FEASIBLE:
        assert_valid(result)


def test_construction_solves_what_it_claims() -> None:
    for n in [1, 4, 5, 6, 7, 8, 9, 14, 15, 20, 26, 27, 200]:
        assert_valid(solve(puzzles.queens(SQUARE(n)), solver="construction"))
        assert_valid(solve(puzzles.bishops(SQUARE(n)), solver="construction"))
    with pytest.raises(NoSolver):
        solve(puzzles.queens(SQUARE(3)), solver="construction")


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 2), (3, 5), (5, 3), (2, 9), (9, 3), (3, 4)])
def test_queens_on_a_short_side_of_2_or_3_agree_with_brute_force(rows: int, cols: int) -> None:
    """A staircase of knight's moves places 2 or 3 queens when the long side has room."""
    problem = puzzles.queens(Board(rows, cols))
    best = optimize(problem, solver="exhaustive")
    assert best.objective == min(rows, cols)  # every one of these boards holds the full count
    if max(rows, cols) >= 2 * min(rows, cols) - 1:
        built = optimize(problem, solver="construction")
        assert_valid(built)
        assert built.status is Status.OPTIMAL and built.objective == best.objective
    else:
        with pytest.raises(NoSolver):
            solve(problem, solver="construction")


def test_two_queens_on_a_board_a_billion_files_long() -> None:
    result = solve(puzzles.queens(Board(2, 10**9)))
    assert_valid(result)
    assert result.solver == "construction" and len(result.placement) == 2


@pytest.mark.parametrize("n", range(1, 12))
def test_queens_answer_for_every_n(n: int) -> None:
    result = solve(puzzles.queens(SQUARE(n)))
    if n in (2, 3):
        assert result.status is Status.INFEASIBLE
    else:
        assert_valid(result)


@pytest.mark.parametrize("n", range(1, 9))
def test_bishops_optimum_is_two_n_minus_two(n: int) -> None:
    for engine in ("cpsat", "sat"):
        result = optimize(puzzles.bishops(SQUARE(n)), solver=engine)
        assert result.status is Status.OPTIMAL
        assert result.objective == max(1, 2 * n - 2) == known("bishops", n)
        assert_valid(result)


def test_fourteen_bishops_on_eight_by_eight() -> None:
    result = solve(puzzles.bishops(SQUARE(8)).with_counts(at_least=14), solver="cpsat")
    assert len(assert_valid(result)) >= 14


@pytest.mark.parametrize("n", range(2, 10))
def test_no_amazons_below_ten(n: int) -> None:
    assert solve(puzzles.amazons(SQUARE(n))).status is Status.INFEASIBLE


@pytest.mark.parametrize("n", range(10, 21))
def test_amazons_from_ten_to_twenty(n: int) -> None:
    assert_valid(solve(puzzles.amazons(SQUARE(n))))


@pytest.mark.parametrize(
    ("n", "engine"),
    [
        *((n, engine) for n in range(1, 7) for engine in ("cpsat", "sat")),
        (7, "sat"),
        # CP-SAT's proof at n = 7 is the costly one (13 to 28 s on two loaded cores):
        # SAT's at 7 and CP-SAT's up to 6 stay in the default run
        pytest.param(7, "cpsat", marks=pytest.mark.slow),
    ],
)
def test_peaceable_queens_optima_agree(n: int, engine: str) -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(n)), solver=engine)
    assert result.status is Status.OPTIMAL
    assert result.objective == known("A250000", n)
    assert_valid(result)


def test_nine_peaceable_queens_on_eight_by_eight() -> None:
    problem = puzzles.peaceable_queens(SQUARE(8)).with_counts(at_least=9)
    placement = assert_valid(solve(problem))
    assert placement.objective >= 9


@pytest.mark.parametrize("n", range(1, 9))
def test_queen_domination(n: int) -> None:
    result = optimize(puzzles.dominating_queens(SQUARE(n)))
    assert result.status is Status.OPTIMAL
    assert result.objective == known("A075458", n)
    assert_valid(result)


@pytest.mark.parametrize("n", range(1, 5))
def test_optima_match_exhaustive_search(n: int) -> None:
    for problem in (
        puzzles.dominating_queens(SQUARE(n + 1)),
        puzzles.independent(SQUARE(n), piece_from_text("NN")),
        puzzles.peaceable_queens(SQUARE(n)),
    ):
        oracle = optimize(problem, solver="exhaustive")
        for engine in ("cpsat", "sat"):
            assert optimize(problem, solver=engine).objective == oracle.objective


COUNTED = [
    puzzles.queens(SQUARE(5)),
    puzzles.queens(SQUARE(6)),
    puzzles.bishops(SQUARE(4)),
    puzzles.amazons(SQUARE(5)),
    puzzles.independent(SQUARE(4), piece_from_text("N")).with_counts(exactly=6),
    puzzles.independent(SQUARE(5), piece_from_text("R")).with_counts(exactly=5),
    puzzles.independent(SQUARE(5), piece_from_text("RN")).with_counts(exactly=5),
    puzzles.independent(Board(3, 4), piece_from_text("K")).with_counts(exactly=3),
    puzzles.peaceable_queens(SQUARE(4)).with_counts(exactly=2),
    puzzles.dominating_queens(SQUARE(4)).with_counts(exactly=2),
]


@pytest.mark.parametrize("problem", COUNTED, ids=[p.describe() for p in COUNTED])
def test_counts_match_exhaustive_search(problem: Problem) -> None:
    oracle = count(problem, unique=True, solver="exhaustive")
    assert oracle.status is Status.COMPLETE
    for engine in ("cpsat", "bitboard"):
        try:
            choose(problem, Task.COUNT, engine)
        except NoSolver:
            continue
        result = count(problem, unique=True, solver=engine)
        assert (result.count, result.unique) == (oracle.count, oracle.unique), engine


@pytest.mark.parametrize("n", [8, 12])
def test_queen_counts_match_oeis(n: int) -> None:
    result = count(puzzles.queens(SQUARE(n)), unique=True)
    assert (result.count, result.unique) == (known("A000170", n), known("A002562", n))


def test_amazon_count_for_ten() -> None:
    result = count(puzzles.amazons(SQUARE(10)), unique=True)
    assert (result.count, result.unique) == (4, 1)


def test_every_engine_is_registered_with_its_tasks() -> None:
    assert set(ENGINES) == {
        "construction",
        "bitboard",
        "gpu",
        "cpsat",
        "sat",
        "exhaustive",
        "heuristic",
        "lines",
        "portfolio",
        "regions",
    }
    with pytest.raises(NoSolver, match="choose from"):
        solve(puzzles.queens(SQUARE(4)), solver="gurobi")


def _extras() -> dict[str, list[str]]:
    """pyproject.toml's extras, each with the names of the packages it installs."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    return {
        extra: [re.split(r"[\[<>=!~; ]", r)[0] for r in needs] for extra, needs in extras.items()
    }


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_an_engine_not_installed_names_an_extra_that_installs_it(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The hint names an extra of pyproject.toml that installs the engine's package
    (there is no chessplace[bitboard], [lines], [regions] or [heuristic])."""
    engine = ENGINES[name]
    monkeypatch.setattr(type(engine), "available", lambda self: False)
    with pytest.raises(NoSolver, match="is not installed") as refused:
        choose(puzzles.queens(SQUARE(4)), Task.SOLVE, name)
    hint = re.fullmatch(
        r"solver '\w+' is not installed: pip install '(chessplace(\[(\w+)\])?)'", str(refused.value)
    )
    assert hint, refused.value
    extra = hint.group(3)
    if engine.package is None:
        assert extra is None  # it needs nothing more
    else:
        assert extra in _extras() and engine.package in _extras()[extra], (name, extra)


@pytest.mark.parametrize("encoding", ["seqcounter", "totalizer", "cardnetwrk", "sortnetwrk"])
def test_sat_encodings_agree(encoding: str) -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(5)), solver="sat", encoding=encoding)
    assert result.objective == 4


def test_time_limit_reports_best_so_far() -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(10)), solver="cpsat", time_limit=1.0)
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL, Status.UNKNOWN)
    if result.placement is not None:
        assert_valid(result)
        assert result.bound is not None and result.bound >= (result.objective or 0)


SYMMETRIC = [
    *(puzzles.peaceable_queens(SQUARE(n)) for n in range(2, 5)),
    *(puzzles.dominating_queens(SQUARE(n)) for n in range(2, 6)),
    puzzles.independent(SQUARE(4), piece_from_text("NN")),
    puzzles.peaceable(SQUARE(3), piece_from_text("K")),
    puzzles.independent(Board(3, 5), piece_from_text("B")),
]


def _orbit(problem: Problem, chosen: frozenset[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    from chessplace.encodings.symmetry import group

    return min(tuple(sorted(map(g, chosen))) for g in [lambda v: v, *group(problem)])


@pytest.mark.parametrize("problem", SYMMETRIC, ids=[p.describe() for p in SYMMETRIC])
def test_symmetry_breaking_keeps_every_orbit(problem: Problem) -> None:
    """Lex-leader constraints over board symmetries and colour swap are sound: at the
    optimum, every orbit of solutions keeps a member, and fewer placements remain."""
    from pysat.solvers import Solver

    from chessplace.encodings.formulas import SquareFormula

    oracle = optimize(problem, solver="exhaustive")
    assert optimize(problem, solver="sat").objective == oracle.objective
    target = problem.with_counts(exactly=oracle.objective)
    board = problem.board
    everything = {
        frozenset((a, board.index(s)) for a, squares in enumerate(p.armies) for s in squares)
        for p in _all_placements(target)
    }
    formula = SquareFormula(target, "totalizer")
    literals = {
        formula.var((a, s)): (a, s) for a in range(len(problem.armies)) for s in range(board.size)
    }
    kept = set()
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            kept.add(frozenset(literals[v] for v in model if v in literals))
            solver.add_clause([-v for v in model if abs(v) in literals])
    assert kept <= everything
    assert {_orbit(problem, p) for p in kept} == {_orbit(problem, p) for p in everything}
    assert len(kept) < len(everything) or len(everything) == 1


def _all_placements(problem: Problem) -> list[Placement]:
    from chessplace.engines.exhaustive import _placements
    from chessplace.runtime.control import Control

    return list(_placements(problem, Control()))


def test_a_count_with_a_limit_past_the_total_is_complete_and_a_stopped_one_says_so() -> None:
    whole = count(puzzles.queens(SQUARE(8)), limit=10**18)
    assert (whole.status, whole.count, whole.note) == (Status.COMPLETE, 92, "")
    assert_valid(whole)
    stopped = count(puzzles.queens(SQUARE(16)), limit=10**18, time_limit=1)
    assert stopped.status is Status.PARTIAL
    found = f"at least {stopped.count:,}" if stopped.count else "none found yet"
    assert stopped.note == f"stopped before the end: {found}"
    assert stopped.count == 0 or assert_valid(stopped)
