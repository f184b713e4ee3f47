"""The ``lines`` engine: branch and bound over line labellings for peaceable riders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chessplace import Board, Problem, Shape, Status, optimize, piece_from_text, puzzles, solve
from chessplace.core.pieces import QUEEN, ROOK
from chessplace.data.reference import known
from chessplace.engines.base import Task
from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.engine import LineSearchEngine
from chessplace.engines.lines.geometry import geometry
from chessplace.engines.lines.runner import LineSearch
from chessplace.engines.registry import ENGINES
from chessplace.runtime.control import Control, Progress
from chessplace.runtime.journal import CheckpointMismatch
from tests.conftest import assert_valid
from tests.paths import ROOT

SQUARE = Board.square


@pytest.mark.parametrize("n", range(1, 10))
def test_optimize_proves_a250000(n: int) -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(n)), solver="lines")
    assert result.status is Status.OPTIMAL
    assert result.objective == result.bound == known("A250000", n)
    assert assert_valid(result).army_sizes == (result.objective, result.objective)


SMALL = [
    *(
        puzzles.peaceable(board, piece_from_text("R"))
        for board in (Board(3, 4), Board(4, 3), Board(2, 5), SQUARE(4), Board(3, 5))
    ),
    *(
        puzzles.peaceable(board, piece_from_text("B"))
        for board in (Board(3, 4), Board(4, 3), Board(2, 5), SQUARE(3), Board(2, 6))
    ),
    puzzles.peaceable_queens(Board(3, 5)),
    puzzles.peaceable_queens(SQUARE(4)),
    puzzles.peaceable(Board(3, 4), piece_from_text("NN")),
]


@pytest.mark.parametrize("problem", SMALL, ids=[p.describe() for p in SMALL])
def test_agrees_with_sat_and_exhaustive(problem: Problem) -> None:
    oracle = optimize(problem, solver="exhaustive")
    by_lines = optimize(problem, solver="lines")
    assert by_lines.status is Status.OPTIMAL
    assert by_lines.objective == oracle.objective == optimize(problem, solver="sat").objective
    assert min(assert_valid(by_lines).army_sizes) == by_lines.objective


@pytest.mark.parametrize(
    ("board", "piece", "white"),
    [
        (SQUARE(7), QUEEN, None),
        (Board(5, 8), QUEEN, None),
        (Board.square(7, Shape.TORUS), QUEEN, None),
        (SQUARE(8), QUEEN, 9),
        (SQUARE(6), piece_from_text("B"), None),
    ],
)
def test_a_witness_is_a_whole_labelling_worth_its_value(
    board: Board, piece: object, white: int | None
) -> None:
    """The search stops at a node whose open lines each have one useful colour; the
    witness must still label every line, and be worth what the search reported."""
    g = geometry(board, piece, swap=white is None)
    search = LineSearch(g, 1, white_target=white)
    shared = search.shared(0)
    out = np.zeros((1, g.lines), dtype=np.int8)
    status, best, _, _, _, witness = call(g, np.zeros(0, dtype=np.int8), -1, out, True, shared)
    assert status == kernel.EXHAUSTED
    assert set(witness.tolist()) <= {0, 1}
    assert search.value(witness) == best > 0
    static = call(g, np.zeros(0, dtype=np.int8), -1, out, True, search.shared(0), g.lines)
    assert static[:2] == (kernel.EXHAUSTED, best)  # the order of the geometry throughout


ORDERS = [
    (Board(rows, cols, shape), piece_from_text(piece), white)
    for rows, cols, shape in (
        (3, 5, Shape.PLANE),
        (5, 5, Shape.PLANE),
        (4, 6, Shape.PLANE),
        (6, 6, Shape.TORUS),
        (5, 7, Shape.TORUS),
    )
    for piece in ("Q", "B", "NN", "R")
    for white in (None, 3)
]


@pytest.mark.parametrize(("board", "piece", "white"), ORDERS)
def test_its_own_order_finds_what_the_fixed_order_finds(
    board: Board, piece: object, white: int | None
) -> None:
    """Below the ranks and files the search picks its lines; following the geometry's
    order all the way must give the same best value (and witnesses worth it)."""
    g = geometry(board, piece, swap=white is None)
    search = LineSearch(g, 1, white_target=white)
    out = np.zeros((1, g.lines), dtype=np.int8)
    answers = [
        call(g, np.zeros(0, dtype=np.int8), -1, out, True, search.shared(0), static)
        for static in (0, g.lines)
    ]
    (own, _, _, _, _, witness), (fixed, best, _, _, _, _) = answers
    assert own == fixed == kernel.EXHAUSTED
    assert answers[0][1] == best and (best < 0 or search.value(witness) == best)


@pytest.mark.parametrize("n", range(3, 9))
def test_checks_at_and_beyond_the_optimum(n: int) -> None:
    best = known("A250000", n)
    problem = puzzles.peaceable_queens(SQUARE(n))
    found = solve(problem.with_counts(at_least=best), solver="lines")
    assert found.status is Status.FEASIBLE
    assert min(assert_valid(found).army_sizes) >= best
    exact = solve(problem.with_counts(exactly=best), solver="lines")
    assert assert_valid(exact).army_sizes == (best, best)
    assert solve(problem.with_counts(at_least=best + 1), solver="lines").status is (
        Status.INFEASIBLE
    )


def _rank_file_image(
    board: Board, symmetry_index: int, ranks: tuple[int, ...], files: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks and files coloured by mapping each rank and file's squares by a board symmetry."""
    g = board.symmetries()[symmetry_index]
    new_ranks = [-1] * board.rows
    new_files = [-1] * board.cols
    for kind, colours in (("rank", ranks), ("file", files)):
        for i, colour in enumerate(colours):
            a, b = ((0, i), (1, i)) if kind == "rank" else ((i, 0), (i, 1))
            (x0, y0), (_, y1) = g(a), g(b)
            if y0 == y1:
                new_ranks[y0] = colour
            else:
                new_files[x0] = colour
    return tuple(new_ranks), tuple(new_files)


def _orbit(board: Board, ranks: tuple[int, ...], files: tuple[int, ...]) -> frozenset:
    images = set()
    for k in range(len(board.symmetries())):
        r, f = _rank_file_image(board, k, ranks, files)
        images |= {(r, f), (tuple(1 - c for c in r), tuple(1 - c for c in f))}
    return frozenset(images)


def _rank_files(prefixes: np.ndarray, rows: int, cols: int) -> set[tuple[tuple[int, ...], ...]]:
    """(ranks, files) of labels by line: the ranks' lines come first, then the files'."""
    return {(tuple(map(int, p[:rows])), tuple(map(int, p[rows : rows + cols]))) for p in prefixes}


@pytest.mark.parametrize(
    ("board", "piece"),
    [
        (SQUARE(4), QUEEN),
        (SQUARE(5), QUEEN),
        (SQUARE(6), QUEEN),
        (Board(3, 5), QUEEN),
        (Board(4, 5), ROOK),
    ],
)
def test_symmetry_cut_keeps_every_orbit(board: Board, piece: object) -> None:
    """With target 0 no bound cuts, so the rank/file labellings kept with the symmetry
    check must meet every orbit of all 2^(rows+cols) of them, and be far fewer."""
    depth = board.rows + board.cols
    everything = _rank_files(
        LineSearch(geometry(board, piece, False), 1).prefixes(depth), board.rows, board.cols
    )
    assert len(everything) == 2**depth
    kept = _rank_files(
        LineSearch(geometry(board, piece, True), 1).prefixes(depth), board.rows, board.cols
    )
    orbits = {_orbit(board, *labelling) for labelling in everything}
    assert {_orbit(board, *labelling) for labelling in kept} == orbits
    assert len(kept) < len(everything) // 4


@pytest.mark.parametrize("n", range(2, 8))
def test_symmetry_cut_keeps_the_optimum(n: int) -> None:
    problem = puzzles.peaceable_queens(SQUARE(n))
    without = ENGINES["lines"].__class__(symmetry=False).optimize(problem, Control())
    assert without.status is Status.OPTIMAL
    assert without.objective == known("A250000", n)


def test_refuses_what_the_line_model_does_not_cover() -> None:
    engine = ENGINES["lines"]
    for problem in (
        puzzles.peaceable_queens(SQUARE(5), armies=4),
        puzzles.peaceable(SQUARE(5), piece_from_text("N")),
        puzzles.peaceable(SQUARE(5), piece_from_text("QN")),
        puzzles.queens(SQUARE(5)),
    ):
        assert engine.refusal(problem, Task.OPTIMIZE) is not None
    assert engine.refusal(puzzles.peaceable_queens(SQUARE(5)), Task.COUNT) is not None
    with_white = puzzles.peaceable_queens(SQUARE(5), white=3).with_counts(exactly=3)
    assert engine.refusal(with_white, Task.COUNT) is not None


def test_time_limit_answers_the_best_armies() -> None:
    problem = puzzles.peaceable_queens(SQUARE(17))
    control = Control(2)
    result = optimize(problem, solver="lines", control=control)
    assert result.status is Status.FEASIBLE
    assert min(assert_valid(result).army_sizes) == result.objective
    assert control.elapsed() < 2 + 10


def _stopping_after(chunks: int) -> Control:
    """A control that stops the run once ``chunks`` chunks are done."""

    def watch(progress: Progress) -> None:
        if progress.done is not None and progress.done >= chunks:
            control.stop()

    control = Control(on_progress=watch)
    return control


def _first_done(runs: list[Progress]) -> int:
    return next(p.done for p in runs if p.done is not None)


def test_a_stopped_proof_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    problem = puzzles.peaceable_queens(SQUARE(8))
    path = tmp_path / "a8.jsonl"
    stopped = LineSearchEngine(checkpoint=path).optimize(problem, _stopping_after(300))
    assert stopped.status is not Status.OPTIMAL
    recorded = len(path.read_text().splitlines())
    assert recorded > 300  # the header, the annealed armies and every finished chunk
    seen: list[Progress] = []
    resumed = LineSearchEngine(checkpoint=path).optimize(problem, Control(on_progress=seen.append))
    assert resumed.status is Status.OPTIMAL
    assert resumed.objective == known("A250000", 8)
    assert min(assert_valid(resumed).army_sizes) == resumed.objective
    assert _first_done(seen) >= 300  # those chunks were not searched again


def test_a_tampered_record_is_searched_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    g = geometry(SQUARE(7), QUEEN)
    path = tmp_path / "a7.jsonl"
    target = known("A250000", 7) + 1
    assert LineSearch(g, 1, path).run(target, False, Control()).complete
    lines = path.read_text().splitlines()
    total = len(lines) - 1
    record = json.loads(lines[1])
    lines[1] = json.dumps(record | {"below": record["below"] - 1})  # edited
    foreign = tmp_path / "a7b.jsonl"
    LineSearch(geometry(Board(7, 8), QUEEN), 1, foreign).run(target, False, Control())
    lines[2] = foreign.read_text().splitlines()[2]  # from another search
    path.write_text("\n".join(lines) + "\n")
    again = LineSearch(g, 1, path).run(target, False, Control())
    assert again.complete and again.value is None
    assert again.resumed == total - 2 and again.nodes > 0
    assert "line 2" in caplog.text and "line 3" in caplog.text
    assert len(path.read_text().splitlines()) == total + 1  # rewritten, then recomputed


def test_a_checkpoint_of_another_search_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a6.jsonl"
    LineSearch(geometry(SQUARE(6), QUEEN), 1, path).run(6, False, Control())
    with pytest.raises(CheckpointMismatch):
        LineSearch(geometry(SQUARE(7), QUEEN), 1, path).run(6, False, Control())


def test_the_depth_of_a_checkpoint_is_read_in_bounded_memory() -> None:
    """A path whose first line never ends (``/dev/zero``; ``/dev/full`` reads the same)
    is no checkpoint with a depth: read under a 1 GiB address-space cap, not to its end."""
    script = (
        "import resource, sys; from pathlib import Path;"
        "from chessplace.engines.lines.checkpoint import recorded_depth;"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30));"
        "print(recorded_depth(Path('/dev/zero')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "None\n"), done.stderr[-500:]


def test_a_chunk_key_of_another_depth_is_not_trusted(tmp_path: Path) -> None:
    """The header pins the split depth: a record for a shorter or longer prefix (even
    one whose hash checks) is reported and dropped."""
    from chessplace.engines.lines.checkpoint import search_journal

    header = {"rows": 6, "cols": 6, "depth": 3, "geometry": "g"}
    path = tmp_path / "p.jsonl"
    journal = search_journal(path, header, 10)
    journal.record("010", 5, None)
    journal.record("", 5, None)  # written by hand here; a run never makes such a record
    journal.record("0101", 5, None)
    journal.close()
    assert set(search_journal(path, header, 10).done) == {"010"}


@pytest.mark.parametrize(
    ("name", "board"),
    [("a250000/n17", SQUARE(17)), ("a279405/n15", Board.square(15, Shape.TORUS))],
)
def test_the_committed_checkpoints_still_name_this_search(name: str, board: Board) -> None:
    """The geometry's digest (lines, order, symmetries) is what the journals in
    results/ were written with: a change to it would orphan them."""
    from chessplace.engines.lines.runner import geometry_digest
    from chessplace.runtime.journal import recorded_header

    path = ROOT / "results" / f"{name}-engine.jsonl"
    header = recorded_header(path)
    assert header is not None
    assert header["geometry"] == geometry_digest(geometry(board, QUEEN))
