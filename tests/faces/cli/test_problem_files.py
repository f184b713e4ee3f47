"""Problem files round-trip every problem option of the command line, in JSON and in
TOML: the options are read from the parser itself, so a new one fails here until it
has an example; and any Problem survives ``write_problem``/``read_problem`` (Hypothesis)."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tomllib
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from PIL import Image

from chessplace import Army, Board, Problem, Sense, piece_from_text, read_problem, write_problem
from chessplace.core.board import Shape, Square
from chessplace.faces.cli import main
from chessplace.faces.cli.parser import build_parser, parse
from chessplace.faces.cli.problemargs import problem_from
from chessplace.notation.problemfile import MAX_FILE_BYTES, MAX_LISTED, from_text
from chessplace.notation.puzzles import PUZZLES, REGION_PUZZLES

SCHEMA = json.loads(files("chessplace.data").joinpath("problem.schema.json").read_text())

COMMANDS = ("solve", "optimize", "count")

NOT_THE_PROBLEM = {
    "help",
    "print_problem",
    "json",
    "ascii",
    "time_limit",
    "why",
    "solver",
    "encoding",
    "sat_backend",
    "render",
    "show_attacks",
    "workers",
    "dask",
    "checkpoint",
    "certificate",
    "unique",
    "optimal",
    "limit",
    "list",
}
"""Options that say how to answer, not what the problem is."""

GRID = "GRID"
"""Stands for the path of a 4×4 grid of regions written for the test."""
IMAGE = "IMAGE"
"""Stands for the path of a picture of that grid (four squares of colour), drawn for the test."""

EXAMPLES: dict[str, list[list[str]]] = {
    "puzzle": [
        ["queens", "-n", "6"],
        ["queens-and-pawns", "-n", "5", "--pawns", "1"],
        ["bishops", "-n", "5"],
        ["amazons", "-n", "10"],
        ["peaceable-queens", "-n", "5"],
        ["dominating-queens", "-n", "6"],
        ["independent", "--piece", "N", "-n", "5"],
        ["peaceable", "--piece", "B", "-n", "5"],
        ["dominating", "--piece", "K", "-n", "5"],
        ["queens-game", "--grid", GRID],
        ["star-battle", "--grid", GRID],
    ],
    "n": [["queens", "-n", "7"]],
    "rows": [["queens", "--rows", "5", "--cols", "7"]],
    "cols": [["bishops", "--rows", "6", "--cols", "3"]],
    "torus": [["queens", "-n", "5", "--torus"], ["peaceable-queens", "-n", "6", "--torus"]],
    "shape": [
        ["queens", "-n", "5", "--shape", "cylinder"],
        ["independent", "--piece", "K", "--rows", "3", "--cols", "5", "--shape", "torus"],
    ],
    "piece": [
        ["independent", "--piece", "W2F", "-n", "5"],
        ["dominating", "--piece", "NN", "-n", "4"],
    ],
    "armies": [["peaceable-queens", "-n", "5", "--armies", "3"]],
    "white": [["peaceable", "--piece", "Q", "-n", "5", "--white", "3"]],
    "grid_file": [["queens-game", "--grid", GRID]],
    "image_file": [["queens-game", "--image", IMAGE]],
    "stars": [["star-battle", "--grid", GRID, "--stars", "1"]],
    "blocked": [["queens", "-n", "6", "--blocked", "a1,c3,f6"]],
    "given": [
        ["queens", "-n", "8", "--given", "Qd1"],
        ["peaceable-queens", "-n", "6", "--armies", "3", "--given", "Qa1,qf2,red:c3"],
    ],
    "pawns": [
        ["queens", "-n", "6", "--pawns", "c3,d4"],
        ["queens-and-pawns", "-n", "6", "--pawns", "2"],
    ],
    "dominate": [
        ["dominating-queens", "-n", "6", "--dominate", "a1,f6,c4"],
        ["queens", "-n", "6", "--dominate", "b2"],
    ],
    "at_least": [["independent", "--piece", "K", "-n", "5", "--at-least", "4"]],
    "exactly": [["peaceable-queens", "-n", "5", "--exactly", "4"]],
    "at_most": [["dominating-queens", "-n", "5", "--at-most", "3"]],
    "counts": [
        ["queens", "-n", "6", "--count", "each rank=1", "--count", "white:a1,b2<=1"],
        ["independent", "--piece", "K", "-n", "5", "--count", "each-file>=1"],
    ],
    "no_attack": [
        ["peaceable-queens", "-n", "5", "--no-attack", "white:black"],
        ["peaceable-queens", "-n", "5", "--armies", "3", "--no-attack", "none"],
    ],
    "regions": [
        ["independent", "--piece", "K", "-n", "4", "--regions", "AABB,AABB,CCDD,CCDD"],
        ["queens", "-n", "4", "--regions", "AABB,AABB,CCDD,CCDD", "--count", "each-region=1"],
    ],
}
"""Per problem option (its ``dest``), invocations that use it."""


def _options(command: str) -> list[argparse.Action]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(commands.choices[command]._actions)


def test_every_option_is_known_as_stating_the_problem_or_not() -> None:
    for command in COMMANDS:
        for action in _options(command):
            assert action.dest in NOT_THE_PROBLEM or action.dest in EXAMPLES, (
                f"{command} {action.option_strings}: a new option? Say whether it states the "
                "problem (an example in EXAMPLES) or not (NOT_THE_PROBLEM)"
            )


def _cases() -> list[tuple[str, str, list[str]]]:
    return [
        (command, action.dest, example)
        for command in COMMANDS
        for action in _options(command)
        if action.dest in EXAMPLES
        for example in EXAMPLES[action.dest]
    ]


def test_the_examples_cover_every_puzzle() -> None:
    named = {example[0] for example in EXAMPLES["puzzle"]}
    assert named == set(PUZZLES) | set(REGION_PUZZLES)


@pytest.mark.parametrize("form", ["json", "toml"])
@pytest.mark.parametrize(("command", "dest", "words"), _cases())
def test_print_problem_feeds_back_to_the_same_problem(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    form: str,
    command: str,
    dest: str,
    words: list[str],
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("aabb\naabb\nccdd\nccdd\n")
    image = tmp_path / "grid.png"
    picture = Image.new("RGB", (200, 200), "white")
    for corner, colour in zip(
        [(20, 20), (100, 20), (20, 100), (100, 100)],
        ["red", "green", "blue", "yellow"],
        strict=True,
    ):
        picture.paste(colour, (*corner, corner[0] + 80, corner[1] + 80))
    picture.save(image)
    paths = {GRID: str(grid), IMAGE: str(image)}
    argv = [command, *(paths.get(word, word) for word in words)]
    expected = problem_from(parse(argv))
    assert main([*argv, "--print-problem", form]) == 0
    printed, _ = capsys.readouterr()
    assert from_text(printed, form) == expected  # type: ignore[arg-type]
    data = tomllib.loads(printed) if form == "toml" else json.loads(printed)
    jsonschema.validate(data, SCHEMA)  # the published schema takes what is printed
    path = tmp_path / f"problem.{form}"
    path.write_text(printed)
    assert read_problem(path) == expected
    assert main(["solve", str(path), "--print-problem", form]) == 0
    again, _ = capsys.readouterr()
    assert again == printed
    other = "toml" if form == "json" else "json"
    assert main(["count", str(path), "--print-problem", other]) == 0
    converted, _ = capsys.readouterr()
    assert from_text(converted, other) == expected  # type: ignore[arg-type]


# --- Problem -> write_problem -> read_problem, over random problems -------------------------

PIECES = ["queen", "knight", "bishop", "rook", "king", "NN", "W2F", "QN", "FD"]


@st.composite
def problems(draw: st.DrawFn) -> Problem:
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    board = Board(rows, cols, draw(st.sampled_from(Shape)))
    count = draw(st.integers(1, 3))
    names = draw(
        st.lists(st.text(min_size=1, max_size=8), min_size=count, max_size=count, unique=True)
    )
    armies = []
    for name in names:
        least = draw(st.integers(0, 4))
        most = draw(st.none() | st.integers(least, 6))
        armies.append(
            Army(
                name,
                piece_from_text(draw(st.sampled_from(PIECES))),
                least,
                most,
                draw(st.booleans()),
            )
        )
    squares = list(board.squares())
    roles = draw(st.lists(st.integers(0, 3 + count), min_size=len(squares), max_size=len(squares)))
    blocked = frozenset(s for s, r in zip(squares, roles, strict=True) if r == 1)
    pawns = frozenset(s for s, r in zip(squares, roles, strict=True) if r == 2)
    given = tuple(
        frozenset(s for s, r in zip(squares, roles, strict=True) if r == 4 + a)
        for a in range(count)
    )
    dominating = count == 1 and draw(st.booleans())
    dominated: frozenset[Square] | None = None
    if dominating and draw(st.booleans()):
        dominated = frozenset(draw(st.lists(st.sampled_from(squares), min_size=1, unique=True)))
    free = 0
    if count == 1 and not dominating and not board.shape.joined:
        free = draw(st.integers(0, 2))
    try:
        return Problem(
            draw(st.text(max_size=12)),
            board,
            tuple(armies),
            independent=draw(st.booleans()),
            dominating=dominating,
            equal_armies=draw(st.booleans()),
            sense=draw(st.sampled_from(Sense)),
            blocked=blocked,
            pawns=pawns,
            given=given,
            free_pawns=free,
            dominated=dominated,
        )
    except ValueError:
        assume(False)
        raise


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems())
def test_a_problem_survives_its_file(
    tmp_path_factory: pytest.TempPathFactory, problem: Problem
) -> None:
    folder = tmp_path_factory.mktemp("files")
    for suffix in (".json", ".toml", ".TOML"):
        path = folder / f"problem{suffix}"
        write_problem(problem, path)
        assert read_problem(path) == problem
    assert (folder / "problem.toml").read_text().startswith(("puzzle =", "objective ="))


# --- bad TOML ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('puzzle = "queens"\nn = ', "not valid TOML"),
        ('puzzle = "queens"\nn = 8\nn = 9\n', "not valid TOML"),
        ('puzzle = "queens"\nn = 8.5\n', "n: expected a whole number, not the number 8.5"),
        ('puzzle = "queens"\nn = 1979-05-27\n', "n: expected a whole number, not a date"),
        ('puzzle = "queens"\nn = 8\nblocked = "a1"\n', "blocked: expected a list"),
        ("[board]\nrows = 4\ncols = 4\n[[armies]]\npiece = 5\n", "armies.0.piece"),
        (
            "[board]\nrows = 4\ncols = 4\n[[armies]]\npiece = 'Q'\n[rules]\ndominating = 3\n",
            "rules.dominating: expected true or false, or a list of squares",
        ),
        (
            "[board]\nrows = 4\ncols = 4\n[[armies]]\npiece = 'Q'\n[rules]\ndominating = ['e5']\n",
            "square to dominate e5 is off the 4×4 board",
        ),
        (
            "[board]\nrows = 4\ncols = 4\n[[armies]]\npiece = 'Q'\n[rules]\ndominating = [1]\n",
            "rules.dominating: a square is a name",
        ),
        ("a = " + "[" * 10_000, "nested deeper"),
        ("x" + ".x" * 7 + " = 1\n", "nested deeper than 6 levels (a dotted key's dots count)"),
        ("[" + ".".join("x" * 7) + "]\n", "nested deeper"),
        ("\x00", "not valid TOML"),
    ],
)
def test_bad_toml_files_are_one_line_naming_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    code = main(["solve", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_print_problem_takes_only_json_or_toml(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "queens", "-n", "4", "--print-problem", "yaml"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "invalid choice" in err


@pytest.mark.parametrize(
    ("rules", "objective", "sense"),
    [
        ('"dominating": true', "", Sense.MINIMIZE),
        ('"dominating": ["a1", "c3"]', "", Sense.MINIMIZE),
        ('"dominating": true', ', "objective": "maximize"', Sense.MAXIMIZE),
        ('"dominating": false', "", Sense.MAXIMIZE),
        ('"independent": true', "", Sense.MAXIMIZE),
    ],
)
def test_a_file_asking_for_domination_minimizes_unless_told(
    rules: str, objective: str, sense: Sense
) -> None:
    """A spelled-out file that sets rules.dominating and names no objective asks for the
    fewest pieces (the most would fill the board); otherwise the most."""
    text = (
        '{"board": {"rows": 5, "cols": 5}, "armies": [{"name": "white", "piece": "queen"}], '
        f'"rules": {{{rules}}}{objective}}}'
    )
    assert from_text(text).sense is sense


@pytest.mark.parametrize("form", ["json", "toml"])
def test_brackets_inside_names_are_not_nesting(tmp_path: Path, form: str) -> None:
    """The depth guard reads past strings and comments: armies named with brackets (and
    a TOML comment full of them) survive their file, deep nesting is still refused."""
    names = ("{{{{{{{{", "[[[[[[[[ # '\"")
    problem = Problem(
        "custom",
        Board(5, 5),
        tuple(Army(name, piece_from_text("queen"), 1, 2) for name in names),
        independent=False,
    )
    path = tmp_path / f"p.{form}"
    write_problem(problem, path)
    if form == "toml":
        path.write_text(path.read_text() + "# [[[[[[[[[[[[ '\n")
    assert read_problem(path) == problem
    deep = ('{"a": ' + "[" * 7 + '"x"' + "]" * 7 + "}") if form == "json" else "a = " + "[" * 7
    with pytest.raises(ValueError, match="nested deeper"):
        from_text(deep, form)  # type: ignore[arg-type]


# --- a piece's own notation survives its file -----------------------------------------


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("piece", ["W2", "NN", "R4", "B", "Q", "K", "N", "QN", "WD", "F2N"])
def test_print_problem_keeps_the_piece_it_was_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, n: int, piece: str
) -> None:
    """A Betza piece is printed as the user wrote it (or as its name): ``R4`` on 5×5,
    or ``W2`` on 3×3, rides across the board like a rook there, but was once printed
    ``WW`` and read back as the rook. Solving the printed file answers as the options
    did, with the same piece."""
    argv = ["optimize", "dominating", "--piece", piece, "-n", str(n), "--solver", "cpsat"]
    assert main([*argv, "--json"]) == 0
    expected = json.loads(capsys.readouterr()[0])
    for form in ("toml", "json"):
        assert main([*argv, "--print-problem", form]) == 0
        printed, _ = capsys.readouterr()
        data = tomllib.loads(printed) if form == "toml" else json.loads(printed)
        assert piece_from_text(data["armies"][0]["piece"]).name == piece_from_text(piece).name
        path = tmp_path / f"problem.{form}"
        path.write_text(printed)
        assert read_problem(path) == problem_from(parse(argv))
        assert main(["optimize", str(path), "--solver", "cpsat", "--json"]) == 0
        answer = json.loads(capsys.readouterr()[0])
        for key in ("status", "objective", "bound", "armies"):
            assert answer[key] == expected[key], (form, key)


def test_print_problem_refuses_a_piece_with_directions(capsys: pytest.CaptureFixture[str]) -> None:
    """``fWbF`` (forward wazir, backward ferz) moves unlike in every direction: refused
    in one line, nothing printed."""
    assert main(["solve", "dominating", "--piece", "fWbF", "-n", "5", "--print-problem"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Betza modifier 'f'" in err


# --- hostile files ---------------------------------------------------------------------

CHILD_DATA = 1 << 30
"""The data a child CLI may allocate: room for every refusal here, far less than work
per square of the boards asked for, or the parsed values of the files, would take."""


def _bounded_cli(*args: str, seconds: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
    """The command line in a child with :data:`CHILD_DATA` of data; and its seconds."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (CHILD_DATA, CHILD_DATA))

    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", *args],
        capture_output=True,
        text=True,
        timeout=seconds,
        preexec_fn=limited,
    )
    return done, time.monotonic() - started


def _one_line_refusal(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert (done.returncode, done.stdout) == (2, ""), done.stderr[-600:]
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr[-600:]


SPELLED_HUGE = {
    "board": {"rows": 100_000, "cols": 100_000, "blocked": ["a1"]},
    "armies": [{"piece": "queen", "min": 100_000}],
}


@pytest.mark.parametrize(
    "words",
    [
        ["solve", "queens", "-n", "1000000", "--given", "Qa1", "--time-limit", "30"],
        ["solve", "queens", "-n", "1000000", "--blocked", "a1"],
        ["solve", "HUGE"],
    ],
    ids=["given", "blocked", "spelled-file"],
)
def test_a_board_no_engine_takes_is_refused_at_once(tmp_path: Path, words: list[str]) -> None:
    """Every engine refuses a position on 10^12 (or 10^10) squares by the board's size:
    one line at once, never a pass over every square first (the portfolio asked
    whether the problem's counts follow from its lines: 6.8 GB, then a stop ignored)."""
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(SPELLED_HUGE))
    done, seconds = _bounded_cli(*(str(huge) if word == "HUGE" else word for word in words))
    _one_line_refusal(done, f"no solver can {words[0]} this problem")
    assert "builds a model per square" in done.stderr
    assert seconds < 20  # a second or two, with room for a loaded machine


def test_a_deep_dotted_key_is_refused_before_parsing(tmp_path: Path) -> None:
    """50,000 dotted parts, 100 KB: tomllib takes a minute and gigabytes on them."""
    path = tmp_path / "dotted.toml"
    path.write_text(".".join(["x"] * 50_000) + " = 1\n")
    done, seconds = _bounded_cli("solve", str(path))
    _one_line_refusal(done, f"{path}: nested deeper than 6 levels")
    assert seconds < 20


def test_millions_of_values_are_refused_before_parsing(tmp_path: Path) -> None:
    """A 55 MB list of squares for an 8×8 board: counted before it is parsed (which
    takes 1 GB and more), not read."""
    path = tmp_path / "many.json"
    path.write_text('{"puzzle": "queens", "n": 8, "blocked": [' + '"a1",' * 11_000_000 + "]}")
    done, seconds = _bounded_cli("solve", str(path))
    _one_line_refusal(done, "11,000,002 commas: a problem file holds at most 4,194,304")
    assert seconds < 20


def _squares(count: int) -> list[str]:
    """The first ``count`` squares of a 2,000-file board, rank by rank."""
    files = [chr(97 + f) if f < 26 else chr(96 + f // 26) + chr(97 + f % 26) for f in range(676)]
    return [f"{files[i % 676]}{i // 676 + 1}" for i in range(count)]


@pytest.mark.parametrize(
    "where", ["blocked", "pawns", "dominate-text", "spelled-blocked", "spelled-given"]
)
def test_a_list_longer_than_a_problem_file_holds_is_refused_unread(where: str) -> None:
    """Squares of a board large enough to hold them all, one more than a problem file
    lists: refused by their number, before a square is read (a million take seconds)."""
    squares = _squares(MAX_LISTED + 1)
    data = {
        "blocked": {"puzzle": "queens", "n": 2000, "blocked": squares},
        "pawns": {"puzzle": "queens", "n": 2000, "pawns": squares},
        "dominate-text": {"puzzle": "dominating-queens", "n": 2000, "dominate": ",".join(squares)},
        "spelled-blocked": {
            **SPELLED_HUGE,
            "board": {"rows": 2000, "cols": 2000, "blocked": squares},
        },
        "spelled-given": {**SPELLED_HUGE, "given": ["Qa1"] * (MAX_LISTED + 1)},
    }[where]
    started = time.monotonic()
    with pytest.raises(ValueError, match=f"entries; a problem file lists at most {MAX_LISTED:,}"):
        from_text(json.dumps(data))
    assert time.monotonic() - started < 10


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    """Opening a FIFO for reading waits for a writer: the file is opened without
    waiting and refused as no regular file."""
    fifo = tmp_path / "problem.json"
    os.mkfifo(fifo)
    done, _ = _bounded_cli("solve", str(fifo), seconds=30)
    _one_line_refusal(done, f"{fifo}: a FIFO, not a regular file")


@pytest.mark.parametrize(("option", "what"), [("--grid", "the grid"), ("--image", "the image")])
def test_a_fifo_given_as_a_grid_or_image_is_refused(tmp_path: Path, option: str, what: str) -> None:
    fifo = tmp_path / "grid.png"
    os.mkfifo(fifo)
    done, _ = _bounded_cli("solve", "queens-game", option, str(fifo), seconds=30)
    _one_line_refusal(done, f"cannot read {what} {fifo}: a FIFO, not a regular file")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"puzzle": "queens", "n": 8, "n": 4}', '"n"'),
        ('{"board": {"rows": 4, "cols": 4, "rows": 5}, "armies": [{"piece": "Q"}]}', '"rows"'),
        ('{"puzzle": "queens", "n": 8, "given": [{"square": "a1", "square": "b3"}]}', '"square"'),
    ],
)
def test_a_key_given_twice_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, key: str
) -> None:
    path = tmp_path / "twice.json"
    path.write_text(text)
    assert main(["solve", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"not valid JSON: the key {key} comes twice in one object" in err, err


def test_a_file_too_long_is_named_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"chessplace: error: {path}: more than 64 MiB, too long for a problem file\n"
