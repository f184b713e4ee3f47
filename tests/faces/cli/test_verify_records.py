"""``chessplace verify`` accepts the term records of results/ (issue 52): results/README.md
promises a witness that verify accepts, and ``verify peaceable-queens -n 19
results/a250000/n19.json`` failed with "JSON placement needs a 'pieces' list" (a record
holds the command's ``--json`` answer under ``answer``)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from chessplace.faces.cli import main
from tests.paths import ROOT

RESULTS = ROOT / "results"
TAKING_A_VALUE = {"--checkpoint", "--certificate", "--workers", "--time-limit", "--dask"}


def _witnesses() -> list[Path]:
    """The records whose verdict says their witness is valid."""
    return [
        path
        for path in sorted(RESULTS.glob("*/n*.json"))
        if str(json.loads(path.read_text(encoding="utf-8")).get("verify", "")).startswith("valid")
    ]


def _verify_arguments(command: str) -> list[str]:
    """The problem's words of a record's command (``chessplace optimize peaceable-queens
    -n 19 --checkpoint …`` → ``peaceable-queens -n 19``), how it ran left out."""
    words = shlex.split(command)[2:]
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in TAKING_A_VALUE:
            skip = True
        elif word != "--json":
            kept.append(word)
    return kept


def test_the_readme_example_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    record = RESULTS / "a250000" / "n19.json"
    code = main(["verify", "peaceable-queens", "-n", "19", str(record)])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "peaceable-queens on 19×19: 104 pieces — valid"
    readme = (RESULTS / "README.md").read_text(encoding="utf-8")
    assert "chessplace verify peaceable-queens -n 19 results/a250000/n19.json" in readme


@pytest.mark.parametrize("record", _witnesses(), ids=lambda p: str(p.relative_to(RESULTS)))
def test_every_witness_in_the_results_verifies_as_its_record_says(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record.read_text(encoding="utf-8"))
    code = main(["verify", *_verify_arguments(data["command"]), str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"valid: {out.splitlines()[-1]}" == data["verify"]


def test_a_record_for_another_board_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    record = RESULTS / "a250000" / "n19.json"
    assert main(["verify", "peaceable-queens", "-n", "18", str(record)]) == 2
    assert "the JSON is for rows = 19, not 18" in capsys.readouterr().err


def test_witnesses_are_found() -> None:
    assert len(_witnesses()) >= 15
