"""The independent C search (chessplace/research/line_search.c) and the commands that run it."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from chessplace.data.reference import known
from chessplace.research.crosscheck_search import main as crosscheck_main
from chessplace.research.sampling import LEAST_SAMPLE
from tests.paths import ROOT
from tests.processes import alive, children, running
from tests.waiting import WORK_PATIENCE, wait_until

RESULTS = ROOT / "results"
SCRIPT = ["-m", "chessplace.research", "crosscheck-search"]

pytestmark = [
    pytest.mark.c_compiler,
    pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler"),
]


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """line_search.c, built once for the module as the script builds it."""
    from chessplace.research.c_search import compiled

    yield compiled(tmp_path_factory.mktemp("build"))


def _answers(
    program: Path, n: int, white: int, black: int, words: str = "0\n1\n", count: bool = False
) -> list[str]:
    run = subprocess.run(
        [str(program), str(n), str(white), str(black), *(["count"] if count else [])],
        input=words,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return run.stdout.splitlines()


def _placement(program: Path, n: int, white: int, black: int) -> str | None:
    """The placement the search finds for at least ``white`` and ``black``, or None
    when it refutes every chunk (the first rank white, or black)."""
    answers = _answers(program, n, white, black)
    assert len(answers) == 2 and all(a.split()[0] in ("found", "refuted") for a in answers)
    found = [a.split()[2] for a in answers if a.startswith("found")]
    return found[0] if found else None


def _attacks(n: int, square: int) -> int:
    """The squares a queen on ``square`` shares a line with (itself included), as bits."""
    rank, file = divmod(square, n)
    mask = 0
    for other in range(n * n):
        r, f = divmod(other, n)
        if r == rank or f == file or r - f == rank - file or r + f == rank + file:
            mask |= 1 << other
    return mask


def _checked(n: int, text: str, white: int, black: int) -> None:
    """A placement the search printed: the counts asked for, no queen attacking one of
    the other colour (checked here square by square, not by the search's lines)."""
    whites = [i for i, c in enumerate(text) if c == "W"]
    blacks = [i for i, c in enumerate(text) if c == "B"]
    assert len(text) == n * n and len(whites) >= white and len(blacks) >= black
    covered = 0
    for square in whites:
        covered |= _attacks(n, square)
    assert all(not covered >> square & 1 for square in blacks)


def _most_black(n: int) -> list[int]:
    """By brute force over every white army: the most black queens beside at least w
    white, for each w (black queens fill every square no white one sees)."""
    lines = [_attacks(n, square) for square in range(n * n)]
    room = [-1] * (n * n + 1)
    for army in range(1 << (n * n)):
        covered = 0
        for square in range(n * n):
            if army >> square & 1:
                covered |= lines[square]
        size = army.bit_count()
        room[size] = max(room[size], n * n - covered.bit_count())
    return [max(room[w:]) for w in range(n * n + 1)]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_search_agrees_with_brute_force_for_every_white_army(program: Path, n: int) -> None:
    for white, most in enumerate(_most_black(n)):
        found = _placement(program, n, white, most)
        assert found is not None, (white, most)
        _checked(n, found, white, most)
        assert _placement(program, n, white, most + 1) is None, (white, most)


@pytest.mark.parametrize("n", range(3, 12))
def test_the_search_reproduces_the_largest_army_beside_the_optimum(program: Path, n: int) -> None:
    """A308632: a(n) white leave room for exactly this many black (n = 11 once caught a
    sort that let a line with no room stop others passing it)."""
    white, most = known("A250000", n), known("A308632", n)
    assert white is not None and most is not None
    found = _placement(program, n, white, most)
    assert found is not None
    _checked(n, found, white, most)
    assert _placement(program, n, white, most + 1) is None


@pytest.mark.parametrize("n", range(1, 12))
def test_the_search_reproduces_peaceable_queens(program: Path, n: int) -> None:
    """A250000 (equal armies: the colour swap joins the symmetries)."""
    m = known("A250000", n)
    assert m is not None
    found = _placement(program, n, m, m)
    assert found is not None
    _checked(n, found, m, m)
    assert _placement(program, n, m + 1, m + 1) is None


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["0", "1", "1"], ""),
        (["33", "1", "1"], ""),
        (["4", "-1", "1"], ""),
        (["4", "1", "x"], ""),
        (["4", "1"], ""),
        (["4", "1", "1"], "012\n"),
        (["4", "1", "1"], "101010101\n"),
        (["4", "1", "1"], "\n"),
        (["4", "1", "1", "counts"], "1\n"),
    ],
    ids=[
        "side 0",
        "side 33",
        "negative",
        "not a number",
        "too few",
        "not a word",
        "too long",
        "empty",
        "not count",
    ],
)
def test_the_search_refuses_bad_input(program: Path, arguments: list[str], words: str) -> None:
    run = subprocess.run(
        [str(program), *arguments], input=words, capture_output=True, text=True, timeout=30
    )
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1, run.stderr


def test_a_count_past_64_bits_is_refused_not_wrapped(program: Path) -> None:
    """C(64, 32) still fits (it once overflowed inside the binomial); C(81, 40) does
    not: the search says so on one line and exits 3."""
    assert _count(program, 8, 0, 32) == math.comb(64, 32)
    run = subprocess.run(
        [str(program), "9", "0", "40", "count"], input="0\n", capture_output=True, text=True
    )
    assert run.returncode == 3 and run.stdout == "" and "2^64" in run.stderr


def _script(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *SCRIPT, *arguments], capture_output=True, text=True, timeout=300
    )


def test_the_script_confirms_resumes_and_refutes(tmp_path: Path) -> None:
    journal = tmp_path / "chunks.jsonl"
    claim = ["-n", "8", "--white", "9", "--optimum", "10", "--chunk-lines", "6"]
    confirmed = _script(*claim, "--workers", "2", "--journal", str(journal))
    assert confirmed.returncode == 0, confirmed.stderr
    assert "confirmed: board 8×8, no 9 white with 11 black: 64 chunks refuted" in confirmed.stdout
    lines = journal.read_text().splitlines()
    assert len(lines) == 65 and json.loads(lines[0])["header"]["black"] == 11
    # a record edited by hand is not trusted: searched again, the claim still holds
    lines[5] = lines[5].replace('"nodes": ', '"nodes": 1')
    journal.write_text("\n".join(lines) + "\n")
    again = _script(*claim, "--journal", str(journal))
    assert again.returncode == 0 and "63 refuted before" in again.stdout
    assert "searched again" in again.stderr
    # one black fewer is possible: the placement is printed and checked
    beyond = _script(*claim[:-3], "9", "--journal", str(tmp_path / "other.jsonl"))
    assert beyond.returncode == 1 and "holds (9, 10); broken: ()" in beyond.stdout
    # the journal of another claim is refused
    other = _script(*claim[:-3], "9", "--journal", str(journal))
    assert other.returncode == 2 and "different search cross-check" in other.stderr


def test_the_script_checks_equal_armies(tmp_path: Path) -> None:
    confirmed = _script("-n", "9", "--optimum", "12", "--journal", str(tmp_path / "j.jsonl"))
    assert confirmed.returncode == 0 and "no 13 each" in confirmed.stdout, confirmed.stdout


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-n", "0", "--optimum", "1"], "-n is 1 to 32"),
        (["-n", "33", "--optimum", "1"], "-n is 1 to 32"),
        (["-n", "5", "--optimum", "-1"], "--optimum is 0 to 24"),
        (["-n", "5", "--optimum", "25"], "--optimum is 0 to 24"),
        (["-n", "5", "--optimum", "4", "--white", "-2"], "--white is 0 to 25"),
        (["-n", "5", "--optimum", "4", "--chunk-lines", "0"], "--chunk-lines is 1 to 10"),
        (["-n", "13", "--optimum", "4", "--chunk-lines", "21"], "--chunk-lines is 1 to 20"),
        (["-n", "5", "--optimum", "4", "--workers", "0"], "--workers is at least 1"),
        (["-n", "5", "--optimum", "4", "--shuffle", "-1"], "--shuffle is a seed"),
    ],
)
def test_the_script_refuses_bad_options(
    tmp_path: Path, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run in this process (a child Python takes most of a second to start, nine
    times); the script run whole refuses a bad option the same way, below."""
    journal = tmp_path / "j.jsonl"
    try:
        code = crosscheck_main([*options, "--journal", str(journal)])
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code  # type: ignore[assignment]
    _, err = capsys.readouterr()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith(f"crosscheck-search: {message}")
    assert not journal.exists()


def test_the_script_run_whole_refuses_a_bad_option(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    refused = _script("-n", "0", "--optimum", "1", "--journal", str(journal))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert refused.stderr.startswith("crosscheck-search: -n is 1 to 32")
    assert not journal.exists()


@pytest.mark.parametrize(
    ("order", "least"),
    [([], 4), (["--shuffle", "1282"], LEAST_SAMPLE + 1)],
    ids=["natural", "shuffled"],
)
def test_sigterm_stops_the_script_and_its_searches(
    tmp_path: Path, order: list[str], least: int
) -> None:
    """One line, exit 3, the refuted chunks kept, and no C search left running; a
    shuffled run projects the whole from the chunks it finished (once it has
    :data:`LEAST_SAMPLE`).

    Of the claim's 46 CPU-s (its 64 chunks measured at a84a81c), the first 4 chunks in
    natural order take 2.9 and the next 4 take 12; seed 1282 draws cheap chunks first
    (its first 31 take 5.2 CPU-s, seed 7's took 22). Over 40 CPU-s are left after them
    either way, so the stop still comes while the searches run."""
    journal = tmp_path / "chunks.jsonl"
    claim = ["-n", "14", "--white", "28", "--optimum", "29", "--chunk-lines", "6", *order]
    child = subprocess.Popen(
        [sys.executable, *SCRIPT, *claim, "--workers", "2", "--journal", str(journal)],
        stdout=subprocess.PIPE,
        text=True,
    )
    wait_until(
        lambda: journal.exists() and len(journal.read_text().splitlines()) > least,
        what=f"{least} chunks in the journal",
        timeout=WORK_PATIENCE,
        alive=child,
    )
    searches = running("line_search", among=children(child.pid))  # no other run's
    child.send_signal(signal.SIGTERM)
    out, _ = child.communicate(timeout=30)
    assert child.returncode == 3 and out.splitlines()[-1].startswith("stopped:"), out
    kept = len(journal.read_text().splitlines()) - 1
    assert least <= kept < 64 and f"refuted {kept} of 64 chunks in" in out
    assert ("the whole projected at" in out) == bool(order), out
    assert searches and not any(map(alive, searches))


def test_a_stop_inside_take_lets_it_finish_its_answer(capsys: pytest.CaptureFixture[str]) -> None:
    """SIGTERM while an answer is being taken (journalled) stops the run only after it is
    taken, so the line that says what is kept counts it (the race CI once lost)."""
    from chessplace.research.c_search import STOPPED, Answer, search_chunks

    taken: list[str] = []
    searches: list[int] = []

    def take(answer: Answer) -> None:
        searches.extend(running("line_search", among=children(os.getpid())))
        os.kill(os.getpid(), signal.SIGTERM)
        taken.append(answer.word)

    stops = (signal.SIGINT, signal.SIGTERM)  # ignored after a stop: both put back below
    before = {sig: signal.getsignal(sig) for sig in stops}
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # as the research commands set it
    try:
        status = search_chunks(["6", "5", "5"], ["00", "01", "10", "11"], 1, take, lambda: "")
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    assert status == STOPPED and len(taken) == 1, taken
    assert capsys.readouterr().out == "stopped: \n"
    assert searches and not any(map(alive, searches))


def _counts_by_brute_force(n: int) -> dict[tuple[int, int], int]:
    """Placements of exactly w white and b black, for every w and b: each white army
    leaves its unseen squares to any b black queens."""
    lines = [_attacks(n, square) for square in range(n * n)]
    counts: dict[tuple[int, int], int] = {}
    for army in range(1 << (n * n)):
        covered = 0
        for square in range(n * n):
            if army >> square & 1:
                covered |= lines[square]
        room = n * n - covered.bit_count()
        for black in range(room + 1):
            key = (army.bit_count(), black)
            counts[key] = counts.get(key, 0) + math.comb(room, black)
    return counts


def _count(program: Path, n: int, white: int, black: int) -> int:
    answers = _answers(program, n, white, black, count=True)
    assert len(answers) == 2 and all(a.startswith("counted ") for a in answers)
    return sum(int(a.split()[2]) for a in answers)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_search_counts_as_brute_force_does(program: Path, n: int) -> None:
    """Every pair of army sizes, equal or not, including sizes with no placement."""
    counts = _counts_by_brute_force(n)
    for white in range(n * n + 1):
        for black in range(n * n + 1 - white):
            assert _count(program, n, white, black) == counts.get((white, black), 0), (
                white,
                black,
            )


def test_the_count_script_confirms_a_complete_list_only(tmp_path: Path) -> None:
    listing = json.loads((RESULTS / "a260680" / "n8.json").read_text())
    script = ["-m", "chessplace.research", "crosscheck-count"]

    def check(data: object, journal: str) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "classes.json"
        path.write_text(json.dumps(data))
        arguments = [*script, str(path), "--workers", "2", "--journal", str(tmp_path / journal)]
        return subprocess.run(
            [sys.executable, *arguments], capture_output=True, text=True, timeout=300
        )

    confirmed = check(listing, "j.jsonl")
    assert confirmed.returncode == 0, confirmed.stdout + confirmed.stderr
    assert "71 classes, 1,136 placements" in confirmed.stdout
    assert "confirmed: 1,136 placements, all in the listed classes" in confirmed.stdout
    again = check(listing, "j.jsonl")  # read back from the journal
    assert again.returncode == 0 and "4,096 counted before" in again.stdout
    short = {**listing, "classes": listing["classes"][1:]}
    missing = check(short, "j.jsonl")
    assert missing.returncode == 1
    assert "rejected: the search counts 1,136 placements, the classes hold" in missing.stdout
    twice = {**listing, "classes": [*listing["classes"], listing["classes"][3]]}
    assert "two listed placements are in one class" in check(twice, "k.jsonl").stdout
    broken = {**listing, "classes": [{"white": ["a1"], "black": ["a2"]}]}
    assert "breaks a rule" in check(broken, "k.jsonl").stdout
    for bad in ([], {"n": 8}, {"n": 8, "m": 9, "classes": [{"white": ["z99"]}]}):
        refused = check(bad, "k.jsonl")
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr


def test_a_shuffled_count_without_classes_finds_the_listed_total(tmp_path: Path) -> None:
    """-n and --each count without a list (a(8) = 9 each: 1,136 placements, as the listed
    classes hold); the shuffle changes the order, not the count, and its journal resumes
    only with its own seed."""
    script = [sys.executable, "-m", "chessplace.research", "crosscheck-count"]
    journal = str(tmp_path / "j.jsonl")
    claim = [*script, "-n", "8", "--each", "9", "--chunk-lines", "6", "--journal", journal]
    counted = subprocess.run([*claim, "--shuffle", "5"], capture_output=True, text=True)
    assert counted.returncode == 0, counted.stderr
    assert "counted: 1,136 placements, no classes to compare" in counted.stdout
    records = [json.loads(line) for line in Path(journal).read_text().splitlines()]
    assert records[0]["header"]["order"] == "shuffled, seed 5"
    assert [r["chunk"] for r in records[1:]] != sorted(
        (r["chunk"] for r in records[1:]), reverse=True
    )
    other = subprocess.run([*claim, "--shuffle", "6"], capture_output=True, text=True)
    assert other.returncode == 2 and 'order "shuffled, seed 5"' in other.stderr
    for bad, message in (
        (["-n", "8"], "give a classes file"),
        (["-n", "8", "--each", "33"], "--each is 0 to 32"),
    ):
        refused = subprocess.run(
            [*script, *bad, "--journal", journal], capture_output=True, text=True
        )
        assert refused.returncode == 2 and message in refused.stderr, refused.stderr
