"""sample-proofs: a random sample of a claim's cubes refuted with checked DRUP proofs."""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from chessplace.certificates.checker.proofs import proof_fault
from chessplace.research.checked_proofs import Refuted, refute_and_check
from chessplace.research.crosscheck_optima import main as crosscheck_optima_main
from chessplace.research.cube_solving import formula_digest
from chessplace.research.sample_proofs import (
    MOST_LINES,
    MOST_SPLITS,
    bound_claim,
    cube_formula,
    cube_of,
)
from chessplace.research.sample_proofs import main as sample_proofs_main
from chessplace.research.sampling import SPLIT, SPLIT_LINES, done_so_far, shuffled

pytest.importorskip("pysat")
pytest.importorskip("dratify")

SCRIPT = [sys.executable, "-m", "chessplace.research", "sample-proofs"]
RESULTS = Path(__file__).resolve().parents[2] / "results"


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SCRIPT, *arguments], capture_output=True, text=True, timeout=600)


def _records(journal: Path) -> tuple[dict, list[dict]]:  # type: ignore[type-arg]
    lines = journal.read_text().splitlines()
    return json.loads(lines[0])["header"], [json.loads(line) for line in lines[1:]]


def test_every_cube_past_an_optimum_is_refuted_and_the_kept_proofs_check(tmp_path: Path) -> None:
    """A250000(6) = 5: all 16 cubes of "6 each" are refuted; each kept proof hashes to
    its record and dratify accepts it against the formula with its cube as units."""
    journal, proofs = tmp_path / "j.jsonl", tmp_path / "proofs"
    done = _run("-n", "6", "--optimum", "5", "--lines", "4", "--sample", "99", "--journal",
                str(journal), "--proofs", str(proofs))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "confirmed on the sample: 16 random cubes of 16 refuted" in done.stdout
    header, records = _records(journal)
    assert header["cubes"] == 16 and header["lines"] == 4 and header["beyond"] == 6
    assert sorted(r["cube"] for r in records) == sorted(f"{i:04b}" for i in range(16))
    kept = [r for r in records if r["kept"]]
    assert kept and all(r["steps"] > 0 for r in records)
    claim = bound_claim(6, 5, None)
    assert formula_digest(claim.clauses) == header["formula"]
    for record in kept:
        text = gzip.decompress((proofs / f"{record['cube']}.drup.gz").read_bytes())
        assert hashlib.sha256(text).hexdigest() == record["proof"]
        units = cube_formula(claim).with_units(cube_of(claim, record["cube"]))
        assert proof_fault(units, text.decode()) is None
        bare = cube_formula(claim).with_units([])  # the proof needs its cube's units
        assert proof_fault(bare, text.decode()) is not None
    again = _run("-n", "6", "--optimum", "5", "--lines", "4", "--sample", "99", "--journal",
                 str(journal))  # fmt: skip
    assert again.returncode == 0 and "16 of the 16 drawn proved and checked before" in again.stdout
    fresh = _run("-n", "6", "--optimum", "5", "--lines", "4", "--sample", "99", "--journal",
                 str(tmp_path / "fresh.jsonl"))  # fmt: skip
    assert fresh.returncode == 0  # proved again from scratch: the same proofs, hash for hash
    hashes = {r["cube"]: r["proof"] for r in records}
    assert {r["cube"]: r["proof"] for r in _records(tmp_path / "fresh.jsonl")[1]} == hashes


def test_a_claim_past_the_truth_is_refuted_with_a_placement(tmp_path: Path) -> None:
    """5 each fit on 6×6, so some cube of "5 each" is satisfiable: exit 1, and the
    placement printed has five of each army. The proofs of the cubes refuted by the
    other worker meanwhile are kept only with their records."""
    journal, proofs = tmp_path / "j.jsonl", tmp_path / "proofs"
    refuted = _run("-n", "6", "--optimum", "4", "--lines", "4", "--sample", "16", "--workers",
                   "2", "--journal", str(journal), "--proofs", str(proofs))  # fmt: skip
    assert refuted.returncode == 1, refuted.stdout + refuted.stderr
    line = next(x for x in refuted.stdout.splitlines() if x.startswith("REFUTED: cube"))
    white, black = (part.split(": ")[-1].split() for part in line.split("; "))
    assert len(white) >= 5 and len(black) >= 5 and not set(white) & set(black)
    kept = {r["cube"] for r in _records(journal)[1] if r["kept"]}
    assert {path.name.removesuffix(".drup.gz") for path in proofs.iterdir()} == kept


def test_the_child_sends_a_small_proof_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refuted cube's proof comes back gzipped when asked for (the parent writes
    it beside its record), hashing to the digest sent with it; not when not."""
    claim = bound_claim(5, 4, None)  # A250000(5) = 4: 5 each do not fit
    sent: list[object] = []

    class Sender:
        def send(self, answer: object) -> None:
            sent.append(answer)

    monkeypatch.chdir(tmp_path)
    for keep in (True, False):
        refute_and_check(Sender(), cube_formula(claim), claim.clauses, cube_of(claim, "10"), keep)
    kept, unkept = sent
    assert isinstance(kept, Refuted) and isinstance(unkept, Refuted)
    assert kept.fault is None and kept.unchecked is None and isinstance(kept.packed, bytes)
    assert hashlib.sha256(gzip.decompress(kept.packed)).hexdigest() == kept.proof
    assert len(gzip.decompress(kept.packed).splitlines()) == kept.steps
    assert unkept.proof == kept.proof and unkept.packed is None
    assert not list(tmp_path.iterdir())


def test_a_proof_that_cannot_be_kept_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """A proof whose file cannot be written stops the run with one line (exit 2), its
    cube not journaled, so that a rerun proves and keeps it."""
    journal, proofs = tmp_path / "j.jsonl", tmp_path / "proofs"
    for word in ("0", "1"):
        (proofs / f"{word}.drup.gz").mkdir(parents=True)  # a folder where the file goes
    blocked = _run("-n", "6", "--optimum", "5", "--lines", "1", "--sample", "2", "--journal",
                   str(journal), "--proofs", str(proofs))  # fmt: skip
    assert blocked.returncode == 2, blocked.stdout + blocked.stderr
    assert blocked.stderr.startswith("sample-proofs: cannot keep a proof: ")
    assert len(blocked.stderr.splitlines()) == 1 and not _records(journal)[1]


def test_listed_classes_are_refuted_and_a_missing_class_is_found(tmp_path: Path) -> None:
    """A260680(6) = 35 classes: all cubes of "another placement" are refuted; with one
    class left out of the list, a cube holds a placement of that class."""
    listing = RESULTS / "a260680" / "n6.json"
    done = _run("--classes", str(listing), "--lines", "3", "--sample", "8", "--journal",
                str(tmp_path / "j.jsonl"))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "outside the listed 35 classes" in done.stdout
    data = json.loads(listing.read_text())
    data["classes"] = data["classes"][1:]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(data))
    missing = _run("--classes", str(short), "--lines", "3", "--sample", "8", "--journal",
                   str(tmp_path / "k.jsonl"))  # fmt: skip
    assert missing.returncode == 1 and "REFUTED: cube" in missing.stdout
    data["classes"] = [data["classes"][0], data["classes"][0]]
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps(data))
    rejected = _run("--classes", str(twice), "--sample", "1", "--journal", str(tmp_path / "t"))
    assert rejected.returncode == 1 and "rejected: two listed placements" in rejected.stdout


def test_a_larger_sample_goes_on_with_the_same_draw(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    options = ["-n", "7", "--optimum", "7", "--lines", "6", "--journal", str(journal)]
    first = _run(*options, "--sample", "5")
    assert first.returncode == 0, first.stdout + first.stderr
    more = _run(*options, "--sample", "31")
    assert more.returncode == 0 and "5 of the 31 drawn proved and checked before" in more.stdout
    assert "the whole projected at" in more.stdout  # 31 cubes: enough to project
    words = ["".join(signs) for signs in itertools.product("10", repeat=6)]  # the cubes' order
    assert {r["cube"] for r in _records(journal)[1]} == set(shuffled(words, 1)[:31])
    other = _run(*options, "--sample", "31", "--seed", "2")
    assert other.returncode == 2 and "shuffled, seed 1" in other.stderr


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-n", "6", "--optimum", "5", "--lines", "0"], f"--lines is 1 to {MOST_LINES}"),
        (["-n", "6", "--optimum", "5", "--lines", "99"], f"--lines is 1 to {MOST_LINES}"),
        (["-n", "3", "--optimum", "1", "--lines", "20"], "more than the board's lines"),
        (["-n", "6", "--optimum", "5", "--sample", "-3"], "--sample is at least 1"),
        (["-n", "6", "--optimum", "5", "--seed", "-1"], "--seed is 0 to 2^32 - 1"),
        (["-n", "6", "--optimum", "5", "--workers", "0"], "--workers is 1 to 256"),
        (["-n", "6", "--optimum", "36"], "--optimum is 0 to 35"),
        (["-n", "6", "--optimum", "5", "--white", "-1"], "--white is 0 to 36"),
        (["-n", "99", "--optimum", "5"], "-n is 2 to 32"),
        (["-n", "6"], "-n needs --optimum"),
        (["--optimum", "5"], "give -n (with --optimum) or --classes, not both"),
        (["--classes", "/dev/null", "--optimum", "5"], "neither --optimum nor --white"),
        (["--classes", "/nonexistent/x.json"], "No such file"),
        (["--classes", "/dev/null"], "is not a file the optima command wrote"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    tmp_path: Path, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run in this process (a child Python takes most of a second to start, 14 times);
    the command run whole refuses a bad option the same way, below."""
    sample = [] if "--sample" in options else ["--sample", "2"]
    code, err = _in_process(
        capsys, sample_proofs_main, [*options, *sample, "--journal", str(tmp_path / "j.jsonl")]
    )
    assert code == 2, err
    assert err.startswith("sample-proofs: ") and message in err
    assert len(err.splitlines()) == 1 and not (tmp_path / "j.jsonl").exists()


def test_the_command_run_whole_refuses_a_bad_option(tmp_path: Path) -> None:
    refused = _run("-n", "99", "--optimum", "5", "--sample", "2", "--journal", str(tmp_path / "j"))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr.startswith("sample-proofs: ") and "-n is 2 to 32" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1 and not (tmp_path / "j").exists()


def _in_process(
    capsys: pytest.CaptureFixture[str], main: Callable[[list[str]], int], argv: list[str]
) -> tuple[object, str]:
    """A command's exit status and stderr, run in this process."""
    capsys.readouterr()
    try:
        code: object = main(argv)
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("listing", "message"),
    [
        ("[[[" * 100_000, "is not a file the optima command wrote"),  # nested too deep
        ('{"n": 1e400, "m": 1, "classes": []}', "n is not a whole number from 2 to 32"),
        ('{"n": 4.7, "m": 1, "classes": []}', "n is not a whole number from 2 to 32"),
        ('{"n": 1, "m": 0, "classes": []}', "n is not a whole number from 2 to 32"),
        ('{"n": 100000, "m": 1, "classes": []}', "n is not a whole number from 2 to 32"),
        ('{"n": 4, "m": -1, "classes": []}', "m is not a whole number from 0 to 16"),
        ('{"n": 4, "m": 1, "classes": {}}', "classes is not a list"),
        ('{"n": 4, "m": 1, "classes": [{"white": "a1", "black": "c2"}]}', "is not a list"),
        ('{"n": 4, "m": 1, "classes": [{"white": ["a1"], "black": ["1a"]}]}', "'1a'"),
    ],
)
@pytest.mark.parametrize("command", ["sample-proofs", "crosscheck-optima"])
def test_a_hostile_listing_is_one_line_and_exit_2(
    tmp_path: Path, listing: str, message: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Huge, fractional or wrongly typed figures in a classes file are refused before
    a board is built, for both commands that read one (no traceback, no hang). Run in
    this process (18 child Pythons took most of a second each to start); each command
    run whole refuses the deepest listing the same way, below."""
    path = tmp_path / "c.json"
    path.write_text(listing)
    journal = tmp_path / "j.jsonl"
    options = (
        ["--classes", str(path), "--sample", "1"] if command == "sample-proofs" else [str(path)]
    )
    main = sample_proofs_main if command == "sample-proofs" else crosscheck_optima_main
    code, err = _in_process(capsys, main, [*options, "--journal", str(journal)])
    assert code == 2, err
    assert err.startswith(f"{command}: ") and message in err
    assert len(err.splitlines()) == 1 and not journal.exists()


@pytest.mark.parametrize("command", ["sample-proofs", "crosscheck-optima"])
def test_a_hostile_listing_to_the_command_run_whole_is_one_line(
    tmp_path: Path, command: str
) -> None:
    path = tmp_path / "c.json"
    path.write_text("[[[" * 100_000)
    journal = tmp_path / "j.jsonl"
    script = [sys.executable, "-m", "chessplace.research", command]
    options = (
        ["--classes", str(path), "--sample", "1"] if command == "sample-proofs" else [str(path)]
    )
    refused = subprocess.run(
        [*script, *options, "--journal", str(journal)], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr.startswith(f"{command}: ")
    assert "is not a file the optima command wrote" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1 and not journal.exists()


@pytest.mark.parametrize("folder", [False, True], ids=["foreign", "folder"])
def test_a_foreign_journal_is_refused(tmp_path: Path, folder: bool) -> None:
    journal = tmp_path / "j.jsonl"
    if folder:
        journal.mkdir()
    else:
        journal.write_text('{"header": {"format": "something else"}}\n')
    refused = _run("-n", "6", "--optimum", "5", "--sample", "2", "--journal", str(journal))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr


@pytest.mark.parametrize("group", [False, True], ids=["process", "process-group"])
def test_sigterm_stops_it_and_a_rerun_resumes(tmp_path: Path, group: bool) -> None:
    """A stop while a cube is being proved ends the run at once (exit 3) and keeps the
    cubes refuted; sent to the whole group it kills the child too, still a stop."""
    journal = tmp_path / "j.jsonl"
    options = ["-n", "10", "--optimum", "14", "--lines", "2", "--journal", str(journal)]
    child = subprocess.Popen(
        [*SCRIPT, *options, "--sample", "4"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().startswith("refuting ")
    if group:
        os.killpg(child.pid, signal.SIGTERM)
    else:
        child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=30) == 3
    assert "stopped: " in child.stdout.read()
    kept = len(journal.read_text().splitlines()) - 1
    assert kept < 4
    if kept:  # the stop came after a cube was refuted: a rerun reads it back
        resumed = _run(*options, "--sample", str(kept))
        assert resumed.returncode == 0
        assert f"{kept} of the {kept} drawn proved and checked before" in resumed.stdout


def _run_with_memory_for(text_bytes: int, *arguments: str) -> subprocess.CompletedProcess[str]:
    """The command with memory to check only proofs of at most ``text_bytes`` bytes
    (the children, forked, see the same limit)."""
    program = (
        "import sys; from chessplace.research import checked_proofs, sample_proofs\n"
        f"checked_proofs.memory_fault = lambda size: 'is too large' if size > {text_bytes} "
        "else None\n"
        "sys.exit(sample_proofs.main(sys.argv[1:]))"
    )
    return subprocess.run(
        [sys.executable, "-c", program, *arguments], capture_output=True, text=True, timeout=600
    )


def test_a_cube_whose_proof_is_too_large_to_check_is_split(tmp_path: Path) -> None:
    """With room to check only small proofs, the hard cubes are split into the
    labellings of the next two lines, each refuted and checked; the cube's cost is
    its attempt's and its parts', and the sample still counts 16 cubes."""
    journal = tmp_path / "j.jsonl"
    options = ["-n", "6", "--optimum", "5", "--lines", "4", "--sample", "16"]
    done = _run_with_memory_for(60_000, *options, "--journal", str(journal))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "split 2 lines deeper" in done.stdout and "16 of 16 cubes" in done.stdout
    _, records = _records(journal)
    keys = {r["cube"] for r in records}
    split = {key[:-1] for key in keys if key.endswith("+")}
    assert split and all(len(word) in (4, 6, 8, 10, 12) for word in split)  # 4 + 2k
    for word in split:  # every part of a split cube refuted, or split in turn
        for ending in ("11", "10", "01", "00"):
            assert word + ending in keys or word + ending + "+" in keys
    from chessplace.research.records import figures

    folder = tmp_path
    shown = figures(folder, {"journal": journal.name, "sample": 16})
    assert shown.pieces == 16 and shown.complete
    resumed = _run_with_memory_for(60_000, *options, "--journal", str(journal))
    assert resumed.returncode == 0 and "16 of the 16 drawn proved" in resumed.stdout


def test_a_proof_too_large_to_check_at_any_depth_proves_nothing(tmp_path: Path) -> None:
    """A cube whose proofs are too large at every depth, split as often as allowed (14
    lines and MOST_SPLITS splits, short of 5×5's 24 lines): exit 4. One cube drawn
    suffices, 341 attempts with its parts (a sample of 3 made 1,023)."""
    journal = tmp_path / "j.jsonl"
    refused = _run_with_memory_for(0, "-n", "5", "--optimum", "4", "--lines", "14", "--sample",
                                   "1", "--journal", str(journal))  # fmt: skip
    assert refused.returncode == 4, refused.stdout + refused.stderr
    assert "not refuted: a proof is too large to check" in refused.stdout
    _, records = _records(journal)
    assert all(r["cube"].endswith(SPLIT) for r in records)
    depths = {len(r["cube"]) - 1 for r in records}
    assert depths == set(range(14, 14 + (MOST_SPLITS + 1) * SPLIT_LINES, SPLIT_LINES))
    assert len(records) == sum(2 ** (SPLIT_LINES * k) for k in range(MOST_SPLITS + 1))


def test_the_tables_figures_of_a_sample_are_the_runs_own(tmp_path: Path) -> None:
    """The checks table reads a sample's journal as the run reports it: its cubes, proof
    steps and projection of the whole, not complete while cubes are left."""
    from chessplace.research.records import figures

    journal = tmp_path / "j.jsonl"
    done = _run("-n", "6", "--optimum", "5", "--lines", "5", "--sample", "31", "--journal",
                str(journal))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    projected = done.stdout.splitlines()[-2]
    assert projected.startswith("31 of 32 cubes in ") and "projected at" in projected
    found = figures(tmp_path, {"journal": journal.name, "sample": 31})
    assert (found.pieces, found.unit, found.complete) == (31, "cube", False)
    assert found.steps == sum(r["steps"] for r in _records(journal)[1])
    assert found.sample == f"all 31 cubes drawn refuted; {projected}"
    unfinished = figures(tmp_path, {"journal": journal.name, "sample": 40})  # a draw cut short
    assert unfinished.sample is not None and "projected" not in unfinished.sample
    assert unfinished.sample.startswith("31 of the 40 cubes drawn refuted so far")
    first = figures(tmp_path, {"journal": journal.name, "sample": 30})  # cubes past the draw
    records = _records(journal)[1]
    draw = shuffled(["".join(c) for c in itertools.product("10", repeat=5)], 1)[:30]
    seconds = {r["cube"]: r["proving"] + r["checking"] for r in records}
    expected = done_so_far([seconds[word] for word in draw], 32, unit="cubes")
    assert first.pieces == 31 and first.sample == f"all 30 cubes drawn refuted; {expected}"
