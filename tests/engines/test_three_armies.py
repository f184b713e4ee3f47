"""The line engine on three equal armies (OEIS A328283): colours 0, 1 and 2 on every
line, the board's symmetries with the six colour permutations, and its own bounds."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chessplace import Board, Problem, Shape, Status, optimize, piece_from_text, puzzles, solve
from chessplace.core.pieces import QUEEN, ROOK
from chessplace.data.reference import known
from chessplace.encodings import lines
from chessplace.engines.base import Task
from chessplace.engines.lines.bounds_three_armies import product_table
from chessplace.engines.lines.engine import LineSearchEngine, labels_of, placement_of
from chessplace.engines.lines.geometry import geometry
from chessplace.engines.lines.runner import LineSearch
from chessplace.engines.registry import ENGINES, choose
from chessplace.runtime.control import Control
from chessplace.runtime.journal import CheckpointMismatch
from tests.conftest import assert_valid
from tests.engines.test_line_engine import _rank_file_image, _rank_files, _stopping_after

SQUARE = Board.square


def three(board: Board, piece: str = "Q") -> Problem:
    return puzzles.peaceable(board, piece_from_text(piece), armies=3)


@pytest.mark.parametrize("n", [*range(1, 10), pytest.param(10, marks=pytest.mark.slow)])
def test_optimize_proves_a328283(n: int) -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(n), armies=3))
    assert result.solver == "lines"
    assert result.status is Status.OPTIMAL
    assert result.objective == result.bound == known("A328283", n)
    if result.objective:
        assert assert_valid(result).army_sizes == (result.objective,) * 3


SMALL = [
    three(Board(3, 4)),
    three(Board(4, 3)),
    three(SQUARE(4)),
    three(Board(3, 5)),
    three(Board(3, 4), "R"),
    three(Board(4, 4), "R"),
    three(Board(3, 4), "B"),
    three(Board(4, 4), "B"),
    three(Board.square(4, Shape.TORUS)),
    three(Board(3, 5, Shape.TORUS), "R"),
    three(Board(3, 4), "NN"),
]


@pytest.mark.parametrize("problem", SMALL, ids=[p.describe() for p in SMALL])
def test_agrees_with_sat_and_exhaustive(problem: Problem) -> None:
    """The line engine's optimum is SAT's, and the exhaustive oracle's: the oracle finds
    that many of each and proves one more of each impossible. Two decisions, not its
    optimisation, which walks every placement free of counts (12 s against 2 for 4×4
    bishops, 21 against 6 over these boards)."""
    by_lines = optimize(problem, solver="lines")
    assert by_lines.status is Status.OPTIMAL
    best = by_lines.objective
    assert best is not None
    if best:  # at least 0 of each is no count to solve: the empty board has it
        reached = solve(problem.with_counts(at_least=best), solver="exhaustive")
        assert min(assert_valid(reached).army_sizes) >= best
    beyond = solve(problem.with_counts(at_least=best + 1), solver="exhaustive")
    assert beyond.status is Status.INFEASIBLE
    assert by_lines.objective == optimize(problem, solver="sat").objective
    if by_lines.objective:
        assert min(assert_valid(by_lines).army_sizes) == by_lines.objective


@pytest.mark.parametrize("n", range(4, 9))
def test_checks_at_and_beyond_the_optimum(n: int) -> None:
    best = known("A328283", n)
    problem = puzzles.peaceable_queens(SQUARE(n), armies=3)
    found = solve(problem.with_counts(at_least=best), solver="lines")
    assert found.status is Status.FEASIBLE
    assert min(assert_valid(found).army_sizes) >= best
    exact = solve(problem.with_counts(exactly=best), solver="lines")
    assert assert_valid(exact).army_sizes == (best,) * 3
    beyond = solve(problem.with_counts(at_least=best + 1), solver="lines")
    assert beyond.status is Status.INFEASIBLE


def _orbit(board: Board, ranks: tuple[int, ...], files: tuple[int, ...]) -> frozenset:
    images = set()
    for k in range(len(board.symmetries())):
        r, f = _rank_file_image(board, k, ranks, files)
        for p in itertools.permutations(range(3)):
            images.add((tuple(p[c] for c in r), tuple(p[c] for c in f)))
    return frozenset(images)


@pytest.mark.parametrize(
    ("board", "piece"), [(SQUARE(4), QUEEN), (Board(3, 5), QUEEN), (Board(3, 4), ROOK)]
)
def test_symmetry_cut_keeps_every_orbit(board: Board, piece: object) -> None:
    """With target 0 no bound cuts: the rank/file labellings kept must meet every orbit of
    all 3^(rows+cols) under the board's symmetries and the colour permutations."""
    depth = board.rows + board.cols
    every = LineSearch(geometry(board, piece, False, colours=3), 1).prefixes(depth)
    everything = _rank_files(every, board.rows, board.cols)
    assert len(everything) == 3**depth
    kept = _rank_files(
        LineSearch(geometry(board, piece, True, colours=3), 1).prefixes(depth),
        board.rows,
        board.cols,
    )
    orbits = {_orbit(board, *labelling) for labelling in everything}
    assert {_orbit(board, *labelling) for labelling in kept} == orbits
    assert len(kept) < len(everything) // 12


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (4, 5), (5, 2)])
def test_product_table_is_the_best_completion(rows: int, cols: int) -> None:
    """Every entry is the largest min_c R_c·F_c over the ways to colour the open ranks
    and files, found here by trying them all."""
    table, rank_index, file_index = product_table(rows, cols)

    def completions(total: int, labelled: tuple[int, ...]) -> list[tuple[int, ...]]:
        open_lines = total - sum(labelled)
        return [
            tuple(a + b for a, b in zip(labelled, extra, strict=True))
            for extra in itertools.product(range(open_lines + 1), repeat=3)
            if sum(extra) == open_lines
        ]

    for r in itertools.product(range(rows + 1), repeat=3):
        for f in itertools.product(range(cols + 1), repeat=3):
            if sum(r) > rows or sum(f) > cols:
                assert rank_index[r] == -1 or file_index[f] == -1
                continue
            best = max(
                min(a * b for a, b in zip(rr, ff, strict=True))
                for rr in completions(rows, r)
                for ff in completions(cols, f)
            )
            assert table[rank_index[r], file_index[f]] == best


@pytest.mark.parametrize("n", range(1, 15))
def test_the_quick_bound_holds(n: int) -> None:
    bound = lines.upper_bound(puzzles.peaceable_queens(SQUARE(n), armies=3))
    assert bound is not None and bound >= known("A328283", n)


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 7), (5, 3), (6, 6), (9, 4), (11, 13)])
def test_the_quick_bound_is_the_product_table_at_the_root(rows: int, cols: int) -> None:
    table, rank_index, file_index = product_table(rows, cols)
    root = int(table[rank_index[0, 0, 0], file_index[0, 0, 0]])
    assert lines.upper_bound(puzzles.peaceable_queens(Board(rows, cols), armies=3)) == root


def test_refusals() -> None:
    engine = ENGINES["lines"]
    assert engine.refusal(puzzles.peaceable_queens(SQUARE(5), armies=3), Task.OPTIMIZE) is None
    counting = puzzles.peaceable_queens(SQUARE(5), armies=3).with_counts(exactly=1)
    assert "three armies" in (engine.refusal(counting, Task.COUNT) or "")
    assert engine.refusal(puzzles.peaceable_queens(SQUARE(5), armies=4), Task.OPTIMIZE)
    assert engine.refusal(puzzles.peaceable_queens(SQUARE(25), armies=3), Task.OPTIMIZE)
    assert choose(counting, Task.COUNT).engine.name != "lines"


def test_labels_of_a_placement_keep_every_army() -> None:
    """A known placement's labels (each line the colour of its pieces) are worth at least
    its smallest army, as a checkpoint's first record must be. The placement is SAT's
    answer to "A328283(7) of each" (0.1 s; its proof of the optimum took 4 s)."""
    problem = puzzles.peaceable_queens(SQUARE(7), armies=3)
    found = solve(problem.with_counts(at_least=known("A328283", 7)), solver="sat")
    g = geometry(SQUARE(7), QUEEN, colours=3)
    labels = labels_of(g, assert_valid(found))
    assert LineSearch(g, 1).value(labels) >= known("A328283", 7)
    assert min(placement_of(problem, g, labels).army_sizes) == known("A328283", 7)


def test_a_stopped_proof_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    problem = puzzles.peaceable_queens(SQUARE(8), armies=3)
    path = tmp_path / "three8.jsonl"
    stopped = LineSearchEngine(checkpoint=path).optimize(problem, _stopping_after(100))
    assert stopped.status is not Status.OPTIMAL
    header = json.loads(path.read_text().splitlines()[0])["header"]
    assert header.get("armies") == 3, header
    resumed = LineSearchEngine(checkpoint=path).optimize(problem, Control())
    assert resumed.status is Status.OPTIMAL and resumed.objective == known("A328283", 8)
    assert assert_valid(resumed).army_sizes == (resumed.objective,) * 3
    with pytest.raises(CheckpointMismatch):  # two armies' search on three armies' file
        LineSearch(geometry(SQUARE(8), QUEEN), 1, path).run(10, False, Control())


def test_the_command_line_proves_three_armies() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "chessplace",
            *["optimize", "peaceable-queens", "-n", "7", "--armies", "3", "--json"],
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["status"] == "optimal" and answer["objective"] == known("A328283", 7)
    assert answer["solver"] == "lines"
