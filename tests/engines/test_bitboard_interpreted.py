"""The row-by-row search run as plain Python answers as the compiled one does (issue 53:
a small count runs it while the compiled search is not on the machine yet, instead of
waiting seconds for Numba)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chessplace import Board, count, piece_from_text, puzzles
from chessplace.core.placement import Placement
from chessplace.data.reference import known
from chessplace.engines.bitboard import interpreted, leaf
from chessplace.engines.bitboard.engine import _spec
from chessplace.engines.bitboard.kernel import stop_flag
from chessplace.engines.bitboard.runner import run_count
from chessplace.engines.bitboard.split import (
    CountSpec,
    class_subproblems,
    mirror_subproblems,
    plain_subproblems,
)
from chessplace.engines.bitboard.tasks import solutions_of
from chessplace.engines.support.tally import Tally
from chessplace.runtime.control import Control

SQUARE = Board.square


def _counted(spec: CountSpec) -> Tally:
    tasks = plain_subproblems(spec) if spec.plain else class_subproblems(spec.n)
    return run_count(spec, tasks, Control(), workers=1, interpret=True)


@pytest.mark.parametrize("n", range(1, 13))
def test_queen_and_amazon_counts_match_oeis(n: int) -> None:
    queens, amazons = _counted(CountSpec(n, "Q")), _counted(CountSpec(n, "QN"))
    assert (queens.solutions, queens.canonical) == (known("A000170", n), known("A002562", n))
    assert (amazons.solutions, amazons.canonical) == (known("A051223", n), known("A051224", n))


@pytest.mark.parametrize("betza", ["R", "RN", "RF", "RD", "QD", "RNA"])
def test_other_rook_pieces_match_cpsat(betza: str) -> None:
    problem = puzzles.independent(SQUARE(6), piece_from_text(betza)).with_counts(exactly=6)
    slow = count(problem, unique=True, solver="cpsat")
    fast = _counted(CountSpec(6, betza))
    assert (fast.solutions, fast.canonical) == (slow.count, slow.unique)


@pytest.mark.parametrize(("betza", "n"), [("QN", 10), ("RN", 7), ("RF", 7)])
def test_positions_count_plainly_as_cpsat_does(betza: str, n: int) -> None:
    piece = piece_from_text(betza)
    problem = puzzles.independent(SQUARE(n), piece, blocked="a1,c2,e5", given=[{"square": "b1"}])
    problem = problem.with_counts(exactly=n)
    assert _counted(_spec(problem)).solutions == count(problem, solver="cpsat").count


def test_the_listing_gives_every_solution_once_and_valid() -> None:
    problem = puzzles.queens(SQUARE(8))
    spec, last = CountSpec(8, "Q"), 7
    listed = []
    for task in mirror_subproblems(8, 1):
        for columns in solutions_of(spec, task.prefix, stop_flag(), interpret=True):
            squares = [(int(c), rank) for rank, c in enumerate(columns)]
            listed.append(Placement.from_squares(problem, [squares]))
            if task.weight == 2:
                mirrored = [(last - f, r) for f, r in squares]
                listed.append(Placement.from_squares(problem, [mirrored]))
    assert len(listed) == len({p.armies for p in listed}) == known("A000170", 8)
    assert all(p.verify() == () for p in listed)


@pytest.mark.parametrize("n", [5, 6])
def test_class_sizes_agree_with_the_compiled_helper(n: int) -> None:
    scratch = np.zeros((2, n), dtype=np.int64)
    for columns in itertools.permutations(range(n)):
        bits = [1 << c for c in columns]
        compiled = leaf.class_size(np.array(bits, dtype=np.uint64), scratch)
        assert interpreted.class_size(bits) == compiled


def test_a_first_small_count_compiles_nothing(tmp_path: Path) -> None:
    """With an empty cache, 8 queens are counted at once, and no search is compiled."""
    environment = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "CHESSPLACE_CACHE": str(tmp_path / "chessplace"),
    }
    command = [sys.executable, "-m", "chessplace", "count", "queens", "-n", "8", "--unique"]
    done = subprocess.run(
        [*command, "--json"], capture_output=True, text=True, env=environment, check=True
    )
    answer = json.loads(done.stdout)
    assert (answer["count"], answer["unique"], answer["solver"]) == (92, 12, "bitboard")
    assert "compiling" not in done.stderr
    assert not list((tmp_path / "chessplace").glob("kernels/*.ready"))
