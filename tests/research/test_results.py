"""The published results: every listed class verifies, counts agree, the cross-check works."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chessplace import Board, Shape, puzzles
from chessplace.core.board import parse_square
from chessplace.core.placement import Placement
from chessplace.data.reference import known
from chessplace.forms.jsonio import json_shape, placement_from_data
from tests.paths import ROOT
from tests.processes import alive, children, running
from tests.waiting import WORK_PATIENCE, wait_until

RESULTS = ROOT / "results"
RESEARCH = ["-m", "chessplace.research"]


def _records(sequence: str) -> list[Path]:
    """A sequence's term records (``nN.json``), by n."""
    found = [p for p in (RESULTS / sequence).glob("n*.json") if re.fullmatch(r"n\d+", p.stem)]
    return sorted(found, key=lambda p: int(p.stem[1:]))


CLASS_FILES = _records("a260680")
TERM_FILES = [path for sequence in ("a250000", "a279405", "a308632") for path in _records(sequence)]


def _placements(data: dict) -> list[Placement]:  # type: ignore[type-arg]
    problem = puzzles.peaceable_queens(Board.square(data["n"])).with_counts(exactly=data["m"])
    return [
        Placement.from_squares(
            problem, [[parse_square(s) for s in entry[army]] for army in ("white", "black")]
        )
        for entry in data["classes"]
    ]


@pytest.mark.parametrize("path", CLASS_FILES, ids=[p.stem for p in CLASS_FILES])
def test_every_published_class_verifies(path: Path) -> None:
    data = json.loads(path.read_text())
    n = data["n"]
    assert data["m"] == known("A250000", n)
    assert data["classes_count"] == len(data["classes"])
    if known("A260680", n) is not None:
        assert data["classes_count"] == known("A260680", n)
    for placement in _placements(data):
        assert placement.verify() == ()
        assert placement.army_sizes == (data["m"], data["m"])


def _run(*arguments: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def six_by_six_optima(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The optimal 6×6 classes listed by the optima command, once for the module."""
    listing = tmp_path_factory.mktemp("optima") / "n6.json"
    assert _run(*RESEARCH, "optima", "6", "-o", str(listing)).returncode == 0
    return listing


RECORDS = CLASS_FILES + TERM_FILES


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}-{p.stem}" for p in RECORDS])
def test_every_record_names_the_revision_that_produced_it(path: Path) -> None:
    revision = json.loads(path.read_text())["revision"]
    if "commit" in revision:
        assert re.fullmatch("[0-9a-f]{40}", revision["commit"]) and revision["source"]
    else:
        assert revision["version"] and revision["source"]


def test_a_new_record_carries_the_current_revision(six_by_six_optima: Path) -> None:
    from chessplace.research import revision

    assert json.loads(six_by_six_optima.read_text())["revision"] == revision.current()


def test_outside_a_checkout_the_revision_is_the_package_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chessplace.research import revision

    monkeypatch.setattr(revision, "PACKAGE", tmp_path)
    assert revision.current()["source"] == "the package version (not a git checkout)"


@pytest.mark.parametrize(
    "cubes", [["--cube-lines", "2"], ["--tree-depth", "4"]], ids=["lines", "tree"]
)
def test_the_cross_check_confirms_a_complete_list_and_refutes_a_short_one(
    six_by_six_optima: Path, tmp_path: Path, cubes: list[str]
) -> None:
    listing = Path(shutil.copy(six_by_six_optima, tmp_path / "n6.json"))
    journal = ["--journal", str(tmp_path / "cubes.jsonl")]
    confirmed = _run(*RESEARCH, "crosscheck-optima", str(listing), *cubes, *journal)
    assert confirmed.returncode == 0 and "confirmed:" in confirmed.stdout, confirmed.stdout
    cubes_count = int(confirmed.stdout.split(" cubes,")[0].rsplit(" ", 1)[1].replace(",", ""))
    again = _run(*RESEARCH, "crosscheck-optima", str(listing), *cubes, *journal)
    assert f"{cubes_count:,} refuted before" in again.stdout and again.returncode == 0
    data = json.loads(listing.read_text())
    data["classes"] = data["classes"][1:]
    listing.write_text(json.dumps(data))
    refuted = _run(*RESEARCH, "crosscheck-optima", str(listing), *cubes)
    assert refuted.returncode == 1 and "REFUTED" in refuted.stdout, refuted.stdout
    other = _run(*RESEARCH, "crosscheck-optima", str(listing), *cubes, *journal)
    assert other.returncode == 2 and "crosscheck-optima:" in other.stderr  # another formula


def test_the_count_cross_check_splits_hard_cubes_along_the_tree(
    six_by_six_optima: Path, tmp_path: Path
) -> None:
    """Every cube of 6×6's tree at 4 labels past one conflict is split deeper: the
    pieces confirm the complete list, a resumed run splits the marked cubes at once,
    and with one class left out a piece still holds the missing placement."""
    listing = Path(shutil.copy(six_by_six_optima, tmp_path / "n6.json"))
    script = [*RESEARCH, "crosscheck-optima"]
    journal = tmp_path / "split.jsonl"
    split = ["--tree-depth", "4", "--split-conflicts", "1", "--workers", "2"]
    confirmed = _run(*script, str(listing), *split, "--journal", str(journal))
    assert confirmed.returncode == 0 and "confirmed:" in confirmed.stdout, confirmed.stdout
    assert "split deeper" in confirmed.stdout
    records = [json.loads(line)["cube"] for line in journal.read_text().splitlines()[1:]]
    keys = [key for key in records if not key.endswith("+")]  # "+": over budget, split
    assert max(map(len, keys)) > 4 and len(keys) < len(records)
    again = _run(*script, str(listing), *split, "--journal", str(journal))
    assert again.returncode == 0 and "split deeper" not in again.stdout, again.stdout
    assert f"{len(keys):,} cubes, slowest" in again.stdout, again.stdout
    assert f"{len(keys):,} refuted before at any depth, 100.00%" in again.stdout
    data = json.loads(listing.read_text())
    data["classes"] = data["classes"][1:]
    listing.write_text(json.dumps(data))
    refuted = _run(*script, str(listing), *split, "--split-pending")
    assert refuted.returncode == 1 and "REFUTED" in refuted.stdout, refuted.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--tree-depth", "0"], "--tree-depth is 1 to 12"),
        (["--tree-depth", "13"], "--tree-depth is 1 to 12"),
        (["--split-conflicts", "10"], "give --tree-depth"),
        (["--split-pending"], "give --tree-depth"),
        (["--tree-depth", "4", "--split-conflicts", "0"], "positive number"),
        (["--tree-depth", "4", "--split-conflicts", "-5"], "positive number"),
        (["--tree-depth", "4", "--split-conflicts", str(2**32)], "positive number"),
        (["--workers", "0"], "--workers is at least 1"),
        (["--cube-lines", "0"], "--cube-lines is 1 to 20"),
        (["--cube-lines", "-3"], "--cube-lines is 1 to 20"),
        (["--cube-lines", "76"], "--cube-lines is 1 to 20"),
    ],
)
def test_the_count_cross_check_refuses_bad_options(
    six_by_six_optima: Path,
    tmp_path: Path,
    extra: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Run in this process (a child Python takes most of a second to start, 11 times);
    the command run whole refuses a bad option the same way, below."""
    from chessplace.research.crosscheck_optima import main

    journal = tmp_path / "j.jsonl"
    capsys.readouterr()
    try:
        code: object = main([str(six_by_six_optima), "--journal", str(journal), *extra])
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2 and message in err, err
    assert not journal.exists()


def test_the_count_cross_check_run_whole_refuses_a_bad_option(
    six_by_six_optima: Path, tmp_path: Path
) -> None:
    journal = tmp_path / "j.jsonl"
    refused = _run(
        *RESEARCH,
        "crosscheck-optima",
        str(six_by_six_optima),
        "--journal",
        str(journal),
        "--tree-depth",
        "0",
    )
    assert refused.returncode == 2 and "--tree-depth is 1 to 12" in refused.stderr, refused.stderr
    assert not journal.exists()


def test_the_refuted_share_counts_a_cube_inside_another_once() -> None:
    from chessplace.research.cube_solving import refuted_share

    assert refuted_share([]) == 0.0
    assert refuted_share(["1", "01", "00"]) == 1.0
    assert refuted_share(["1", "10", "011"]) == 0.625  # "10" lies inside "1"
    assert refuted_share(["0110", "0111", "10"]) == 0.375


def _partition(cubes: list[tuple[int, ...]], order: list[int]) -> bool:
    """Whether label cubes on the lines of ``order`` cover every labelling exactly once,
    as crosscheck_optima checks them (words_of, then covers)."""
    from chessplace.research.crosscheck_optima import words_of
    from chessplace.research.cube_solving import covers

    words = words_of(cubes, order)
    return words is not None and covers(words)


def test_the_tree_cubes_are_checked_to_partition_the_labellings() -> None:
    order = [1, 2, 3, 4, 5, 6]  # three lines: (army 0, army 1) label variables each
    assert _partition([(1,), (2, 3), (2, 4)], order)
    assert not _partition([(1,), (2, 3)], order)  # labellings starting 0 0 left out
    assert not _partition([(1,), (1, 3), (2,)], order)  # 1 1 covered twice
    assert not _partition([(1,), (2, 5)], order)  # a variable of the wrong line
    assert _partition([()], order) and not _partition([], order)


@pytest.mark.parametrize(
    ("options", "optimum"),
    [(["-n", "7"], 7), (["-n", "6", "--torus"], 4), (["-n", "7", "--white", "7"], 7)],
    ids=["a250000", "a279405", "a308632"],
)
def test_the_bound_cross_check_confirms_an_optimum_and_refutes_one_too_low(
    tmp_path: Path, options: list[str], optimum: int
) -> None:
    script = [*RESEARCH, "crosscheck-bound"]
    journal = tmp_path / "cubes.jsonl"
    claim = [*options, "--cube-lines", "3", "--journal", str(journal)]
    confirmed = _run(*script, *claim, "--optimum", str(optimum))
    assert confirmed.returncode == 0 and "confirmed:" in confirmed.stdout, confirmed.stdout
    again = _run(*script, *claim, "--optimum", str(optimum))  # every cube read back
    assert again.returncode == 0 and "8 refuted before" in again.stdout, again.stdout
    assert "100.00% of the colourings" in again.stdout
    low = _run(
        *script, *options, "--journal", str(tmp_path / "low.jsonl"), "--optimum", str(optimum - 1)
    )
    assert low.returncode == 1 and "REFUTED" in low.stdout and "broken: ()" in low.stdout


@pytest.mark.parametrize(
    ("options", "optimum", "depth"),
    [(["-n", "8"], 9, 8), (["-n", "7", "--torus"], 4, 6), (["-n", "8", "--white", "9"], 10, 8)],
    ids=["a250000", "a279405", "a308632"],
)
def test_the_bound_cross_check_cuts_along_the_engine_tree(
    tmp_path: Path, options: list[str], optimum: int, depth: int
) -> None:
    """Cubes from the line engine's tree are all refuted, read back on a second run,
    and hold a placement when the claim is one too low."""
    script = [*RESEARCH, "crosscheck-bound"]
    claim = [*options, "--tree-depth", str(depth), "--journal", str(tmp_path / "tree.jsonl")]
    confirmed = _run(*script, *claim, "--optimum", str(optimum))
    assert confirmed.returncode == 0 and "confirmed:" in confirmed.stdout, confirmed.stdout
    cubes = int(confirmed.stdout.split(" cubes,")[0].rsplit(" ", 1)[1].replace(",", ""))
    again = _run(*script, *claim, "--optimum", str(optimum))
    assert again.returncode == 0 and f"{cubes:,} refuted before" in again.stdout, again.stdout
    assert "100.00% of the colourings" in again.stdout
    low = [*options, "--tree-depth", str(depth), "--journal", str(tmp_path / "low.jsonl")]
    refuted = _run(*script, *low, "--optimum", str(optimum - 1))
    assert refuted.returncode == 1 and "broken: ()" in refuted.stdout, refuted.stdout


def test_a_cube_over_its_conflict_budget_is_split_deeper_along_the_tree(tmp_path: Path) -> None:
    """With a budget of 50 conflicts, hard cubes of a(8)'s tree at 4 labels are split
    (4 labels deeper each time, down to all 16 ranks and files); every piece is refuted,
    the refuted pieces are read back whole, and they still cover every colouring."""
    script = [*RESEARCH, "crosscheck-bound"]
    journal = tmp_path / "split.jsonl"
    claim = ["-n", "8", "--optimum", "9", "--tree-depth", "4", "--split-conflicts", "50"]
    confirmed = _run(*script, *claim, "--journal", str(journal), "--workers", "2")
    assert confirmed.returncode == 0 and "confirmed:" in confirmed.stdout, confirmed.stdout
    assert "split deeper" in confirmed.stdout
    records = [json.loads(line)["cube"] for line in journal.read_text().splitlines()[1:]]
    keys = [key for key in records if not key.endswith("+")]  # "+": over budget, split
    assert max(map(len, keys)) > 4 and len(keys) < len(records)
    again = _run(*script, *claim, "--journal", str(journal))
    assert again.returncode == 0 and "split deeper" not in again.stdout, again.stdout
    assert f"confirmed: board 8×8, no 10 each: {len(keys):,} cubes" in again.stdout


def test_pending_cubes_are_split_at_once(tmp_path: Path) -> None:
    """``--split-pending`` on a journal that holds part of a(8)'s cut at 4 labels: the
    refuted cubes are read back, every other one is split untried and marked so (along
    the tree, or on the next lines where the engine cut it), the deeper pieces with the
    old ones cover every colouring, and a run without the option splits them again."""
    script = [*RESEARCH, "crosscheck-bound"]
    journal = tmp_path / "pending.jsonl"
    claim = ["-n", "8", "--optimum", "9", "--tree-depth", "4", "--journal", str(journal)]
    assert _run(*script, *claim).returncode == 0
    lines = journal.read_text().splitlines(keepends=True)
    kept = [line for line in lines[1:] if len(json.loads(line)["cube"]) < 4]
    journal.write_text("".join([lines[0], *kept]))  # the cubes the engine cut, only
    split = _run(*script, *claim, "--split-pending")
    assert split.returncode == 0 and "confirmed:" in split.stdout, split.stdout
    records = [json.loads(line)["cube"] for line in journal.read_text().splitlines()[1:]]
    new = [key for key in records[len(kept) :] if not key.endswith("+")]
    marked = [key[:-1] for key in records[len(kept) :] if key.endswith("+")]
    first = [word for word in marked if len(word) == 4]  # the pending words, split
    assert first and all(len(word) > 4 for word in new), new
    assert all(any(word.startswith(piece) for piece in first) for word in new), new
    again = _run(*script, *claim)  # without --split-pending: the marked cubes split again
    assert again.returncode == 0 and "confirmed:" in again.stdout, again.stdout
    assert journal.read_text().count("\n") == len(records) + 1  # nothing solved anew


def test_a_cube_the_engine_cut_is_split_on_the_next_lines(tmp_path: Path) -> None:
    """A word marked over its budget by an earlier run that the engine's tree cut short
    (no deeper leaves) is split into every labelling of the next lines, and the
    pending cubes at the deepest cut are split once, not their pieces again."""
    from chessplace.research.cube_solving import refuted_schema
    from chessplace.runtime.journal import Journal, recorded_header

    script = [*RESEARCH, "crosscheck-bound"]
    first = tmp_path / "first.jsonl"
    claim = ["-n", "4", "--optimum", "2", "--tree-depth", "4"]
    assert _run(*script, *claim, "--journal", str(first)).returncode == 0
    header = recorded_header(first)
    assert header is not None
    marked = tmp_path / "marked.jsonl"
    journal = Journal(marked, header, refuted_schema(lambda key: True))
    journal.record("1+", 0.0)  # "1": a cube the engine cut at one label
    journal.close()
    resumed = _run(*script, *claim, "--journal", str(marked), timeout=120)
    assert resumed.returncode == 0 and "confirmed:" in resumed.stdout, resumed.stdout
    keys = [json.loads(line)["cube"] for line in marked.read_text().splitlines()[1:]]
    assert sorted(key for key in keys if key.startswith("1"))[1:] == [
        "1" + "".join(bits) for bits in itertools.product("01", repeat=4)
    ], keys
    deepest = ["-n", "4", "--optimum", "2", "--tree-depth", "8"]
    plain = tmp_path / "deepest.jsonl"
    assert _run(*script, *deepest, "--journal", str(plain), timeout=120).returncode == 0
    leaves = {json.loads(line)["cube"] for line in plain.read_text().splitlines()[1:]}
    pending = tmp_path / "pending.jsonl"
    once = _run(*script, *deepest, "--split-pending", "--journal", str(pending), timeout=120)
    assert once.returncode == 0 and "confirmed:" in once.stdout, once.stdout
    keys = [json.loads(line)["cube"] for line in pending.read_text().splitlines()[1:]]
    marked = {key[:-1] for key in keys if key.endswith("+")}
    assert marked and marked <= leaves  # the engine's leaves, split once, not their pieces


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--tree-depth", "0"], "--tree-depth is 1 to 14"),
        (["--tree-depth", "15"], "--tree-depth is 1 to 14"),
        (["--tree-depth", "4", "--refine", "x.jsonl"], "not along the tree"),
        (["--split-conflicts", "10"], "give --tree-depth"),
        (["--split-pending"], "give --tree-depth"),
        (["--tree-depth", "4", "--split-conflicts", "0"], "positive number"),
        (["--tree-depth", "4", "--split-conflicts", "-5"], "positive number"),
        (["--cube-lines", "0"], "--cube-lines is 1 to 20"),
        (["--cube-lines", "999"], "--cube-lines is 1 to 20"),
        (["--workers", "-1"], "--workers is at least 1"),
    ],
)
def test_a_bad_tree_depth_is_refused(tmp_path: Path, extra: list[str], message: str) -> None:
    script = [*RESEARCH, "crosscheck-bound"]
    journal = str(tmp_path / "j.jsonl")
    refused = _run(*script, "-n", "7", "--optimum", "7", "--journal", journal, *extra)
    assert refused.returncode == 2 and message in refused.stderr, refused.stderr
    assert not (tmp_path / "j.jsonl").exists()


@pytest.mark.parametrize("path", TERM_FILES, ids=[f"{p.parent.name}-{p.stem}" for p in TERM_FILES])
def test_every_published_term_has_a_witness_that_verifies(path: Path) -> None:
    record = json.loads(path.read_text())
    answer = record["answer"]
    sequence, n = path.parent.name.upper(), int(path.stem[1:])
    assert answer["rows"] == answer["cols"] == n
    shape = Shape.TORUS if sequence == "A279405" else Shape.PLANE
    assert json_shape(answer) == shape
    white = known("A250000", n) if sequence == "A308632" else None
    problem = puzzles.peaceable_queens(Board.square(n, shape), white=white)
    placement = placement_from_data(problem, answer)
    assert placement.verify() == ()
    assert record["status"] == answer["status"] == "optimal"
    assert record["verify"].startswith("valid")
    value = record["value"]
    if sequence == "A308632":  # the black army beside a(n) white queens
        assert placement.army_sizes == (white, value)
    else:
        assert placement.army_sizes == (value, value)
    if known(sequence, n) is not None:
        assert value == known(sequence, n)


def test_a_coarse_cross_check_is_refined_where_it_stopped(tmp_path: Path) -> None:
    """The cubes refuted at 2 lines cover 4 each at 4 lines; one left out is solved
    as its 4 finer cubes. A journal of another formula is refused (exit 2)."""
    script = [*RESEARCH, "crosscheck-bound"]
    coarse, partial, fine = (tmp_path / name for name in ("c2.jsonl", "c2p.jsonl", "c4.jsonl"))
    claim = ["-n", "7", "--optimum", "7"]
    assert _run(*script, *claim, "--cube-lines", "2", "--journal", str(coarse)).returncode == 0
    partial.write_text("".join(coarse.read_text().splitlines(keepends=True)[:-1]))
    refined = _run(
        *script, *claim, "--cube-lines", "4", "--journal", str(fine), "--refine", str(partial)
    )
    assert refined.returncode == 0 and "12 refuted before" in refined.stdout, refined.stdout
    assert "confirmed:" in refined.stdout and len(fine.read_text().splitlines()) == 1 + 4
    other = _run(
        *script,
        "-n",
        "7",
        "--optimum",
        "6",
        "--cube-lines",
        "4",
        "--journal",
        str(tmp_path / "o.jsonl"),
        "--refine",
        str(coarse),
    )
    assert other.returncode == 2 and "same formula" in other.stderr


@pytest.mark.parametrize("burst", [1, 12], ids=["one", "burst"])
def test_sigterm_stops_the_bound_cross_check_like_ctrl_c(tmp_path: Path, burst: int) -> None:
    """One line, exit 3, the refuted cubes kept, and no worker left behind; also when
    stops come in a burst (SIGTERM and Ctrl-C by turns), whose last ones arrive while
    the check ends (once they turned exit 3 into death by SIGINT)."""
    journal = tmp_path / "cubes.jsonl"
    arguments = ["-n", "10", "--optimum", "14", "--cube-lines", "6", "--workers", "2"]
    child = subprocess.Popen(
        [
            sys.executable,
            *RESEARCH,
            "crosscheck-bound",
            *arguments,
            "--journal",
            str(journal),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    wait_until(
        lambda: journal.exists() and len(journal.read_text().splitlines()) >= 3,
        what="two cubes in the journal",
        timeout=WORK_PATIENCE,
        alive=child,
    )
    for k in range(burst):
        child.send_signal(signal.SIGINT if k % 2 else signal.SIGTERM)
        time.sleep(0.02)  # the burst under test: signals a moment apart, not all at once
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 3 and out.splitlines()[-1].startswith("stopped:"), out
    kept = len(journal.read_text().splitlines()) - 1
    assert kept >= 2 and f"{kept}/64 cubes refuted" in out
    assert running(str(journal)) == []


STOPPED_WHILE = {
    "workers start": """
real = cube_solving.become_child
def slow(parent):  # a worker slow to start, as on a busy machine
    time.sleep(0.5)
    real(parent)
cube_solving.become_child = slow
threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGTERM)).start()
for _ in cube_solving.solved([[1, 2]], [(1,), (2,)] * 50, 2):
    time.sleep(0.05)  # a caller that takes its time over each answer
""",
    "the pool closes": """
real = multiprocessing.pool.Pool.__exit__
def closing(pool, *exc):  # the stop comes as the pool ends, with more batches to go
    os.kill(os.getpid(), signal.SIGTERM)
    return real(pool, *exc)
multiprocessing.pool.Pool.__exit__ = closing
for level in range(3):
    list(cube_solving.solved([[1, 2]], [(1,), (2,)], 2))
""",
}


@pytest.mark.parametrize("moment", STOPPED_WHILE)
def test_a_stop_is_neither_lost_nor_hung(moment: str) -> None:
    """A SIGTERM while the workers start, or while a batch's pool closes, still stops
    the cubes (both once went wrong: a worker with the parent's handler ignored the
    pool's end, and a stop between batches was forgotten)."""
    program = (
        "import multiprocessing.pool, os, signal, sys, threading, time\n"
        "from chessplace.research import cube_solving\n"
        "try:\n"
        + "".join(f"    {line}\n" for line in STOPPED_WHILE[moment].strip().splitlines())
        + "except KeyboardInterrupt:\n    sys.exit(3)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], timeout=60, check=False)
    assert run.returncode == 3


def test_a_caller_that_leaves_the_cubes_early_gets_its_stop_handlers_back() -> None:
    """A caller that has its answer and leaves the loop as a stop lands (the stop is
    then moot) can still be stopped afterwards: its own handler is back, not SIG_IGN."""
    program = (
        "import os, signal, sys, time\n"
        "from chessplace.research import cube_solving\n"
        "signal.signal(signal.SIGTERM, signal.default_int_handler)\n"
        "try:\n"
        "    results = cube_solving.solved([[1, 2]], [(1,), (2,)] * 50, 2)\n"
        "    for _ in results:\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        break\n"
        "    results.close()\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(30)  # the stop must land in here (else exit 4)\n"
        "    sys.exit(4)\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(3)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], timeout=60, check=False)
    assert run.returncode == 3


def test_the_cube_workers_die_with_their_parent() -> None:
    """A SIGKILL of the process that solves the cubes (no handler of its own runs)
    leaves none of its CaDiCaL workers behind."""
    program = (
        "import os, sys, time\n"
        "from chessplace.research import cube_solving\n"
        "def _solve(task):  # a cube that never ends\n"
        "    time.sleep(600)\n"
        "cube_solving._solve = _solve\n"
        "print(os.getpid(), flush=True)\n"
        "list(cube_solving.solved([[1, 2]], [(1,), (2,)], 2))\n"
    )
    solving = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True)
    assert solving.stdout is not None
    pid = int(solving.stdout.readline())

    def two_workers() -> list[int]:
        found = children(pid)
        return found if len(found) >= 2 else []

    workers = wait_until(two_workers, what="two cube workers", alive=solving)
    assert len(workers) == 2
    solving.kill()
    solving.wait(timeout=30)
    wait_until(lambda: not any(alive(w) for w in workers), what="the workers gone")


def test_the_published_certificate_cubes_partition_the_labellings() -> None:
    """The A308632(12) certificate's manifest (its proofs are not in the repository):
    its cubes are the line engine's tree for 22 black beside 21 white, cut at 12
    labels, and they cover every labelling of those lines exactly once."""
    from chessplace.certificates.checker.formula import lex_order
    from chessplace.certificates.writer.certificate import spec_of
    from chessplace.certificates.writer.cubes import tree_cubes
    from chessplace.runtime.control import Control

    manifest = json.loads((RESULTS / "a308632" / "n12-certificate.json").read_text())
    assert manifest["claim"] == {"kind": "optimum", "value": 21}
    cubes = [tuple(proof["cube"]) for proof in manifest["refutation"]["proofs"]]
    problem = puzzles.peaceable_queens(Board.square(12), white=21)
    spec = spec_of(problem)
    assert _partition(cubes, lex_order(spec))
    assert cubes == [tuple(cube) for cube in tree_cubes(problem, spec, 22, Control())]


def test_a_kept_solver_decides_every_cube_as_a_fresh_one() -> None:
    """The workers keep one CaDiCaL for all their cubes: on a claim one too low for
    8×8 (some cubes hold 9 each), each of the tree's cubes at 8 labels is satisfiable
    through the workers exactly when a fresh solver finds it so."""
    from pysat.solvers import Solver

    from chessplace.research.crosscheck_bound import beyond
    from chessplace.research.cube_solving import solved
    from chessplace.research.tree_cut import TreeCut

    cut = TreeCut(beyond(8, False, 8, None), 9, 8)
    clauses = cut.formula.clauses
    cubes = [cut.cube(word) for word in cut.leaves(8)]
    kept = {result.cube: result.model is not None for result in solved(clauses, cubes, 1)}
    fresh = {}
    for cube in cubes:
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            fresh[cube] = bool(solver.solve(assumptions=list(cube)))
    assert kept == fresh and 0 < sum(fresh.values()) < len(cubes)


def test_the_witness_beside_a_run_under_way_verifies() -> None:
    """A308632(19) is at least 53: the engine's placement of 53 black beside 52 white."""
    answer = json.loads((RESULTS / "a308632" / "n19-witness.json").read_text())
    problem = puzzles.peaceable_queens(Board.square(19), white=52)
    placement = placement_from_data(problem, answer)
    assert placement.verify() == () and placement.army_sizes == (52, answer["objective"]) == (
        52,
        53,
    )


PAWN_FILES = [
    path for sequence in ("a103330", "a103331", "a129552", "a129554") for path in _records(sequence)
]


@pytest.mark.parametrize("path", PAWN_FILES, ids=[f"{p.parent.name}-{p.stem}" for p in PAWN_FILES])
def test_every_pawn_count_record_is_complete_and_consistent(path: Path) -> None:
    """A count record of the n+k queens problem: complete, by the command its sequence
    names (n and the pawns), and its classes between an eighth of the placements
    (a class holds at most 8) and all of them."""
    record = json.loads(path.read_text())
    pawns = {"a103330": 1, "a103331": 1, "a129552": 2, "a129554": 3}[path.parent.name]
    n = int(path.stem[1:])
    assert record["status"] == record["answer"]["status"] == "complete"
    assert f"queens-and-pawns -n {n} --pawns {pawns} --unique" in record["command"]
    count, unique = record["count"], record["unique"]
    assert count == record["answer"]["count"] and unique == record["answer"]["unique"]
    assert count / 8 <= unique <= count
    assert "commit" in record["revision"]
