"""The board's shape from the command line, problem files, JSON answers and the HTTP
API: ``--shape plane|torus|cylinder`` and ``board.shape``, with ``--torus`` and
``torus: true`` kept as short for a torus."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from chessplace import Board, Shape, read_problem
from chessplace.faces.cli import main
from chessplace.notation.options import problem_from_options
from chessplace.notation.problemfile import from_text


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_cylinder_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "queens", "-n", "5", "--shape", "cylinder", "--unique")
    assert code == 0 and "queens on 5×5 cylinder: 10 placements, 1 up to symmetry" in out
    code, out, _ = run(capsys, "solve", "queens", "-n", "5", "--shape", "cylinder", "--json")
    data = json.loads(out)
    assert code == 0 and data["shape"] == "cylinder" and len(data["pieces"]) == 5


def test_torus_is_short_for_the_torus_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, by_flag, _ = run(capsys, "solve", "queens", "-n", "5", "--torus", "--print-problem")
    assert code == 0
    code, by_shape, _ = run(
        capsys, "solve", "queens", "-n", "5", "--shape", "torus", "--print-problem"
    )
    assert code == 0 and by_flag == by_shape
    assert json.loads(by_shape)["board"]["shape"] == "torus"
    code, out, _ = run(capsys, "solve", "queens", "-n", "5", "--json")
    assert json.loads(out)["shape"] == "plane"


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--shape", "cone"], "argument --shape: invalid choice: 'cone'"),
        (["--shape", "plane", "--torus"], "shape is plane but torus is true: give one of them"),
        (["--shape", "cylinder", "--torus"], "shape is cylinder but torus is true"),
    ],
)
def test_a_bad_shape_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], words: list[str], message: str
) -> None:
    code, out, err = run(capsys, "solve", "queens", "-n", "5", *words)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("form", ["json", "toml"])
@pytest.mark.parametrize("shape", ["torus", "cylinder"])
def test_print_problem_keeps_the_shape(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, form: str, shape: str
) -> None:
    options = ["independent", "--piece", "K", "--rows", "3", "--cols", "5", "--shape", shape]
    code, printed, _ = run(capsys, "solve", *options, "--print-problem", form)
    data = tomllib.loads(printed) if form == "toml" else json.loads(printed)
    assert code == 0 and data["board"]["shape"] == shape
    path = tmp_path / f"problem.{form}"
    path.write_text(printed)
    assert read_problem(path).board == Board(3, 5, Shape(shape))
    code, again, _ = run(capsys, "solve", str(path), "--print-problem", form)
    assert code == 0 and again == printed
    code, out, _ = run(capsys, "optimize", str(path), "--json")
    assert code == 0 and json.loads(out)["shape"] == shape


SPELLED = '{"board": {"rows": 5, "cols": 5%s}, "armies": [{"piece": "Q"}]}'


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ('{"puzzle": "queens", "n": 5, "shape": "cylinder"}', Shape.CYLINDER),
        ('{"puzzle": "queens", "n": 5, "torus": true}', Shape.TORUS),
        ('{"puzzle": "queens", "n": 5, "torus": true, "shape": "torus"}', Shape.TORUS),
        (SPELLED % ', "torus": true', Shape.TORUS),
        (SPELLED % ', "shape": "cylinder"', Shape.CYLINDER),
        (SPELLED % "", Shape.PLANE),
    ],
)
def test_problem_files_state_the_shape_or_the_torus_shorthand(text: str, shape: Shape) -> None:
    assert from_text(text).board.shape == shape


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"board": {"rows": 5, "cols": 5, "shape": 7}, "armies": [{"piece": "Q"}]}',
            "board.shape: the board's shape is one of plane, torus, cylinder, not 7",
        ),
        (
            '{"board": {"rows": 5, "cols": 5, "shape": "plane", "torus": true}, '
            '"armies": [{"piece": "Q"}]}',
            "board.shape is plane but board.torus is true: give one of them",
        ),
        (
            '{"board": {"rows": 5, "cols": 5, "shape": "torus", "torus": false}, '
            '"armies": [{"piece": "Q"}]}',
            "board.shape is torus but board.torus is false: give one of them",
        ),
        (
            '{"board": {"rows": 5, "cols": 5, "torus": "yes"}, "armies": [{"piece": "Q"}]}',
            'board.torus: expected true or false, not "yes"',
        ),
        ('{"puzzle": "queens", "n": 5, "shape": "cone"}', "shape: the board's shape is one of"),
        ('{"puzzle": "queens", "n": 5, "shape": 7}', "shape: expected a string, not"),
    ],
)
def test_a_bad_shape_in_a_problem_file_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "problem.json"
    path.write_text(text)
    code, out, err = run(capsys, "solve", str(path))
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_verify_reads_the_shape_of_an_answer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = ["queens", "-n", "5", "--shape", "cylinder"]
    code, out, _ = run(capsys, "solve", *board, "--json")
    answer = tmp_path / "answer.json"
    answer.write_text(out)
    assert code == 0 and run(capsys, "verify", *board, str(answer))[0] == 0
    code, _, err = run(capsys, "verify", "queens", "-n", "5", "--torus", str(answer))
    assert code == 2 and "the JSON is for a cylinder board, not a torus one" in err
    older = tmp_path / "older.json"  # as torus answers were written before "shape"
    data = json.loads(out) | {"torus": True}
    del data["shape"]
    older.write_text(json.dumps(data))
    code, _, err = run(capsys, "verify", *board, str(older))
    assert code == 2 and "the JSON is for a torus board, not a cylinder one" in err


def test_the_shape_word_is_read_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "queens", "-n", "5", "--shape", "CYLINDER")
    assert code == 0 and "cylinder: 10 placements" in out


def test_a_region_puzzle_takes_the_plane_it_is_drawn_on() -> None:
    grid = ["aabb", "abbb", "ccdd", "cddd"]
    plane = problem_from_options("queens-game", grid=grid, shape="plane")
    assert plane == problem_from_options("queens-game", grid=grid)
    with pytest.raises(ValueError, match="takes its board and counts from the grid alone"):
        problem_from_options("queens-game", grid=grid, shape="cylinder")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"torus": True}, "the JSON's shape is cylinder but its torus is true: give one of them"),
        ({"torus": "yes"}, "its torus: expected true or false, not 'yes'"),
        ({"shape": ["cylinder"]}, "the board's shape is one of plane, torus, cylinder"),
    ],
)
def test_an_answer_whose_shape_words_disagree_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, object], message: str
) -> None:
    code, out, _ = run(capsys, "solve", "queens", "-n", "7", "--shape", "cylinder", "--json")
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({**json.loads(out), **change}))
    code, out, err = run(capsys, "verify", "queens", str(answer), "-n", "7", "--shape", "cylinder")
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
