"""Forged certificates: ``chessplace check`` must not certify a false claim, and must
answer every malformed certificate with one verdict line, never a traceback or a hang.

Each forgery here was accepted (or crashed the checker) before its fix: a single
cube taken without a cover, a DRAT step after a deletion that refutes anything, a
gzip bomb, deeply nested JSON, a proof entry without its file, an unreadable piece,
a puzzle name the checker does not read, and a proof-checking worker that dies.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from chessplace.certificates.checker.formula import claim_bounds, refutation_formula
from chessplace.certificates.checker.proofs import proof_fault, unpacked
from chessplace.certificates.checker.spec import Spec
from chessplace.faces.cli import main
from tests.certified import PROOF, manifest_of, seal
from tests.processes import children, group
from tests.waiting import wait_until

pytest.importorskip("pysat", reason="certificates are written with python-sat")
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None,
    reason="chessplace check needs dratify (the certify extra)",
)


def check(capsys: pytest.CaptureFixture[str], directory: Path) -> tuple[int, str]:
    code = main(["check", str(directory)])
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 or (code == 2 and err.count("\n") == 1), (out, err)
    return code, out or err


def lowered(directory: Path) -> tuple[dict[str, Any], Spec, int]:
    """Claim a(5) = 3, a true witness of 3 per army and the formula regenerated for
    that claim (satisfiable: 4 per army exist); the refutation is left to forge.
    Returns the manifest, the spec and the formula's number of variables."""
    manifest = manifest_of(directory)
    manifest["claim"]["value"] = 3
    witness = json.loads((directory / "witness.json").read_text())
    kept: dict[str, int] = {}
    pieces = []
    for piece in witness["pieces"]:
        kept[piece["army"]] = kept.get(piece["army"], 0) + 1
        if kept[piece["army"]] <= 3:
            pieces.append(piece)
    witness["pieces"] = pieces
    (directory / "witness.json").write_text(json.dumps(witness))
    spec = Spec.from_data(manifest["problem"])
    permutations = json.loads((directory / "symmetries.json").read_text())["permutations"]
    formula = refutation_formula(spec, claim_bounds(spec, manifest["claim"]), permutations)
    (directory / "refutation.cnf").write_text(formula.dimacs())
    return manifest, spec, formula.variables


def test_one_cube_is_not_taken_without_a_cover(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    """A lone cube that puts both armies on a1 is refuted by propagation alone; only a
    cover proof could say that it is the whole search."""
    manifest, spec, _ = lowered(copy)
    both_on_a1 = [spec.var(0, (0, 0)), spec.var(1, (0, 0))]
    manifest["refutation"]["proofs"] = [{"cube": both_on_a1, "proof": PROOF}]
    (copy / PROOF).write_bytes(gzip.compress(b"0\n"))
    seal(copy, manifest)
    code, out = check(capsys, copy)
    assert code == 1 and out.startswith("rejected: manifest: no cover proof"), out


def rat_after_deletion(fresh: int) -> str:
    """A DRAT 'refutation' of any formula: y, then z ∨ ¬y (z propagates at the root),
    delete it, then ¬z, RAT now that no clause holds z; the root conflicts."""
    y, z = fresh, fresh + 1
    return f"{y} 0\n{z} -{y} 0\nd {z} -{y} 0\n-{z} 0\n0\n"


def test_a_rat_step_after_a_deletion_refutes_nothing() -> None:
    assert proof_fault("p cnf 2 1\n1 2 0\n", rat_after_deletion(3)) is not None


def test_a_lowered_claim_with_a_drat_trick_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    manifest, _, variables = lowered(copy)
    (copy / PROOF).write_bytes(gzip.compress(rat_after_deletion(variables + 1).encode()))
    seal(copy, manifest)
    code, out = check(capsys, copy)
    assert code == 1 and f"{PROOF}: step 1 " in out and "not RUP" in out, out


def test_a_gzip_bomb_or_a_second_stream_is_refused() -> None:
    bomb = gzip.compress(b"0\n" * 4_000_000)  # 8 MB of text in about 8 KB
    with pytest.raises(ValueError, match="unpacks to more than"):
        unpacked(PROOF, bomb)
    with pytest.raises(ValueError, match="data after its gzip stream"):
        unpacked(PROOF, gzip.compress(b"0\n") + gzip.compress(b"1 0\n"))
    text = "".join(f"{n % 9973 + 1} -{n * 7 % 8171 + 1} {n % 613 + 1} 0\n" for n in range(10**5))
    assert len(text) > 1 << 20 and unpacked(PROOF, gzip.compress(text.encode())) == text


@pytest.mark.parametrize("name", ["symmetries.json", "witness.json"])
def test_deeply_nested_json_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path, name: str
) -> None:
    manifest = manifest_of(copy)
    (copy / name).write_text("[" * 100_000 + "]" * 100_000)
    seal(copy, manifest)
    code, out = check(capsys, copy)
    assert code == 1 and out.startswith("rejected: "), out


def test_a_deeply_nested_manifest_is_no_certificate(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    nested = "[" * 100_000 + "]" * 100_000
    (copy / "manifest.json").write_text(f'{{"format": "chessplace-certificate/3", "x": {nested}}}')
    code, err = check(capsys, copy)
    assert code == 2 and "not JSON" in err, err


def test_a_proof_entry_without_its_file_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    manifest = manifest_of(copy)
    manifest["refutation"]["proofs"] = [{"cube": []}]
    seal(copy, manifest)
    code, out = check(capsys, copy)
    assert code == 1 and out.startswith("rejected: manifest: no proof"), out


@pytest.mark.parametrize(
    ("field", "value", "fault"),
    [
        ("betza", "W" + "1" * 5000, "cannot read Betza notation"),
        ("name", "white\ncertified: all", "printable text"),
    ],
    ids=["endless digits", "two-line name"],
)
def test_an_unreadable_army_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path, field: str, value: str, fault: str
) -> None:
    manifest = manifest_of(copy)
    armies = manifest["problem"]["armies"]
    if field == "name":  # the first army renamed, in its witness too
        witness = json.loads((copy / "witness.json").read_text())
        for piece in witness["pieces"]:
            if piece["army"] == armies[0]["name"]:
                piece["army"] = value
        (copy / "witness.json").write_text(json.dumps(witness))
        armies = armies[:1]
    for army in armies:
        army[field] = value
    seal(copy, manifest)
    code, out = check(capsys, copy)
    assert code == 1 and out.startswith("rejected: problem: ") and fault in out, out


def test_the_verdict_states_the_problem_as_checked_not_its_label(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    """The manifest's puzzle name is not checked, so the verdict never repeats it: it
    states the board, the armies with their piece and bounds, and the rules."""
    manifest = manifest_of(copy)
    manifest["puzzle"] = "peaceable-rooks"
    seal(copy, manifest)
    code, out = check(capsys, copy)
    assert code == 0 and "rooks" not in out
    assert out.startswith(
        "certified: 5×5 flat board; white moving WWFF (any number), "
        "black moving WWFF (any number); no army attacks another; armies of equal size; "
        "maximising the smallest of white, black: the maximum is 4"
    ), out


def test_a_rule_the_checker_does_not_know_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    manifest = manifest_of(copy)
    manifest["problem"]["torus"] = True
    seal(copy, manifest)
    code, out = check(capsys, copy)
    assert code == 1 and "rules the checker does not know: torus" in out, out


@pytest.mark.parametrize(
    ("change", "stated"),
    [
        ({"independent": True}, "no piece attacks any other"),
        ({"armies": "capped"}, "white moving WWFF (0 to 8), black moving WWFF (0 to 8)"),
    ],
)
def test_a_certificate_of_another_problem_says_which(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], stated: str
) -> None:
    """The writer's own certificate of a variant (independent armies, capped armies:
    solved, as optimize frees the counts) under a peaceable-queens label: the verdict
    states the variant's rules."""
    from dataclasses import replace

    from chessplace import Board, optimize, puzzles, solve
    from chessplace.certificates.writer.certificate import write_certificate

    problem = puzzles.peaceable_queens(Board.square(5))
    if change.get("independent"):
        problem = replace(problem, independent=True)
        task, result = "optimize", optimize(problem, solver="sat")
    else:
        problem = replace(problem, armies=tuple(replace(a, maximum=8) for a in problem.armies))
        task, result = "solve", solve(problem, solver="sat")
    write_certificate(tmp_path / "c", problem, task, result, "test")
    code, out = check(capsys, tmp_path / "c")
    assert code == 0 and stated in out, out
    assert "peaceable-queens" not in out


@pytest.mark.skipif(
    sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2,
    reason="needs /proc and a pool of proof-checking workers",
)
def test_a_worker_that_dies_rejects_instead_of_hanging(copy: Path) -> None:
    """Thousands of cubes, each of a pair of placement literals with the one true
    proof (which refutes the formula without them: a valid, slow certificate; copies
    of one cube are checked once); its proof-checking children killed as the OOM
    killer would: a verdict within seconds, nothing left."""
    manifest = manifest_of(copy)
    proofs = manifest["refutation"]["proofs"]
    pairs = [(a, b) for a in range(1, 51) for b in range(a + 1, 51)]
    signed = [[sa * a, sb * b] for a, b in pairs for sa in (1, -1) for sb in (1, -1)]
    manifest["refutation"]["proofs"] = proofs + [dict(proofs[0], cube=c) for c in signed]
    (copy / "cover.drup.gz").write_bytes(gzip.compress(b"0\n"))
    manifest["refutation"]["cover"] = "cover.drup.gz"
    manifest["files"]["cover.drup.gz"] = ""
    seal(copy, manifest)
    process = subprocess.Popen(
        [sys.executable, "-m", "chessplace", "check", str(copy)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )

    def killing_its_workers() -> bool:
        """Kill the check's workers (one per proof: some die mid-proof); has it ended?"""
        for pid in children(process.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return process.poll() is not None

    try:
        wait_until(
            lambda: len(children(process.pid)) >= 2, what="the check's workers", alive=process
        )
        killed = time.monotonic()
        wait_until(killing_its_workers, what="the check ending once its workers were killed")
        out, err = process.communicate(timeout=30)
        assert time.monotonic() - killed < 10, err
    finally:
        for pid in group(process.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
    assert process.returncode == 1 and out.startswith("rejected: a proof-checking process died")
    wait_until(lambda: group(process.pid) == [], what="every process of the check gone")
