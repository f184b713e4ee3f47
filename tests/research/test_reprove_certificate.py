"""The reprove-certificate command: every cube proved again and its proof checked at once."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from chessplace.certificates.checker.formula import (
    claim_bounds,
    refutation_comments,
    refutation_formula,
)
from chessplace.certificates.checker.spec import Spec
from chessplace.certificates.writer.symmetries import confirmed_symmetries
from chessplace.research.reprove_certificate import main as reprove_main

pytest.importorskip("pysat")
pytest.importorskip("dratify")

SCRIPT = ["-m", "chessplace.research", "reprove-certificate"]


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    """The manifest of a certificate of A308632(8) = 10 beside 9 white (12 cubes)."""
    directory = tmp_path_factory.mktemp("certificate")
    command = ["-m", "chessplace", "optimize", "peaceable-queens", "-n", "8", "--white", "9"]
    made = _run(*command, "--certificate", str(directory / "c"))
    assert made.returncode == 0, made.stderr
    data = json.loads((directory / "c" / "manifest.json").read_text())
    assert len(data["refutation"]["proofs"]) > 1
    return data  # type: ignore[no-any-return]


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, timeout=600, check=False
    )


def _reprove(
    tmp_path: Path, data: object, journal: str = "j.jsonl"
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "manifest.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return _run(*SCRIPT, str(path), "--workers", "2", "--journal", str(tmp_path / journal))


def test_every_cube_is_proved_and_checked_and_a_rerun_reads_the_journal(
    tmp_path: Path,
    manifest: dict,  # type: ignore[type-arg]
) -> None:
    cubes = len(manifest["refutation"]["proofs"])
    first = _reprove(tmp_path, manifest)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"is unsatisfiable: all {cubes} cubes refuted by glucose4" in first.stdout
    assert f"{cubes} proofs have the manifest's number of steps" in first.stdout
    lines = (tmp_path / "j.jsonl").read_text().splitlines()
    assert len(lines) == 1 + cubes
    again = _reprove(tmp_path, manifest)
    assert again.returncode == 0
    assert f"{cubes} proved and checked before" in again.stdout
    # one cube's record edited: that cube is redone, the others are read from the journal
    # (editing all of them redid all 12 cubes)
    edited = [lines[0], lines[1].replace('"steps": ', '"steps": 1'), *lines[2:]]
    assert edited != lines
    (tmp_path / "j.jsonl").write_text("\n".join(edited) + "\n")
    tampered = _reprove(tmp_path, manifest)
    assert tampered.returncode == 0
    assert f"; {cubes - 1} proved and checked before" in tampered.stdout


def test_cubes_that_leave_a_gap_are_rejected(
    tmp_path: Path,
    manifest: dict,  # type: ignore[type-arg]
) -> None:
    short = json.loads(json.dumps(manifest))
    del short["refutation"]["proofs"][-1]
    rejected = _reprove(tmp_path, short)
    assert rejected.returncode == 1
    assert "rejected: the cubes' cover proof" in rejected.stdout


def test_a_claim_past_the_truth_is_rejected(
    tmp_path: Path,
    manifest: dict,  # type: ignore[type-arg]
) -> None:
    wrong = json.loads(json.dumps(manifest))
    wrong["claim"]["value"] = 9  # 10 black fit beside 9 white
    spec = Spec.from_data(wrong["problem"])
    bounds = claim_bounds(spec, wrong["claim"])
    formula = refutation_formula(spec, bounds, confirmed_symmetries(spec, bounds))
    text = formula.dimacs(refutation_comments(spec, bounds)).encode()
    wrong["files"]["refutation.cnf"] = hashlib.sha256(text).hexdigest()
    rejected = _reprove(tmp_path, wrong)
    assert rejected.returncode == 1, rejected.stderr
    assert "is satisfiable: the claim is wrong" in rejected.stdout


def _with(data: dict, key: str, value: object) -> dict:  # type: ignore[type-arg]
    return {**data, key: value}


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: "{ not json",
        lambda data: "[]",
        lambda data: _with(data, "format", "chessplace-certificate/2"),
        lambda data: _with(data, "problem", {"rows": -1}),
        lambda data: _with(data, "claim", {"kind": "feasible"}),
        lambda data: _with(data, "claim", {"kind": "optimum", "value": 10.5}),
        lambda data: _with(data, "files", {**data["files"], "refutation.cnf": "0" * 64}),
        lambda data: _with(data, "refutation", {**data["refutation"], "proofs": [{"cube": "x"}]}),
    ],
    ids=[
        "not-json",
        "not-a-manifest",
        "other-format",
        "bad-problem",
        "not-refuted",
        "fractional-claim",
        "other-formula",
        "bad-cube",
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path,
    manifest: dict,  # type: ignore[type-arg]
    damage: Callable[[dict], object],  # type: ignore[type-arg]
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Run in this process (a child Python takes most of a second to start, eight
    times); the command run whole refuses bad input the same way, below."""
    path = tmp_path / "manifest.json"
    data = damage(manifest)
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    journal = tmp_path / "j.jsonl"
    code = reprove_main([str(path), "--workers", "2", "--journal", str(journal)])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert err.startswith("reprove-certificate: ")
    assert len(err.splitlines()) == 1


def test_bad_input_to_the_command_is_one_line_and_exit_2(tmp_path: Path) -> None:
    refused = _reprove(tmp_path, "{ not json")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr.startswith("reprove-certificate: ")
    assert len(refused.stderr.splitlines()) == 1


def test_a_journal_that_is_a_directory_is_bad_input(
    tmp_path: Path,
    manifest: dict,  # type: ignore[type-arg]
) -> None:
    (tmp_path / "j.jsonl").mkdir()
    refused = _reprove(tmp_path, manifest)
    assert refused.returncode == 2, refused.stderr
    assert len(refused.stderr.splitlines()) == 1


@pytest.mark.parametrize("group", [False, True], ids=["process", "process-group"])
def test_sigterm_stops_it_and_the_journal_resumes(
    tmp_path: Path,
    manifest: dict,  # type: ignore[type-arg]
    group: bool,
) -> None:
    """A stop keeps what was checked; sent to the whole group, it kills the children
    too, which is still a stop (exit 3), not a failed check."""
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    journal = tmp_path / "j.jsonl"
    command = [sys.executable, *SCRIPT, str(path), "--workers", "1", "--journal", str(journal)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert child.stdout is not None
    assert "covering every assignment" in child.stdout.readline()
    if group:
        os.killpg(child.pid, signal.SIGTERM)
    else:
        child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=30) == 3
    assert "stopped: " in child.stdout.read()
    kept = len(journal.read_text().splitlines()) - 1
    resumed = _reprove(tmp_path, manifest)
    assert resumed.returncode == 0
    assert re.search(rf"; {kept} proved and checked before", resumed.stdout)
    assert "confirmed: " in resumed.stdout
