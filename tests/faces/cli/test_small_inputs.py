"""Trust at the edges: checkpoints, JSON and text input, listing by class, piece letters."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessplace import Board, Placement, Status, api, count, optimize, puzzles, solutions
from chessplace.core.board import MAX_SIDE, file_name, square_name
from chessplace.core.pieces import NAMED_PIECES
from chessplace.core.problem import MAX_PIECES
from chessplace.data.reference import known
from chessplace.engines.bitboard.checkpoint import count_journal
from chessplace.faces.cli import main
from chessplace.faces.cli.handlers import input_limit
from chessplace.forms.jsonio import (
    placement_from_data,
    placement_pieces,
    result_head,
    result_json,
    write_json,
)
from chessplace.forms.svg import render_svg
from chessplace.forms.text import parse_text, render_text

SQUARE = Board.square
SVG = "{http://www.w3.org/2000/svg}"


def _cli(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chessplace", *args], capture_output=True, text=True, check=check
    )


# Checkpoints ------------------------------------------------------------------------------


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def _write(path: Path, header: str, records: list[dict[str, object]], tail: str = "") -> None:
    path.write_text("\n".join([header, *map(json.dumps, records)]) + "\n" + tail)


def test_a_tampered_checkpoint_record_is_reported_and_recounted(tmp_path: Path) -> None:
    checkpoint = tmp_path / "q9.jsonl"
    _cli("count", "queens", "-n", "9", "--checkpoint", str(checkpoint), check=True)
    header, *lines = checkpoint.read_text().splitlines()
    records = [json.loads(line) for line in lines]
    victim = next(r for r in records if r["solutions"])
    victim["solutions"] = 999_999_999
    _write(checkpoint, header, records)
    done = _cli("count", "queens", "-n", "9", "--checkpoint", str(checkpoint), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["status"], data["count"]) == ("complete", known("A000170", 9))
    reported = [line for line in done.stderr.splitlines() if str(victim["task"]) in line]
    assert len(reported) == 1 and "checkpoint" in reported[0]
    again = _cli("count", "queens", "-n", "9", "--checkpoint", str(checkpoint), "--json")
    assert json.loads(again.stdout)["count"] == known("A000170", 9)
    assert again.stderr.count("checkpoint") == 0  # the rewritten file holds only good records


def test_foreign_duplicate_and_garbled_records_never_reach_the_total(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    nine, ten = tmp_path / "q9.jsonl", tmp_path / "q10.jsonl"
    count(puzzles.queens(SQUARE(9)), solver="bitboard", checkpoint=nine)
    count(puzzles.queens(SQUARE(10)), solver="bitboard", checkpoint=ten)
    header = nine.read_text().splitlines()[0]
    mine = _records(nine)
    foreign = {r["task"]: r for r in _records(ten)}
    kept = [r for r in mine if r["task"] not in ("0-2", "1-3", "2-0")]
    forged = dict(kept[5], canonical=7)
    records = [
        *kept,
        foreign["0-2"],  # checks for n = 10, not here
        kept[0],  # a duplicate
        {"task": "1-3"},  # fields missing
        forged,  # a second, different result for a recorded subproblem
        {"task": "nonsense", "solutions": 5, "canonical": 1, "check": "0"},
    ]
    _write(nine, header, records, tail='{"task": "2-0", "solut')
    with caplog.at_level(logging.WARNING):
        result = count(puzzles.queens(SQUARE(9)), unique=True, solver="bitboard", checkpoint=nine)
    assert (result.count, result.unique) == (known("A000170", 9), known("A002562", 9))
    reported = [r.getMessage() for r in caplog.records]
    assert len(reported) == 6 and all(str(nine) in message for message in reported)
    assert result.note == f"resumed {len(kept)} finished subproblems"


def test_checkpoint_records_carry_the_count_they_belong_to(tmp_path: Path) -> None:
    header = {"n": 5, "piece": "Q", "method": "classes", "tasks": 2, "first": "0-2"}
    path = tmp_path / "c.jsonl"
    written = count_journal(path, header, ["0-2", "0-3"])
    written.record("0-2", 4, 1)
    written.close()
    assert count_journal(path, header, ["0-2", "0-3"]).done == {"0-2": (4, 1)}
    other = tmp_path / "d.jsonl"
    _write(other, json.dumps({"header": {**header, "n": 6}}), _records(path))
    assert count_journal(other, {**header, "n": 6}, ["0-2", "0-3"]).done == {}


# JSON input -------------------------------------------------------------------------------


def _verify_json(
    tmp_path: Path, pieces: list[dict[str, object]]
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({"pieces": pieces}))
    return _cli("verify", "queens", "-n", "4", str(path))


@pytest.mark.parametrize(
    ("pieces", "named"),
    [
        ([{"square": "b1"}, {"square": "d2"}, {"square": "b1"}], "piece 3"),
        ([{"square": "b1"}, {"file": 2, "rank": 1}], "piece 2"),
        ([{"square": "b1", "file": 3, "rank": 1}], "piece 1"),
        ([{"square": "b1", "rank": 2}], "piece 1"),
        ([{"square": "b1", "file": True, "rank": 1}], "piece 1"),
        ([{"square": "b1", "army": ["white"]}], "piece 1"),
    ],
)
def test_repeated_or_contradictory_pieces_are_bad_input(
    tmp_path: Path, pieces: list[dict[str, object]], named: str
) -> None:
    done = _verify_json(tmp_path, pieces)
    assert done.returncode == 2, done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and named in done.stderr


def test_a_square_held_by_two_armies_is_bad_input() -> None:
    problem = puzzles.peaceable_queens(SQUARE(4))
    pieces = [{"army": "white", "square": "a1"}, {"army": "black", "square": "a1"}]
    with pytest.raises(ValueError, match="piece 2: a1"):
        placement_from_data(problem, pieces)


def test_agreeing_file_and_rank_are_accepted() -> None:
    problem = puzzles.queens(SQUARE(4))
    pieces = [{"square": s, "file": f, "rank": r} for s, f, r in [("b1", 2, 1), ("d2", 4, 2)]]
    assert placement_from_data(problem, pieces).armies == (frozenset({(1, 0), (3, 1)}),)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 30),
    st.sets(st.tuples(st.integers(-3, 40), st.integers(-3, 40)), max_size=60),
)
def test_json_pieces_come_by_rank_then_file_on_and_off_the_board(
    cols: int, squares: set[tuple[int, int]]
) -> None:
    """On the board's files the squares sort as integers, elsewhere as pairs: the same
    order, rank first, and the same names either way (a pair where a coordinate is
    negative: such a square has no name, and Python's negative indexing gave it one
    on the board's far side)."""
    problem = puzzles.queens(Board(41, cols))
    pieces = placement_pieces(Placement(problem, (frozenset(squares),)))
    assert [(p["rank"] - 1, p["file"] - 1) for p in pieces] == sorted((r, f) for f, r in squares)
    assert [p["square"] for p in pieces] == [
        f"{file_name(f)}{r + 1}" if min(f, r) >= 0 else f"({f}, {r})"
        for f, r in ((p["file"] - 1, p["rank"] - 1) for p in pieces)
    ]


@pytest.mark.parametrize("odd", [1.5, "1"], ids=["float", "string"])
def test_json_pieces_never_round_an_odd_coordinate_to_a_square(odd: object) -> None:
    """A hand-built placement's float or string coordinate is not read as a file."""
    problem = puzzles.queens(SQUARE(8))
    placement = Placement(problem, (frozenset({(odd, 0), (0, 1)}),))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        placement_pieces(placement)


def test_many_repeated_squares_fail_fast() -> None:
    problem = puzzles.queens(SQUARE(1000))
    pieces = [{"file": i % 1000 + 1, "rank": i // 1000 + 1} for i in range(300_000)]
    pieces.append({"square": "a1"})
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"piece 300001: a1 .*piece 1$"):
        placement_from_data(problem, pieces)
    assert time.perf_counter() - started < 30  # generous: linear work, not quadratic
    with pytest.raises(ValueError, match="piece 2: a1"):
        placement_from_data(problem, [{"square": "a1"}] * 300_000)


@pytest.mark.parametrize("path", ["/api/verify", "/api/render"])
def test_the_web_api_refuses_repeated_squares(path: str) -> None:
    from fastapi.testclient import TestClient

    from chessplace.faces.web.app import create_app

    pieces = [{"square": "b1"}, {"square": "d2"}, {"square": "b1"}]
    body = {"puzzle": "queens", "n": 4, "pieces": pieces}
    with TestClient(create_app()) as client:
        answer = client.post(path, json=body)
    assert answer.status_code == 400 and "piece 3: b1" in answer.json()["detail"]


def test_the_web_api_refuses_a_board_no_engine_takes_at_once() -> None:
    """A server that allows a million a side still refuses n queens with a given one on
    it by the engines' limits, at once: not the worker's 2 GiB spent on every square
    (asking whether the counts follow from the lines) and a 503."""
    from fastapi.testclient import TestClient

    from chessplace.faces.web.app import create_app
    from chessplace.faces.web.limits import Limits

    limits = Limits(workers=1, small_workers=0).with_sides(solve=1_000_000)
    body = {"puzzle": "queens", "n": 1_000_000, "given": ["Qa1"], "time_limit": 30}
    with TestClient(create_app(limits)) as client:
        started = time.monotonic()
        answer = client.post("/api/solve", json=body)
        seconds = time.monotonic() - started
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"].startswith("no solver can solve this problem (")
    assert seconds < 20


@pytest.mark.parametrize(
    "text",
    [
        "Q . . .\n. . . .\n. . . .\n",  # too few ranks
        "Q . . . .\n. . . .\n. . . .\n. . . .\n",  # too many files
        "Q . . .\n. . X .\n. . . .\n. . . .\n",  # not a queen
        "Q . . .\n. . . .\n. . . .\n. . . Q5\n",  # no fifth army
        "Q . . .\n. . . .\n. . . .\n·2 . . .\n",  # a number on an empty square
    ],
)
def test_text_boards_reject_what_they_should(text: str) -> None:
    with pytest.raises(ValueError):
        parse_text(puzzles.queens(SQUARE(4)), text)


# Listing one placement per class ----------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 10))
def test_listing_by_class_gives_one_placement_per_class(n: int) -> None:
    listed = list(solutions(puzzles.queens(SQUARE(n)), unique=True))
    assert len(listed) == known("A002562", n)
    assert all(p.verify() == () for p in listed)
    assert len({p.canonical_key() for p in listed}) == len(listed)


def test_cli_lists_one_placement_per_class() -> None:
    done = _cli("count", "queens", "-n", "6", "--list", "--unique", check=True)
    lines = done.stdout.splitlines()
    assert len(lines) == known("A002562", 6)
    problem = puzzles.queens(SQUARE(6))
    placements = [placement_from_data(problem, json.loads(line)) for line in lines]
    assert all(p.verify() == () for p in placements)
    assert len({p.canonical_key() for p in placements}) == len(placements)


def test_is_canonical_picks_one_member_of_each_orbit() -> None:
    problem = puzzles.peaceable_queens(SQUARE(5)).with_counts(exactly=2)
    placement = Placement.from_squares(problem, [[(0, 0), (1, 2)], [(3, 1), (4, 4)]])
    images = set()
    for symmetry in problem.board.symmetries():
        white, black = placement.transformed(symmetry).armies
        images |= {(white, black), (black, white)}
    assert len(images) == 16
    assert sum(Placement(problem, armies).is_canonical() for armies in images) == 1


# Text boards and piece letters ------------------------------------------------------------


@pytest.mark.parametrize("ascii_only", [False, True])
def test_three_armies_draw_apart_and_read_back(ascii_only: bool) -> None:
    result = optimize(puzzles.peaceable_queens(SQUARE(5), armies=3))
    assert result.placement is not None and result.objective == 1
    text = render_text(result.placement, ascii_only)
    marks = [cell for line in text.splitlines()[:-1] for cell in line.split()[1:]]
    pieces = [m for m in marks if m not in {".", "·", "░"}]
    assert len(set(pieces)) == 3
    assert parse_text(result.placement.problem, text) == result.placement


def test_cli_three_armies_render_then_verify(tmp_path: Path) -> None:
    for flags in ([], ["--ascii"]):
        drawn = _cli("optimize", "peaceable-queens", "-n", "5", "--armies", "3", *flags, check=True)
        board = tmp_path / "board.txt"
        board.write_text(drawn.stdout.rsplit("\n", 2)[0])  # the board, not the summary line
        done = _cli("verify", "peaceable-queens", "-n", "5", "--armies", "3", str(board), "--json")
        assert done.returncode == 0, done.stderr
        assert len(json.loads(done.stdout)["pieces"]) == 3


@pytest.mark.parametrize("name", list(NAMED_PIECES))
def test_text_and_svg_agree_on_each_piece(name: str) -> None:
    piece = NAMED_PIECES[name]
    problem = puzzles.independent(SQUARE(3), piece)
    placement = Placement.from_squares(problem, [[(1, 1)]])
    letter = render_text(placement, ascii_only=True).splitlines()[1].split()[2]
    mark = render_text(placement).splitlines()[1].split()[2]
    root = ET.fromstring(render_svg(placement))
    (group,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "piece"]
    drawn = [t.text for t in group.iter(f"{SVG}text")]
    assert group.get("data-piece") == letter
    assert drawn[0] == (mark if piece.glyphs else "♛" if name == "amazon" else letter)
    assert parse_text(problem, render_text(placement, ascii_only=True)) == placement
    assert parse_text(problem, render_text(placement)) == placement


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 40_000 + "]" * 40_000, "nested too deeply"),
        ('{"pieces": [{"square": "' + "a" * 80_000 + '1"}]}', "not a square name"),
        ('{"rows": 9, "pieces": []}', "the JSON is for rows = 9, not 5"),
        ('{"pieces": [{"file": ' + "1" * 5000 + ', "rank": 1}]}', "not valid JSON: Exceeds"),
        ("1 Q . . . .\n2 . . . . .\n3 . . . . .\n4 . . . . .\n5 . . . . .\n", "labelled rank 1"),
        ("x\n" * 40_000, "text board has more than 18 lines for 5 ranks"),
        ("1 " * 40_000, "a line of the text board is longer than 316 characters"),
    ],
    ids=["deep", "long-square", "other-board", "long-number", "wrong-rank-label", "tall", "wide"],
)
def test_hostile_placement_files_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    source = tmp_path / "placement"
    source.write_text(content)
    assert main(["verify", "queens", "-n", "5", str(source)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_verify_refuses_endless_input(capsys: pytest.CaptureFixture[str]) -> None:
    """Read up to 64 KiB and 1 KiB a square: hostile input for a small board is refused
    at its first kilobytes."""
    assert main(["verify", "queens", "-n", "5", "/dev/zero"]) == 2
    error = capsys.readouterr().err
    assert "more than 89 KiB, too long for a placement on 5×5" in error


def test_verify_can_read_the_json_of_the_largest_answer() -> None:
    """A million of the piece with the longest name on the widest board, each with
    the longest square name and numbers: --json writes no more than verify reads."""
    last = MAX_SIDE - 1
    name = max(NAMED_PIECES, key=len)
    piece = {"piece": name, "army": "white", "square": square_name((last, last))}
    piece |= {"file": MAX_SIDE, "rank": MAX_SIDE}
    head = {"task": "solve", "puzzle": "queens", "rows": MAX_SIDE, "cols": MAX_SIDE}
    whole = len(json.dumps(head)) + 400 + MAX_PIECES * len(json.dumps(piece) + ", ")
    assert whole <= input_limit(puzzles.queens(Board.square(MAX_SIDE)))


def test_verify_reads_a_commands_text_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["solve", "queens", "-n", "6", "--ascii"]) == 0
    board = capsys.readouterr().out
    assert "queens on 6×6" in board
    monkeypatch.setattr(sys, "stdin", io.StringIO(board))
    assert main(["verify", "queens", "-n", "6", "-"]) == 0


@pytest.mark.parametrize("flags", [["render", "-o", ""], ["count", "--checkpoint", " "]])
def test_empty_file_names_are_refused(capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    command, *rest = flags
    assert main([command, "queens", "-n", "6", *rest]) == 2
    assert "expected a file name" in capsys.readouterr().err


def test_many_armies_stay_small() -> None:
    result = optimize(puzzles.peaceable_queens(Board.square(3), armies=6))
    assert (result.status, result.objective) == (Status.OPTIMAL, 0)
    with pytest.raises(ValueError, match="2 armies, no more"):
        puzzles.peaceable_queens(Board.square(4), armies=3, white=1)


@pytest.mark.parametrize(
    "hostile",
    ["[" * 100_000 + "]" * 100_000, '{"task": "0-2", "solutions": ' + "9" * 5000 + "}", "a\u2028b"],
    ids=["deep", "long-integer", "line-separator"],
)
def test_a_hostile_checkpoint_line_is_one_warning_and_a_recount(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, hostile: str
) -> None:
    header = {"n": 5, "piece": "Q", "method": "classes", "tasks": 2, "first": "0-2"}
    path = tmp_path / "c.jsonl"
    written = count_journal(path, header, ["0-2", "0-3"])
    written.record("0-2", 4, 1)
    written.close()
    with path.open("a", encoding="utf-8") as file:
        file.write(hostile + "\n")
    with caplog.at_level(logging.WARNING):
        assert count_journal(path, header, ["0-2", "0-3"]).done == {"0-2": (4, 1)}
    assert len(caplog.records) == 1 and "line 3" in caplog.records[0].getMessage()


def test_a_checkpoint_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main(["count", "queens", "-n", "6", "--checkpoint", str(fifo)]) == 2
    assert "is not a file" in capsys.readouterr().err


@pytest.mark.parametrize("n", [8, 1000, 1001, 30_011])
def test_json_written_in_batches_is_the_json_of_the_whole_answer(n: int) -> None:
    """Up to 1,000 pieces indented, past that one line streamed in batches (30,011
    queens: four batches, the last one short): the same text json.dumps gives."""
    problem = puzzles.queens(SQUARE(n))
    result = api.solve(problem)
    assert result.placement is not None
    out = io.StringIO()
    write_json(result_head(problem, "solve", result), result.placement, out)
    whole = result_json(problem, "solve", result)
    assert out.getvalue() == json.dumps(whole, indent=2 if n <= 1000 else None) + "\n"
