"""The compiled counter: OEIS counts, listing, Dask, checkpoints and resuming."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chessplace import Board, Status, count, piece_from_text, puzzles, solutions
from chessplace.data.reference import known
from chessplace.engines.bitboard.split import class_subproblems, mirror_subproblems
from tests.processes import children
from tests.waiting import WORK_PATIENCE, wait_until

SQUARE = Board.square


@pytest.mark.parametrize("n", range(1, 15))
def test_queen_counts_match_oeis(n: int) -> None:
    result = count(puzzles.queens(SQUARE(n)), unique=True, solver="bitboard")
    assert result.status is Status.COMPLETE
    assert (result.count, result.unique) == (known("A000170", n), known("A002562", n))


@pytest.mark.parametrize("n", range(1, 15))
def test_amazon_counts_match_oeis(n: int) -> None:
    result = count(puzzles.amazons(SQUARE(n)), unique=True, solver="bitboard")
    assert (result.count, result.unique) == (known("A051223", n), known("A051224", n))


@pytest.mark.parametrize("betza", ["R", "RN", "RF", "RD", "QD", "RNA"])
def test_other_rook_pieces_match_cpsat(betza: str) -> None:
    problem = puzzles.independent(SQUARE(6), piece_from_text(betza)).with_counts(exactly=6)
    fast = count(problem, unique=True, solver="bitboard")
    slow = count(problem, unique=True, solver="cpsat")
    assert (fast.count, fast.unique) == (slow.count, slow.unique)


@pytest.mark.parametrize(
    ("betza", "n"),
    [
        ("RNA", 9),
        ("RNA", 10),
        # 47,622 placements to list and verify (9 s); RNA at 9, with leaps one and two
        # rows deep, takes the odd board past the window by default (1,228 placements)
        pytest.param("RF", 9, marks=pytest.mark.slow),
    ],
)
def test_class_counts_agree_with_the_listing(betza: str, n: int) -> None:
    """Boards past the look-ahead window (9 rows is the first whose top row does not
    look ahead), so leaps are also tested where it does not reach; an odd board and an
    even one, for the mirror's middle column."""
    problem = puzzles.independent(SQUARE(n), piece_from_text(betza)).with_counts(exactly=n)
    counted = count(problem, unique=True, solver="bitboard")
    listed = list(solutions(problem))
    assert counted.count == len(listed) and all(p.verify() == () for p in listed)
    assert counted.unique == len({p.canonical_key() for p in listed})


def test_listing_gives_every_solution_once_and_valid() -> None:
    problem = puzzles.queens(SQUARE(10))
    listed = list(solutions(problem))
    assert len(listed) == known("A000170", 10)
    assert len({p.armies for p in listed}) == len(listed)
    assert all(p.verify() == () for p in listed)


def test_listing_goes_on_after_each_full_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    from chessplace.engines.bitboard import tasks

    monkeypatch.setattr(tasks, "_BATCH", 3)
    listed = list(solutions(puzzles.queens(SQUARE(8))))
    assert len(listed) == len({p.armies for p in listed}) == 92


def test_mirror_subproblems_cover_the_left_half_once() -> None:
    split = mirror_subproblems(9, rows=2)
    assert len(split) == 5 * 8
    weight_of_first = {t.prefix[0]: t.weight for t in split}
    assert weight_of_first == {0: 2, 1: 2, 2: 2, 3: 2, 4: 1}
    assert sum(weight_of_first.values()) == 9


def test_dask_local_agrees_with_local_threads() -> None:
    problem = puzzles.queens(SQUARE(12))
    local = count(problem, unique=True, solver="bitboard", workers=2)
    dask = count(problem, unique=True, solver="bitboard", dask="local", workers=2)
    assert (dask.count, dask.unique) == (local.count, local.unique) == (14200, 1787)


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "chessplace", *args]


def test_a_killed_count_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "count.jsonl"
    process = subprocess.Popen(
        _cli("count", "queens", "-n", "16", "--workers", "1", "--checkpoint", str(checkpoint)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_until(
        lambda: checkpoint.exists() and len(checkpoint.read_text().splitlines()) > 20,
        what="20 parts in the checkpoint",
        timeout=WORK_PATIENCE,
        alive=process,
    )
    process.send_signal(signal.SIGKILL)
    process.wait()
    finished = len(checkpoint.read_text().splitlines()) - 1
    assert 0 < finished < len(class_subproblems(16))
    with checkpoint.open("a") as file:
        file.write('{"task": "7-1", "solut')  # a line cut short by the kill
    done = subprocess.run(
        _cli("count", "queens", "-n", "16", "--checkpoint", str(checkpoint), "--json"),
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    assert data["count"] == known("A000170", 16)
    assert data["note"].startswith("resumed ")
    assert int(data["note"].split()[1]) >= finished


def test_a_checkpoint_of_another_count_is_refused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "count.jsonl"
    subprocess.run(
        _cli("count", "queens", "-n", "9", "--checkpoint", str(checkpoint)),
        capture_output=True,
        check=True,
    )
    done = subprocess.run(
        _cli("count", "queens", "-n", "10", "--checkpoint", str(checkpoint)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "different count" in done.stderr


def test_counts_outside_the_kernel_fall_back_with_a_message() -> None:
    done = subprocess.run(
        _cli("count", "bishops", "-n", "4"), capture_output=True, text=True, check=True
    )
    assert "cpsat" in done.stderr and "16 placements" in done.stdout


def test_a_search_is_compiled_once_per_machine(tmp_path: Path) -> None:
    environment = {**os.environ, "CHESSPLACE_CACHE": str(tmp_path)}
    runs = [
        subprocess.run(
            _cli("count", "queens", "-n", "14", "--unique"),
            capture_output=True,
            text=True,
            check=True,
            env=environment,
        )
        for _ in range(2)
    ]  # smaller counts run uncompiled until their search is compiled
    assert "compiling the 14×14 search" in runs[0].stderr
    assert "compiling" not in runs[1].stderr
    assert all("365,596 placements, 45,752 up to symmetry" in run.stdout for run in runs)
    assert list((tmp_path / "kernels").glob("chessplace_search_*.py"))
    assert list((tmp_path / "kernels").glob("chessplace_search_*.ready"))


def test_a_stop_sent_to_the_whole_process_group_ends_a_first_compilation(
    tmp_path: Path,
) -> None:
    """SIGTERM to the group (``timeout``, a service manager) kills the compiling child
    too: its silent end is read as the stop on its way, not compiled again here."""
    environment = {**os.environ, "CHESSPLACE_CACHE": str(tmp_path)}
    process = subprocess.Popen(
        _cli("count", "queens", "-n", "15", "--json"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        start_new_session=True,
    )
    assert process.stderr is not None
    deadline = time.monotonic() + 60
    while "compiling" not in process.stderr.readline() and time.monotonic() < deadline:
        pass
    # the compiling child is forked just after the message
    wait_until(lambda: children(process.pid), what="the compiling child", alive=process)
    os.killpg(process.pid, signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 3 and "did not stop" not in err, err[-500:]
    answer = json.loads(out)
    assert answer["note"] == "stopped while compiling the 15×15 search (once per machine)"


def test_a_compilation_that_fails_is_one_line(tmp_path: Path) -> None:
    """A child that cannot write the cache says nothing; the parent's own attempt
    then fails the same way and says it in one line."""
    environment = {**os.environ, "CHESSPLACE_CACHE": str(tmp_path)}

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = subprocess.run(
        _cli("count", "queens", "-n", "14"),
        capture_output=True,
        text=True,
        env=environment,
        preexec_fn=small_files,
        timeout=120,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-500:]
    assert lines[-1] == "chessplace: error: [Errno 27] File too large"
    assert not list((tmp_path / "kernels").iterdir())  # no temporary file left


@pytest.mark.parametrize("listing", [False, True], ids=["count", "list"])
def test_a_time_limit_ends_a_first_compilation(tmp_path: Path, listing: bool) -> None:
    """Compiling a new side takes seconds Numba cannot interrupt: it runs in a child
    that the time limit kills, and the answer says the count was stopped there."""
    environment = {**os.environ, "CHESSPLACE_CACHE": str(tmp_path)}
    asked = ["count", "queens", "-n", "15", "--time-limit", "0.3"]
    done = subprocess.run(
        _cli(*asked, "--list" if listing else "--json"),
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr[-500:]
    assert "did not stop" not in done.stderr
    assert not list((tmp_path / "kernels").glob("*.ready"))
    if listing:
        assert done.stdout == ""
    else:
        answer = json.loads(done.stdout)
        assert answer["status"] == "partial" and answer["count"] == 0
        assert answer["note"] == "stopped while compiling the 15×15 search (once per machine)"
