"""The line engine on a Dask LocalCluster: same answers as on the cores, checkpoints
that resume either way, a time limit that stops it, no process left behind."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from chessplace import Board, Status, optimize, puzzles
from chessplace.core.pieces import QUEEN
from chessplace.data.reference import known
from chessplace.engines.base import Task
from chessplace.engines.lines.checkpoint import recorded_depth
from chessplace.engines.lines.cluster import _finished
from chessplace.engines.lines.geometry import geometry
from chessplace.engines.lines.runner import MIN_CHUNKS, LineSearch
from chessplace.engines.registry import choose
from chessplace.runtime.cluster import LOCAL_WORKERS_PER_CORE, dask_client, local_workers
from chessplace.runtime.control import Control
from chessplace.runtime.journal import CheckpointMismatch
from tests.conftest import assert_valid
from tests.engines.test_line_engine import _stopping_after
from tests.processes import alive, children
from tests.waiting import wait_until

pytest.importorskip("distributed")

SQUARE = Board.square
A6 = known("A250000", 6)
A8 = known("A250000", 8)
"""Searches start at the optimum, as ``optimize`` does from a good guess: their records
then keep (one made below a lower target would be searched again)."""


def test_dask_goes_to_the_line_engine_and_counts_stay_with_bitboard() -> None:
    peaceable = puzzles.peaceable_queens(SQUARE(8))
    assert choose(peaceable, Task.OPTIMIZE, dask="local").engine.name == "lines"
    assert choose(peaceable, Task.SOLVE, dask="local").engine.name == "lines"
    assert choose(puzzles.queens(SQUARE(8)), Task.COUNT, dask="local").engine.name == "bitboard"


@pytest.mark.parametrize("n", [pytest.param(6, marks=pytest.mark.slow), 7])
def test_dask_local_proves_what_the_cores_prove(n: int) -> None:
    problem = puzzles.peaceable_queens(SQUARE(n))
    cores = optimize(problem, solver="lines")
    dask = optimize(problem, dask="local", workers=2)  # the option picks the line engine
    assert dask.solver == "lines"
    assert dask.status is cores.status is Status.OPTIMAL
    assert dask.objective == cores.objective == known("A250000", n)
    assert min(assert_valid(dask).army_sizes) == dask.objective


def test_dask_local_proves_three_armies() -> None:
    problem = puzzles.peaceable_queens(SQUARE(7), armies=3)
    dask = optimize(problem, dask="local", workers=2)
    assert dask.solver == "lines" and dask.status is Status.OPTIMAL
    assert dask.objective == known("A328283", 7)
    assert assert_valid(dask).army_sizes == (dask.objective,) * 3


def test_a_checkpoint_of_the_cores_resumes_on_dask_at_its_own_depth(tmp_path: Path) -> None:
    g = geometry(SQUARE(8), QUEEN)
    path = tmp_path / "a8.jsonl"
    stopped = LineSearch(g, 2, path).run(A8, True, _stopping_after(300))
    assert not stopped.complete
    depth = recorded_depth(path)
    with dask_client(2, "local") as client:
        deeper = LineSearch(g, 2, path, client, min_chunks=4 * MIN_CHUNKS)
        assert deeper.split_depth() > depth  # a fresh run on Dask would cut deeper
        resumed = deeper.run(A8, True, Control())
    assert resumed.complete and resumed.value == A8
    assert resumed.resumed >= 300 and recorded_depth(path) == depth


def test_a_checkpoint_of_dask_resumes_on_the_cores(tmp_path: Path) -> None:
    g = geometry(SQUARE(8), QUEEN)
    path = tmp_path / "a8.jsonl"
    with dask_client(2, "local") as client:
        search = LineSearch(g, 2, path, client, min_chunks=4 * MIN_CHUNKS)
        stopped = search.run(A8, True, _stopping_after(500))
    assert not stopped.complete
    depth = recorded_depth(path)
    assert depth is not None and depth > LineSearch(g, 2).split_depth()
    resumed = LineSearch(g, 2, path).run(A8, True, Control())
    assert resumed.complete and resumed.value == A8
    assert resumed.resumed >= 500 and recorded_depth(path) == depth


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    stack = [pid]
    while stack:
        below = children(stack.pop())
        found |= set(below)
        stack += below
    return found


def _run(*args: str) -> tuple[int, str, str, set[int]]:
    """``chessplace ARGS``: exit code, stdout, stderr, and every process it started
    (looked for while it ran)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "chessplace", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: set[int] = set()

    def ended() -> bool:
        seen.update(_descendants(process.pid))
        return process.poll() is not None

    try:
        wait_until(ended, what="the command ending", every=0.2)
        out, err = process.communicate(timeout=30)  # what is left in the pipes
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, out, err, seen


def test_a_time_limited_dask_run_resumes_to_the_same_answer(tmp_path: Path) -> None:
    checkpoint = str(tmp_path / "a12.jsonl")
    common = ("optimize", "peaceable-queens", "-n", "12", "--dask", "local", "--workers", "2")
    code, _, err, workers = _run(*common, "--checkpoint", checkpoint, "--time-limit", "6")
    assert code in (0, 3), err[-500:]  # 0 only on a machine fast enough to finish in time
    assert workers  # the LocalCluster's processes ...
    wait_until(lambda: not any(map(alive, workers)), what="the cluster's processes gone")
    finished = len(Path(checkpoint).read_text().splitlines()) - 2  # header, annealed armies
    code, out, err, _ = _run(*common, "--checkpoint", checkpoint, "--json")
    assert code == 0, err[-500:]
    answer = json.loads(out)
    assert answer["status"] == "optimal" and answer["objective"] == known("A250000", 12)
    if finished > 0:
        assert f"{finished:,} chunks from the checkpoint" in err, err[-800:]
    assert "Traceback" not in err


UNREACHABLE = ("optimize", "peaceable-queens", "-n", "9", "--dask", "127.0.0.1:1")


def test_an_unreachable_scheduler_is_one_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", *UNREACHABLE, "--time-limit", "3"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and done.stdout == ""
    assert len(lines) == 1 and "Dask scheduler" in lines[0], done.stderr[-500:]


@contextmanager
def _peer(answer: bytes) -> Iterator[str]:
    """A TCP server on loopback that answers each connection with ``answer`` (nothing:
    stays silent) and keeps it open until the block ends; its address."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # closed: the block ended
                return
            held.append(connection)
            if answer:
                connection.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
        for connection in held:
            connection.close()


@pytest.mark.parametrize(
    "answer",
    [b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", b"\x01" * 9, b""],
    ids=["http", "garbage", "silent"],
)
def test_a_peer_that_is_no_scheduler_is_one_connection_error_within_the_wait(
    answer: bytes,
) -> None:
    raised: list[BaseException] = []

    def connect(address: str) -> None:
        try:
            with dask_client(None, address, connect=1.0):
                pass
        except BaseException as error:
            raised.append(error)

    with _peer(answer) as address:
        attempt = threading.Thread(target=connect, args=(address,), daemon=True)
        attempt.start()
        attempt.join(10)  # distributed's own handshake read has no timeout at all
        assert not attempt.is_alive()
    assert len(raised) == 1 and isinstance(raised[0], ConnectionError), raised
    assert len(str(raised[0]).splitlines()) == 1 and address in str(raised[0])


@pytest.mark.parametrize(
    ("address", "words"),
    [("no-port", "bad Dask scheduler address"), ("http://host:1", "unknown address scheme")],
)
def test_a_malformed_address_says_what_is_wrong(address: str, words: str) -> None:
    with pytest.raises(ConnectionError, match=words), dask_client(None, address):
        pass


def test_local_workers_are_bounded_per_core() -> None:
    cores = os.cpu_count() or 1
    assert local_workers(None) == cores
    assert local_workers(LOCAL_WORKERS_PER_CORE * cores) == LOCAL_WORKERS_PER_CORE * cores
    too_many = str(LOCAL_WORKERS_PER_CORE * cores + 1)  # not 100000: were it not refused ...
    with pytest.raises(ValueError, match="a process per worker"):
        local_workers(100_000)
    command = [sys.executable, "-m", "chessplace", *UNREACHABLE[:4], "--dask", "local"]
    done = subprocess.run(
        [*command, "--workers", too_many],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr[-500:]


_RELEASE = threading.Event()


def _held() -> None:
    """A task that runs until the test releases it (on a worker thread of this process)."""
    _RELEASE.wait(30)


def test_tasks_the_cluster_drops_are_one_connection_error() -> None:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        future = client.submit(_held, pure=False)
        client.cancel(future)  # as a lost scheduler cancels every task
        try:
            with pytest.raises(ConnectionError, match="dropped the search's tasks"):
                _finished([future])
        finally:
            _RELEASE.set()


def test_a_checkpoint_of_another_search_is_refused_before_a_cluster_is_sought(
    tmp_path: Path,
) -> None:
    """The checkpoint's header is read first: a foreign one is the error, though the
    scheduler named is unreachable and would otherwise be reported."""
    path = tmp_path / "a6.jsonl"
    LineSearch(geometry(SQUARE(6), QUEEN), 1, path).run(A6, False, Control())
    problem = puzzles.peaceable_queens(SQUARE(7))
    with pytest.raises(CheckpointMismatch):
        optimize(problem, dask="127.0.0.1:1", checkpoint=path, time_limit=30)
