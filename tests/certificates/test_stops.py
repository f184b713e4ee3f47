"""A certificate's proof honours the time limit, Ctrl-C and SIGTERM: it stops within
seconds, exits 3 (stopped: the certificate asked for was not written) with the answer
still printed, says so in one line and leaves no certificate (and no process) behind.
a(10) = 14: the engine answers in seconds, the proof takes minutes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest

from tests.processes import children, group
from tests.waiting import wait_until

pytest.importorskip("pysat", reason="certificates are written with python-sat")
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

A10 = ("optimize", "peaceable-queens", "-n", "10", "--json")


def start(directory: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "chessplace", *A10, "--certificate", str(directory), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def finish(process: subprocess.Popen[str], seconds: float) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=seconds)
    finally:
        for pid in group(process.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
    return process.returncode, out, err


def assert_nothing_left(directory: Path) -> None:
    """No certificate in ``directory`` (absent or empty) and no staging beside it."""
    assert not directory.exists() or sorted(p.name for p in directory.iterdir()) == []
    assert [p.name for p in directory.parent.iterdir() if p.name.startswith(".")] == []


def staged(directory: Path, name: str) -> bool:
    """Whether the run writing ``directory`` has written ``name`` into its staging."""
    return any(directory.parent.glob(f".{directory.name}.*.partial/{name}"))


def test_the_time_limit_stops_the_proof(tmp_path: Path) -> None:
    limit = 8
    started = time.monotonic()
    code, out, err = finish(start(tmp_path / "c", "--time-limit", str(limit)), limit + 60)
    assert time.monotonic() - started < limit + 15, err
    lines = [line for line in err.splitlines() if "certificate" in line]
    if json.loads(out)["status"] == "optimal":
        assert code == 3
        assert lines == [
            "chessplace: no certificate: stopped by the time limit before it was complete;"
            " none written"
        ], err
    else:  # a loaded machine: the engine itself ran out of time (the note may say either)
        assert code == 3 and len(lines) == 1, err
        assert lines[0].startswith("chessplace: no certificate: "), err
    assert_nothing_left(tmp_path / "c")


def test_sigterm_stops_the_proof_and_its_processes(tmp_path: Path) -> None:
    process = start(tmp_path / "c")
    wait_until(
        lambda: staged(tmp_path / "c", "refutation*.drup.gz"),
        what="a first cube's proof staged",
        alive=process,
    )
    # Each cube is proved in a child of its own, so between two cubes there may be none
    # for a moment: wait for the next one rather than sample once.
    wait_until(lambda: children(process.pid), what="a proof at work", every=0.01, alive=process)
    process.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    code, out, err = finish(process, 60)
    assert time.monotonic() - stopped < 10, err
    assert code == 3 and json.loads(out)["status"] == "optimal"
    assert "no certificate: stopped (Ctrl-C or SIGTERM)" in err and "Traceback" not in err
    wait_until(lambda: group(process.pid) == [], what="every process of the run gone")
    assert_nothing_left(tmp_path / "c")


@pytest.mark.parametrize(
    ("command", "answer"),
    [
        (["optimize", "peaceable-queens", "-n", "4"], "optimal"),
        (["solve", "queens", "-n", "3"], "infeasible"),
    ],
)
def test_a_proof_stopped_by_a_signal_exits_3_whatever_the_answer(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    answer: str,
) -> None:
    """A proof stopped by Ctrl-C or SIGTERM (here: the writer says so at once) makes
    the run exit 3, stopped, not the answer's 0 or 1: a script that asked for a
    certificate can tell that none was written. The answer is still printed."""
    from chessplace.certificates.writer import certificate
    from chessplace.certificates.writer.proving import StoppedProving
    from chessplace.faces.cli import main

    def stopped(*arguments: object) -> str:
        raise StoppedProving

    monkeypatch.setattr(certificate, "write_certificate", stopped)
    code = main([*command, "--json", "--certificate", str(tmp_path / "c")])
    out, err = capsys.readouterr()
    assert code == 3 and json.loads(out)["status"] == answer, (code, out, err)
    assert err.splitlines()[-1] == (
        "chessplace: no certificate: stopped (Ctrl-C or SIGTERM) before it was complete;"
        " none written"
    ), err
    assert_nothing_left(tmp_path / "c")


@pytest.fixture(scope="module")
def a9(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A certificate of a(9) = 12: 53 cubes, several seconds to check on two cores."""
    directory = tmp_path_factory.mktemp("a9")
    command = [sys.executable, "-m", "chessplace", "optimize", "peaceable-queens", "-n", "9"]
    subprocess.run([*command, "--certificate", str(directory)], check=True, capture_output=True)
    return directory


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_stops_the_check_and_its_workers(a9: Path, number: signal.Signals) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "chessplace", "check", str(a9)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    workers = min(2, len(os.sched_getaffinity(0)))
    wait_until(
        lambda: len(children(process.pid)) >= workers, what="the check's workers", alive=process
    )
    process.send_signal(number)
    stopped = time.monotonic()
    code, out, err = finish(process, 30)
    assert time.monotonic() - stopped < 5, err
    assert code == 130 and out == "" and err == "chessplace: interrupted\n", (code, out, err)
    wait_until(lambda: group(process.pid) == [], what="every process of the check gone")


def certify_a5(directory: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "chessplace", "optimize", "peaceable-queens", "-n", "5"]
    return subprocess.run(
        [*command, "--certificate", str(directory)], capture_output=True, text=True, timeout=120
    )


def test_a_stopped_run_keeps_the_certificate_already_there(tmp_path: Path) -> None:
    """The hostile trial's case: a checked certificate, then a second run into the same
    directory stopped by its time limit; the first certificate is still there, whole."""
    directory = tmp_path / "c"
    assert certify_a5(directory).returncode == 0
    before = {p.name: p.read_bytes() for p in directory.iterdir()}
    _, _, err = finish(start(directory, "--time-limit", "3"), 90)
    assert "no certificate" in err, err
    assert {p.name: p.read_bytes() for p in directory.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["c"]
    checked = subprocess.run(
        [sys.executable, "-m", "chessplace", "check", str(directory)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0 and checked.stdout.startswith("certified"), checked


def test_a_new_certificate_replaces_an_earlier_one(tmp_path: Path) -> None:
    directory = tmp_path / "c"
    assert certify_a5(directory).returncode == 0
    (directory / "refutation.cnf").write_text("stale")
    result = certify_a5(directory)
    assert result.returncode == 0 and "certificate written to" in result.stderr, result.stderr
    assert (directory / "refutation.cnf").read_text() != "stale"
    assert [p.name for p in tmp_path.iterdir()] == ["c"]


def test_a_directory_with_the_users_own_files_is_refused_before_solving(tmp_path: Path) -> None:
    """A user's ``witness.json`` is never overwritten: bad input, exit 2, at once."""
    directory = tmp_path / "mine"
    directory.mkdir()
    (directory / "witness.json").write_text("my notes")
    command = [sys.executable, "-m", "chessplace", *A10, "--certificate", str(directory)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == "", result
    assert "holds files that are not a certificate" in result.stderr
    assert result.stderr.count("\n") == 1
    assert (directory / "witness.json").read_text() == "my notes"
