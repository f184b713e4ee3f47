"""The command line: answers, JSON, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chessplace.faces.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_queens_prints_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "queens", "-n", "8")
    assert code == 0
    assert out.count("♛") == 8
    assert "a b c d e f g h" in out


def test_solve_json_has_the_conventions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "queens", "-n", "6", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "feasible"
    assert len(data["pieces"]) == 6
    assert set(data["pieces"][0]) == {"piece", "army", "square", "file", "rank"}


@pytest.mark.parametrize("n", ["2", "3"])
def test_infeasible_exits_one(capsys: pytest.CaptureFixture[str], n: str) -> None:
    code, out, _ = run(capsys, "solve", "queens", "-n", n, "--json")
    assert code == 1 and json.loads(out)["status"] == "infeasible"


def test_optimize_reports_proven_optimum(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "optimize", "peaceable-queens", "-n", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal" and data["objective"] == 4
    assert data["bound"] == 4


def test_count_unique(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "queens", "-n", "8", "--unique", "--json")
    data = json.loads(out)
    assert (code, data["count"], data["unique"]) == (0, 92, 12)


def test_rectangles_and_custom_pieces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "optimize",
        "independent",
        "--piece",
        "NN",
        "--rows",
        "3",
        "--cols",
        "4",
        "--json",
        "--solver",
        "cpsat",
    )
    assert code == 0 and json.loads(out)["status"] == "optimal"


PEACEABLE_TEXT = """\
5 . Q . Q .
4 . . Q . .
3 q . . . q
2 . . Q . .
1 q . . . q
  a b c d e
"""


def test_verify_accepts_and_rejects_text_boards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = tmp_path / "good.txt"
    good.write_text(PEACEABLE_TEXT)
    assert run(capsys, "verify", "peaceable-queens", "-n", "5", str(good))[0] == 0
    bad = tmp_path / "bad.txt"
    bad.write_text(PEACEABLE_TEXT.replace("1 q . . . q", "1 . . q . q"))
    code, out, _ = run(capsys, "verify", "peaceable-queens", "-n", "5", str(bad))
    assert code == 1
    assert "black queen c1 and white queen c2 attack each other" in out
    assert out.count("c1") == 1, out  # named once, not once from each side


def test_verify_reads_its_own_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run(capsys, "optimize", "peaceable-queens", "-n", "6", "--json")
    answer = tmp_path / "answer.json"
    answer.write_text(out)
    code, out, _ = run(capsys, "verify", "peaceable-queens", "-n", "6", str(answer), "--json")
    assert code == 0 and json.loads(out)["status"] == "valid"


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "queens", "-n", "0"],
        ["solve", "queens", "-n", "-3"],
        ["solve", "queens", "-n", "eight"],
        ["solve", "rooks", "-n", "8"],
        ["solve", "independent", "--piece", "Xq", "-n", "4", "--exactly", "2"],
        ["solve", "queens"],
        ["solve", "peaceable-queens", "-n", "5"],
        ["optimize", "queens", "-n", "4", "--solver", "nonsuch"],
        ["count", "queens", "-n", "4", "--time-limit", "0"],
        ["verify", "queens", "-n", "4", "/nonexistent/file.json"],
        ["optimize", "peaceable-queens", "-n", "6", "--workers", "100000"],
        ["serve", "--workers", "257"],
    ],
)
def test_bad_input_is_one_line_and_exit_two(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("chessplace: error:")


def test_no_arguments_print_the_usage_and_the_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Bare ``chessplace`` once said only "the following arguments are required:
    command"; it shows what to type, on stderr, and exits 2."""
    from chessplace.faces.cli.parser import build_parser

    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert err.startswith("usage: chessplace")
    for name in commands:
        assert f"    {name} " in err, name
    assert err.splitlines()[-1].startswith("chessplace: error: no command given")
    done = subprocess.run([sys.executable, "-m", "chessplace"], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", err)


def test_an_engine_option_names_its_engine_when_the_engine_refuses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "solve", "queens", "-n", "8", "--workers", "4")
    assert code == 2
    assert "option workers belongs to solver 'lines', which cannot solve this problem" in err


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"pieces": [{"square": "99"}]}',
        '{"pieces": 3}',
        ". . Q\n. .\n",
        "Q . . .\n. . R .\n. . . .\n. . . .\n",
    ],
)
def test_malformed_placements_exit_two(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str
) -> None:
    path = tmp_path / "placement"
    path.write_text(content)
    code, _, err = run(capsys, "verify", "queens", "-n", "4", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_console_script_runs_without_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", "solve", "queens", "-n", "x"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr


def test_solvers_lists_engines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solvers")
    assert code == 0
    for name in ("construction", "bitboard", "cpsat", "sat", "exhaustive"):
        assert name in out


def test_time_limit_returns_the_best_so_far(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "optimize",
        "peaceable-queens",
        "-n",
        "11",
        "--time-limit",
        "2",
        "--solver",
        "cpsat",
        "--json",
    )
    data = json.loads(out)
    assert data["status"] in ("feasible", "optimal")
    assert code == (3 if data["status"] == "feasible" else 0)
    assert data["objective"] <= data["bound"]
    assert len(data["pieces"]) == 2 * data["objective"]


def test_ctrl_c_reports_the_best_answer_so_far() -> None:
    """Ctrl-C once the search has a best answer (its first 'best' line on stderr; a
    fixed wait lost the race to a slow start on a loaded machine) prints that answer."""
    import signal

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "chessplace",
            "optimize",
            "peaceable-queens",
            "-n",
            "12",
            "--solver",
            "cpsat",
            "--json",
            "--time-limit",
            "300",  # only a guard: the test stops it long before
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    seen = []
    for line in process.stderr:
        seen.append(line)
        if ": best " in line:
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    data = json.loads(out)
    assert data["status"] == "feasible", (seen, err)
    assert process.returncode == 3  # stopped before a proof, the best so far printed
    assert "Traceback" not in err


def test_verify_reads_standard_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", "verify", "peaceable-queens", "-n", "5", "-"],
        input=PEACEABLE_TEXT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "valid" in done.stdout
