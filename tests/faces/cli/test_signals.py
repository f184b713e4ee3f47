"""Processes and signals: SAT children die with the command, SIGTERM stops like Ctrl-C,
and an engine that ignores a stop cannot hold the command past a short grace."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress

import pytest

from tests.processes import group, lasting_child
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


class _Run:
    """A ``chessplace`` command in its own process group, its stderr read as it comes."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "chessplace", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.err: list[str] = []
        self.out: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stderr, self.err)),
            threading.Thread(target=self._read, args=(self.process.stdout, self.out)),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: Iterable[str], into: list[str]) -> None:
        for line in stream:
            into.append(line)

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        """Wait until ``condition()`` holds while the command runs."""
        wait_until(
            condition, what=lambda: f"{what} (stderr: {''.join(self.err)})", alive=self.process
        )

    def finish(self, seconds: float) -> int:
        code = self.process.wait(timeout=seconds)
        for reader in self._readers:
            reader.join(timeout=seconds)
        return code


@contextmanager
def _command(*args: str) -> Iterator[_Run]:
    """Run a command; kill whatever of its process group is left at the end."""
    run = _Run(*args)
    try:
        yield run
    finally:
        for pid in group(run.process.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        run.process.wait()


INTERRUPTED_IMPORT = """
import sys
from importlib.abc import MetaPathFinder


class Interrupt(MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "chessplace.faces.cli.handlers":
            raise KeyboardInterrupt  # as a Ctrl-C landing while the engines load
        return None


sys.meta_path.insert(0, Interrupt())
from chessplace.faces.cli import main

sys.argv = ["chessplace", "count", "queens", "-n", "6"]
sys.exit(main())
"""


def test_ctrl_c_while_the_engines_load_is_one_line() -> None:
    """A Ctrl-C that lands while ``main`` imports the engines is one line and exit 130,
    and the imports before ``main`` runs load no numpy and no engine (so the window in
    which a Ctrl-C could still print a traceback is the interpreter's own start)."""
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_IMPORT], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (130, "chessplace: interrupted\n"), done.stderr
    probe = "import sys, chessplace.faces.cli; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    heavy = ("numpy", "numba", "ortools", "pysat", "chessplace.api", "chessplace.engines")
    assert not [m for m in loaded if m.startswith(heavy)], loaded


def test_sat_children_die_with_a_killed_parent() -> None:
    with _command("optimize", "peaceable-queens", "-n", "12", "--solver", "sat") as run:
        parent = run.process.pid
        run.wait_for(lasting_child(parent, 2), "a SAT child at work")
        run.process.kill()
        run.process.wait()
        wait_until(lambda: group(parent) == [], what="the SAT children gone")


def test_sigterm_stops_an_optimisation_with_the_best_armies_so_far() -> None:
    with _command("optimize", "peaceable-queens", "-n", "11", "--solver", "sat", "--json") as run:
        parent = run.process.pid
        run.wait_for(lambda: any("best" in line for line in run.err), "a first best")
        run.wait_for(lasting_child(parent, 1), "SAT children at work")
        run.process.send_signal(signal.SIGTERM)
        code = run.finish(30)
        data = json.loads("".join(run.out))
        assert data["status"] == "feasible", "".join(run.err)
        assert code == 3  # stopped with the best so far, as after Ctrl-C
        assert len(data["pieces"]) == 2 * data["objective"] > 0
        assert data["objective"] <= data["bound"]
        assert "Traceback" not in "".join(run.err)
        wait_until(lambda: group(parent) == [], what="every process of the command gone")


def test_sigterm_stops_a_streamed_listing() -> None:
    with _command("count", "queens", "-n", "14", "--exactly", "14", "--list") as run:
        run.wait_for(lambda: len(run.out) > 10, "ten listed placements")
        run.process.send_signal(signal.SIGTERM)
        assert run.finish(30) == 3
        lines = run.out[:-1]  # the last may be cut short by the stop
        assert all(len(json.loads(line)["pieces"]) == 14 for line in lines)


def test_work_that_ignores_a_stop_is_left_after_the_grace() -> None:
    """No engine is known to ignore a stop today; the safety net must hold if one does."""
    from chessplace import Board, Placement, Result, Status, puzzles
    from chessplace.faces.cli.supervision import GRACE_SECONDS, supervised
    from chessplace.runtime.control import Control

    problem = puzzles.queens(Board.square(5))
    offered = Placement.from_squares(problem, [[(0, 0), (2, 1), (4, 2), (1, 3), (3, 4)]])
    release = threading.Event()

    def stubborn(control: Control) -> Result:
        control.report(objective=5, placement=offered)
        release.wait(120)  # ignores control.stopped
        return Result(Status.UNKNOWN, "stubborn")

    started = time.monotonic()
    try:
        result = supervised(0.5, stubborn)
    finally:
        release.set()
    assert time.monotonic() - started < 0.5 + GRACE_SECONDS + 5
    assert (result.status, result.placement) == (Status.FEASIBLE, offered)


def test_an_answer_being_checked_is_waited_for_past_the_grace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stop that lands as the engine's 300,000 queens are being checked (about half a
    second, past the shortened grace) still lets the checked answer come back."""
    from chessplace import Board, Placement, Result, Status, api, puzzles
    from chessplace.faces.cli import supervision
    from chessplace.runtime.control import Control

    monkeypatch.setattr(supervision, "GRACE_SECONDS", 0.01)
    problem = puzzles.queens(Board.square(300_000))
    controls: list[Control] = []
    check = Placement.verify

    def stopped_first(placement: Placement) -> tuple[object, ...]:
        controls[0].stop()  # Ctrl-C, say, or the time limit
        return check(placement)

    monkeypatch.setattr(Placement, "verify", stopped_first)

    def work(control: Control) -> Result:
        controls.append(control)
        return api.run("solve", problem, control=control)

    result = supervision.supervised(None, work)
    assert result.status is Status.FEASIBLE and not result.note
    assert result.placement is not None and len(result.placement) == 300_000


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_while_the_json_is_written_lets_it_finish(stop: signal.Signals) -> None:
    """The first bytes of 300,000 queens' JSON (30 batches) mark the write begun; a stop
    then is told it waits, and the answer comes out whole, not cut off."""
    process = subprocess.Popen(
        [sys.executable, "-m", "chessplace", "solve", "queens", "-n", "300000", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    first = process.stdout.read1(1 << 16)
    process.send_signal(stop)
    out, err = process.communicate(timeout=60)
    answer = json.loads(first + out)
    assert process.returncode == 0 and len(answer["pieces"]) == 300_000
    assert b"finishing the answer" in err and b"Traceback" not in err
