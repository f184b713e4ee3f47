"""Your own puzzle from the command line, problem files and the HTTP API: --blocked,
--given, --pawns, queens-and-pawns, PROBLEM.json, --print-problem and --why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from chessplace import api
from chessplace.core.problem import Problem
from chessplace.faces.cli import main
from chessplace.faces.web.app import create_app
from chessplace.faces.web.limits import Limits
from chessplace.notation.options import problem_from_options
from chessplace.notation.problemfile import from_text, read_problem, write_problem

EXAMPLE = {
    "puzzle": "queens",
    "n": 8,
    "blocked": ["a1", "b3"],
    "given": [{"piece": "queen", "square": "d1"}],
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_issue_example_solves_as_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "problem.json"
    path.write_text(json.dumps(EXAMPLE))
    code, out, _ = run(capsys, "solve", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "feasible"
    assert {"piece": "queen", "army": "white", "square": "d1"} in data["given"]
    squares = {piece["square"] for piece in data["pieces"]}
    assert "d1" in squares and not squares & {"a1", "b3"}
    assert data["blocked"] == ["a1", "b3"]


@pytest.mark.parametrize(
    "options",
    [
        ["queens", "-n", "8", "--blocked", "a1,b3", "--given", "Qd1"],
        ["queens", "--rows", "5", "--cols", "7", "--torus", "--blocked", "c3"],
        ["queens-and-pawns", "-n", "6", "--pawns", "2"],
        ["peaceable-queens", "-n", "6", "--given", "Qa1,qf2", "--pawns", "c3,d4"],
        ["peaceable-queens", "-n", "6", "--armies", "3", "--given", "Qa1,red:f2"],
        ["peaceable", "-n", "5", "--piece", "NN", "--white", "3", "--blocked", "e5"],
        ["independent", "-n", "5", "--piece", "W2F", "--exactly", "4", "--pawns", "b2"],
        ["dominating-queens", "-n", "6", "--blocked", "a1,f6", "--given", "Qc3"],
        ["bishops", "-n", "5", "--at-most", "6", "--given", "Ba1"],
        ["amazons", "-n", "10", "--given", "Ad1"],
    ],
)
def test_print_problem_round_trips_every_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: list[str]
) -> None:
    """The file --print-problem prints states the problem the options mean, and
    read_problem/write_problem keep it whole."""
    code, out, err = run(capsys, "solve", *options, "--print-problem")
    assert code == 0, err
    problem = from_text(out)
    assert problem == _from_cli(options)
    path = tmp_path / "p.json"
    write_problem(problem, path)
    assert read_problem(path) == problem
    code, again, _ = run(capsys, "count", str(path), "--print-problem")
    assert code == 0 and again == out


def _from_cli(options: list[str]) -> Problem:
    """The problem the options mean, from their words (flags to keyword arguments)."""
    words: dict[str, object] = {}
    rest = options[1:]
    while rest:
        flag = rest.pop(0).lstrip("-").replace("-", "_")
        if flag == "torus":
            words[flag] = True
            continue
        value = rest.pop(0)
        numeric = {"n", "rows", "cols", "armies", "white", "exactly", "at_most", "at_least"}
        words[flag] = int(value) if flag in numeric else value
    return problem_from_options(options[0], **words)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--given", "Qd1", "--blocked", "d1"], "d1: blocked square and given white queen"),
        (["--given", "Qd1,Qd1"], "d1 holds two given pieces"),
        (["--pawns", "i9"], "pawn i9 is off the 8×8 board"),
        (["--blocked", "a1," * 1_000_000], "more entries than the board has squares"),
        (["--blocked", ",".join(["a1"] * 65)], "more than the board's 64 squares"),
        (["--blocked", "a1,a1"], "a1 is listed twice"),
        (["--given", "Nd1"], "places queens"),
        (["--given", "qd1"], "names the second army"),
        (["--blocked", "x"], "not a square name"),
        (["--pawns", "3"], "a number of pawns is for queens-and-pawns"),
    ],
)
def test_bad_positions_are_one_line_and_exit_two(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "solve", "queens", "-n", "8", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"puzzle": "queens", "n": "8"}', "n: expected a whole number"),
        ('{"puzzle": "queens", "n": 8, "blocked": "a1"}', "blocked: expected a list"),
        ('{"puzzle": "queens", "n": 8, "given": [{"square": 5}]}', "given.square"),
        ('{"puzzle": "queens", "n": 8, "colour": 1}', "colour: unknown key"),
        (
            '{"board": {"rows": 8, "cols": 8}, "armies": [{"piece": "queen", "max": true}]}',
            "armies.0.max",
        ),
        ('{"board": {"rows": 8}, "armies": []}', "board.cols"),
        ('{"board": {"rows": 4, "cols": 4}, "armies": [{"piece": "zz9"}]}', "armies.0.piece"),
        ("[" * 10_000, "nested deeper"),
        ('{"puzzle": "queens", "n": 8', "not valid JSON"),
        ("[]", "holds a JSON object"),
    ],
)
def test_bad_problem_files_are_one_line_naming_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, out, err = run(capsys, "solve", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_a_problem_file_takes_no_other_problem_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(EXAMPLE))
    code, _, err = run(capsys, "solve", str(path), "-n", "5")
    assert code == 2 and "give no -n beside it" in err


def test_givens_that_attack_are_a_no_and_why_names_the_pair(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    drawing = tmp_path / "why.svg"
    code, out, _ = run(
        capsys,
        "solve",
        "queens",
        "-n",
        "8",
        "--given",
        "Qb2,Qc5,Qg7",
        "--blocked",
        "h1",
        "--why",
        "--render",
        str(drawing),
    )
    assert code == 1
    assert "why: the given white queen on b2 and the given white queen on g7 cannot be" in out
    svg = drawing.read_text()
    assert svg.count('class="ringed"') == 2 and svg.count('class="given"') == 2


def test_why_names_blocked_squares_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Rank 1 blocked but for a1, a queen given on a8: the queen and some blocked
    squares are needed, and dropping any one member of the set leaves an answer."""
    blocked = ",".join(f"{f}1" for f in "bcdefgh")
    code, out, _ = run(
        capsys,
        "solve",
        "queens",
        "-n",
        "8",
        "--blocked",
        blocked,
        "--given",
        "Qa8",
        "--why",
        "--json",
    )
    why = json.loads(out)["why"]
    assert code == 1 and why["minimal"] and why["blocked"]
    assert [g["square"] for g in why["given"]] == ["a8"]
    for dropped in range(len(why["blocked"])):
        rest = [s for i, s in enumerate(why["blocked"]) if i != dropped]
        problem = problem_from_options("queens", n=8, blocked=rest, given=["Qa8"])
        assert api.solve(problem, solver="sat").placement is not None
    alone = problem_from_options("queens", n=8, blocked=why["blocked"])
    assert api.solve(alone, solver="sat").placement is not None


def test_queens_and_pawns_answers_place_their_pawns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "queens-and-pawns", "-n", "6", "--pawns", "1", "--json")
    data = json.loads(out)
    kinds = [piece["piece"] for piece in data["pieces"]]
    assert code == 0 and kinds.count("queen") == 7 and kinds.count("pawn") == 1
    assert data["place_pawns"] == 1


def test_verify_reads_pawns_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for form in ("--json", "--ascii"):
        code, out, _ = run(capsys, "solve", "queens-and-pawns", "-n", "6", "--pawns", "1", form)
        path = tmp_path / "answer"
        path.write_text(out)
        code, verdict, err = run(
            capsys, "verify", "queens-and-pawns", "-n", "6", "--pawns", "1", str(path)
        )
        assert code == 0, (verdict, err)


def test_exports_carry_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["queens", "-n", "4", "--blocked", "a1", "--given", "Qb1", "--pawns", "c3"]
    code, out, _ = run(capsys, "export", *args, "--format", "lp")
    assert code == 0 and "white_b1 = 1" in out and "white_a1 = 0" in out
    code, _, err = run(
        capsys, "export", "queens-and-pawns", "-n", "4", "--pawns", "1", "--format", "opb"
    )
    assert code == 2 and "DIMACS only" in err


def test_the_http_api_takes_the_same_keys() -> None:
    with TestClient(create_app(Limits(grace_seconds=30))) as client:
        body = {
            "puzzle": "queens",
            "n": 8,
            "blocked": ["a1", "b3"],
            "given": ["Qd1"],
            "pawns": "e4",
            "exactly": 9,
        }
        data = client.post("/api/solve", json=body).json()
        assert data["status"] == "feasible" and data["pawns"] == ["e4"]
        refused = client.post("/api/solve", json={"puzzle": "queens", "n": 8, "blocked": 5})
        assert refused.status_code == 400
        assert refused.json()["detail"] == "blocked: expected a list of squares, not 5"
        two = client.post("/api/solve", json={"puzzle": "queens", "n": 8, "given": ["Qd1", "Qd1"]})
        assert two.status_code == 400 and "two given pieces" in two.json()["detail"]


@pytest.mark.parametrize(
    "args",
    [
        "queens -n 8 --given Qa1,Qc1",
        "queens -n 4 --given Qd1,Qb1",
        "independent --piece rook -n 7 --exactly 7 --given Rb3,Rg3",
        "queens -n 7 --given Qa1,Qe1 --pawns d4 --exactly 8",
        "queens -n 4 --given Qd3,Qa3 --unique",
        "queens -n 6 --given Qf5,Qa5 --unique",
        "queens -n 6 --given Qc1,Qd1 --unique",
    ],
)
def test_two_given_pieces_that_attack_on_a_rank_count_none(
    capsys: pytest.CaptureFixture[str], args: str
) -> None:
    code, out, _ = run(capsys, "count", *args.split(), "--json")
    data = json.loads(out)
    assert code == 0 and data["count"] == 0, data
    assert data.get("unique", 0) == 0


def test_two_given_queens_that_attack_count_none_over_http() -> None:
    with TestClient(create_app(Limits(grace_seconds=30))) as client:
        body = {"puzzle": "queens", "n": 4, "given": ["Qd1", "Qb1"]}
        assert client.post("/api/count", json=body).json()["count"] == 0
