"""The command line at its edges: paths that cannot even be looked at, closed standard
streams, options that clash or come too late to check, and messages that say the
right thing (one line, exit code 2, before any work)."""

from __future__ import annotations

import array
import fcntl
import json
import shlex
import signal
import socket
import subprocess
import sys
import termios
from collections.abc import Callable
from pathlib import Path

import pytest

from chessplace.core.board import Board
from chessplace.faces.cli import main
from chessplace.forms.jsonio import read_placement
from chessplace.notation.puzzles import queens
from tests.waiting import wait_until

COMMAND = [sys.executable, "-m", "chessplace"]
LONG_NAME = "a" * 300
BIG = ["-n", "30", "--time-limit", "20"]
"""A board that takes hours, with a limit: a check that came after the work starts fails
(exit 3) rather than hangs."""


def _error(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    """The one error line of a command that exits 2 with nothing on standard output."""
    assert main(list(arguments)) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 1 and lines[0].startswith("chessplace: error: "), err
    return lines[0]


@pytest.mark.parametrize("option", ["--render", "--checkpoint", "--certificate"])
def test_an_output_name_too_long_to_look_at_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    path = str(tmp_path / (LONG_NAME + (".svg" if option == "--render" else "")))
    line = _error(capsys, "optimize", "peaceable-queens", *BIG, option, path)
    assert option in line and "too long" in line


def test_a_drawing_that_cannot_be_drawn_is_refused_before_the_work(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = _error(capsys, "optimize", "peaceable-queens", *BIG, "--render", "b.txt")
    assert "must end in .svg or .png" in line
    assert "--render" in _error(capsys, "solve", "queens", "-n", "8", "--show-attacks")


@pytest.mark.parametrize(
    ("board", "message"),
    [(["-n", "1000"], "up to 64 a side"), ([*BIG, "--torus"], "torus")],
)
def test_a_certificate_no_one_can_write_is_refused_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], board: list[str], message: str
) -> None:
    directory = tmp_path / "certificate"
    puzzle = "queens" if "--torus" not in board else "peaceable-queens"
    line = _error(capsys, "optimize", puzzle, *board, "--certificate", str(directory))
    assert message in line and not directory.exists()


def test_a_checkpoint_of_another_search_is_refused_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = tmp_path / "n5.jsonl"
    assert main(["optimize", "peaceable-queens", "-n", "5", "--checkpoint", str(small)]) == 0
    capsys.readouterr()
    line = _error(capsys, "optimize", "peaceable-queens", *BIG, "--checkpoint", str(small))
    assert "rows 5, not 30" in line
    other = tmp_path / "other.json"
    other.write_text('{"rows": 30}\n')
    line = _error(capsys, "optimize", "peaceable-queens", *BIG, "--checkpoint", str(other))
    assert "not a chessplace checkpoint" in line


def test_a_listing_stops_at_its_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "queens", "-n", "8", "--list", "--limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    problem = queens(Board.square(8))
    assert len(lines) == 3 and len(set(lines)) == 3
    for line in lines:
        assert read_placement(problem, line).verify() == ()


def test_a_listing_refuses_a_checkpoint_it_would_not_keep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A listing streams from the start every run, so a checkpoint would be a promise
    of resumption it does not keep: one line, exit 2, and no file written."""
    journal = tmp_path / "list.jsonl"
    assert main(["count", "queens", "-n", "6", "--list", "--checkpoint", str(journal)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "a listing is not checkpointed" in captured.err
    assert len(captured.err.splitlines()) == 1 and not journal.exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["solve", "peaceable-queens", "-n", "6", "--solver", "sat", "--heuristic"], "--solver"),
        (["hint", "queens-game", "--grid", "-", "--placed", "-"], "both"),
        (["check", ""], "empty"),
        (["count", "bishops", "-n", "5", "--optimal"], "without optimal"),
        (["solve", "queens", "-n", "8", "--solver", "cpsat", "--sat-backend", "x"], "(sat does)"),
        (["solve", "queens", "-n", "9" * 5000], "at most 30 digits, not one of 5,000"),
        (["optimize", "independent", "--piece", "Q!!", "-n", "5", "--certificate", "c"], "Q!!"),
    ],
)
def test_clashes_and_hostile_values_get_one_short_line(
    capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    line = _error(capsys, *arguments)
    assert message in line and len(line) < 200


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--memory-mb", "64"], "at least 256 MiB"),
        (["--time-limit", "100", "--max-time-limit", "10"], "past --max-time-limit"),
    ],
)
def test_a_server_that_could_not_work_is_not_started(arguments: list[str], message: str) -> None:
    """Run apart, so that a server started by mistake is stopped by the timeout."""
    with socket.socket() as probe:  # a free port, should a server start by mistake
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    done = subprocess.run(
        [*COMMAND, "serve", "--port", port, *arguments],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_a_byte_order_mark_before_a_placement_is_read_past(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "queens", "-n", "6", "--json"]) == 0
    answer = capsys.readouterr().out
    marked = tmp_path / "marked.json"
    marked.write_text("\ufeff" + answer, encoding="utf-8")
    assert main(["verify", "queens", "-n", "6", str(marked)]) == 0
    assert "valid" in capsys.readouterr().out


def test_a_placement_with_a_huge_size_is_quoted_briefly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    placement = tmp_path / "huge.json"
    placement.write_text(json.dumps({"rows": 10**30, "pieces": []}))
    line = _error(capsys, "verify", "queens", "-n", "5", str(placement))
    assert "rows = 100000000..., not 5" in line


def test_a_listing_read_in_part_ends_its_search_before_the_process() -> None:
    """``| head -2`` closes the pipe while CP-SAT still enumerates in a thread: the
    listing stops it and waits for it, so the process exits 0, not aborted from C++."""
    listing = ["count", "peaceable-queens", "-n", "8", "--exactly", "6", "--blocked", "a1"]
    shell = f"{shlex.join([*COMMAND, *listing, '--list'])} | head -2; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 2 and "terminate" not in done.stderr


@pytest.mark.parametrize(
    ("arguments", "closed", "message"),
    [
        (["count", "queens", "-n", "8", "--list"], ">&-", "standard output is closed"),
        (
            ["count", "peaceable-queens", "-n", "5", "--exactly", "3", "--blocked", "a1", "--list"],
            ">&-",
            "standard output is closed",
        ),
        (["verify", "queens", "-n", "5"], "<&-", "standard input: it is closed"),
        (["solve", "queens-game", "--grid", "-"], "<&-", "standard input: it is closed"),
    ],
)
def test_a_closed_standard_stream_is_one_line(
    arguments: list[str], closed: str, message: str
) -> None:
    shell = f"{shlex.join([*COMMAND, *arguments])} {closed}"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_the_demo_ends_quietly_when_its_reader_leaves() -> None:
    demo = subprocess.Popen(
        [*COMMAND, "demo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert demo.stdout is not None and demo.stderr is not None
    assert "8 queens" in demo.stdout.readline()
    demo.stdout.close()
    assert demo.wait(timeout=300) == 0
    assert demo.stderr.read() == ""


@pytest.mark.parametrize(
    ("arguments", "code", "both"),
    [
        (["count", "queens", "-n", "20", "--time-limit", "1"], 3, False),  # partial
        (["count", "queens", "-n", "20", "--time-limit", "1", "--json"], 3, False),
        (["verify", "queens", "-n", "4", "{attacking}"], 1, False),
        (["verify", "queens", "-n", "4", "{attacking}", "--json"], 1, False),
        (["check", "{tampered}"], 1, False),
        (["solve", "amazons", "-n", "9", "--certificate", "{fresh}"], 1, True),
    ],
    ids=["partial", "partial-json", "invalid", "invalid-json", "rejected", "2>&1"],
)
def test_a_reader_that_leaves_early_does_not_change_the_exit_code(
    tmp_path: Path, arguments: list[str], code: int, both: bool
) -> None:
    """The answer is known before it is written: a broken pipe (the reader gone, as
    with `| head` on a long answer, or `2>&1 | head` for both streams) leaves the
    exit code saying what it was; a rejected certificate is never read as certified."""
    attacking = tmp_path / "attacking.json"
    attacking.write_text('{"pieces": [{"square": "a1"}, {"square": "b2"}]}')
    tampered = tmp_path / "tampered"
    made = subprocess.run(
        [*COMMAND, "solve", "amazons", "-n", "9", "--certificate", str(tampered)],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 1, made.stderr
    with (tampered / "refutation.cnf").open("a") as cnf:
        cnf.write("c one line more\n")
    paths = {"attacking": attacking, "tampered": tampered, "fresh": tmp_path / "fresh"}
    command = [*COMMAND, *(a.format(**paths) for a in arguments)]
    errors = subprocess.STDOUT if both else subprocess.PIPE
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
    assert run.stdout is not None
    run.stdout.close()  # before the command can have written anything
    assert run.wait(timeout=120) == code
    if not both:  # nothing on stderr but the note of a first compilation of the search
        assert run.stderr is not None
        said = [line for line in run.stderr.read().splitlines() if "compiling the" not in line]
        assert said == []


def test_sigterm_stops_a_listing_whose_reader_stopped_reading(tmp_path: Path) -> None:
    """``--list | sleep``: the pipe fills and nothing reads it. One SIGTERM still ends
    the process in its grace (it was stuck writing until a second signal), exit 3,
    saying why; the lines written before stand."""
    listing = [*COMMAND, "count", "queens", "-n", "12", "--blocked", "a1", "--list"]
    child = subprocess.Popen(listing, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until(
            _stalled(child.stdout), what="the writer waiting for room", every=0.5, alive=child
        )
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=60)
        assert child.returncode == 3
        assert child.stderr is not None and b"the output was not read" in child.stderr.read()
    finally:
        child.kill()
        child.communicate()


def _stalled(stream: object) -> Callable[[], bool]:
    """A condition to poll: the listing's output pipe is nearly full (Linux's holds
    64 KiB; a writer that waits for room stops at about 56 KB) and held the same bytes
    at the look before, so its writer waits for room."""
    before = [-1]

    def condition() -> bool:
        waiting = array.array("i", [0])
        fcntl.ioctl(stream.fileno(), termios.FIONREAD, waiting)  # type: ignore[attr-defined]
        stalled = waiting[0] >= 40_000 and waiting[0] == before[0]
        before[0] = waiting[0]
        return stalled

    return condition
