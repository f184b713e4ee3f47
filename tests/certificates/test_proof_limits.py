"""Proof checking within bounds: a proof whose checking would need more memory than
the process may have is refused with the figures (checking takes tens of bytes per
byte of proof text, and the allowed sizes reached about 140 GB), and a cube listed
again with its proof is checked once (5,000 copies took 360 s)."""

from __future__ import annotations

import importlib.util
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from chessplace.certificates import proofcheck
from chessplace.certificates.checker.verdict import check_certificate
from tests.certified import manifest_of, seal

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None, reason="chessplace check needs dratify"
)

DATA_LIMIT = 512 << 20
"""The data-size limit of the checking process (RLIMIT_DATA): room for the checker."""


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """a(5) = 4 certified: one proof of the empty cube."""
    directory = tmp_path_factory.mktemp("a5") / "c"
    command = ["optimize", "peaceable-queens", "-n", "5", "--certificate", str(directory)]
    subprocess.run([sys.executable, "-m", "chessplace", *command], check=True, capture_output=True)
    return directory


def _copy(certificate: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "c"
    copy.mkdir()
    for path in certificate.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    return copy


def test_a_cube_listed_many_times_is_checked_once(
    certificate: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _copy(certificate, tmp_path)
    manifest = manifest_of(copy)
    manifest["refutation"]["proofs"] *= 5000
    seal(copy, manifest)
    checked: list[int] = []
    real = proofcheck.proof_fault

    def counted(formula: str, proof: str) -> str | None:
        checked.append(1)
        return real(formula, proof)

    monkeypatch.setattr("chessplace.certificates.checker.verdict.proof_fault", counted)
    verdict = check_certificate(copy)
    assert verdict.certified, verdict.line
    assert len(checked) == 1


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_DATA, (DATA_LIMIT, DATA_LIMIT))


def test_a_proof_too_large_for_the_memory_is_refused_with_the_figures(
    certificate: Path, tmp_path: Path
) -> None:
    """16 MB of proof text would need some 640 MB to check: past the 512 MiB the
    process may have, it is refused before it is parsed."""
    copy = _copy(certificate, tmp_path)
    manifest = manifest_of(copy)
    text = proofcheck.unpacked("p.gz", (copy / "refutation.drup.gz").read_bytes())
    padding = "d 1 2 0\n" * (2 << 20)  # deletions of a clause never added: 16 MiB
    (copy / "refutation.drup").write_text(padding + text)
    (copy / "refutation.drup.gz").unlink()
    files = manifest["files"]
    files["refutation.drup"] = files.pop("refutation.drup.gz")
    manifest["refutation"]["proofs"][0]["proof"] = "refutation.drup"
    seal(copy, manifest)
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", "check", str(copy)],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limited,
    )
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    line = done.stdout.strip()
    assert line.startswith("rejected: refutation.drup: needs about"), line
    assert "of memory to check (16,78" in line and "bytes of proof text" in line
    assert "more than the 512.0 MiB available here" in line and "\n" not in line
