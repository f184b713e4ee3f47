"""sample-lines: a random sample of the line engine's chunks, timed and projected."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = [sys.executable, "-m", "chessplace.research", "sample-lines"]


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SCRIPT, *arguments], capture_output=True, text=True, timeout=300)


def test_every_chunk_below_the_optimum_is_refuted_and_one_above_holds_a_placement(
    tmp_path: Path,
) -> None:
    """a(8) = 9: all chunks searched for 10 find nothing (the projection is then what
    was spent), and searched for 9 one chunk holds a labelling worth 9."""
    journal = tmp_path / "s.jsonl"
    done = _run("-n", "8", "--target", "10", "--sample", "100000", "--journal", str(journal))
    assert done.returncode == 0, done.stderr
    lines = journal.read_text().splitlines()
    header = json.loads(lines[0])["header"]
    assert header["order"] == "shuffled, seed 1" and len(lines) - 1 == header["chunks"] > 100
    assert f"{header['chunks']:,} of {header['chunks']:,} chunks" in done.stdout
    refuted = _run(
        "-n", "8", "--target", "9", "--sample", "100000", "--journal", str(tmp_path / "r")
    )
    assert refuted.returncode == 1 and "REFUTED: chunk" in refuted.stdout


def test_a_larger_sample_goes_on_with_the_same_draw(tmp_path: Path) -> None:
    journal = str(tmp_path / "s.jsonl")
    first = _run("-n", "8", "--target", "10", "--sample", "10", "--journal", journal)
    assert first.returncode == 0 and "10 to search" in first.stdout
    chunks = [json.loads(line)["chunk"] for line in Path(journal).read_text().splitlines()[1:]]
    more = _run("-n", "8", "--target", "10", "--sample", "40", "--journal", journal)
    assert more.returncode == 0 and "30 to search" in more.stdout
    assert "the whole projected at" in more.stdout  # 40 chunks: enough to project
    again = [json.loads(line)["chunk"] for line in Path(journal).read_text().splitlines()[1:]]
    assert again[:10] == chunks and len(again) == 40
    other = _run("-n", "8", "--target", "10", "--sample", "40", "--seed", "2", "--journal", journal)
    assert other.returncode == 2 and "shuffled, seed 1" in other.stderr


def test_bad_options_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Run in this process (a child Python takes most of a second to start); the
    command run whole refuses the first the same way."""
    from chessplace.research.sample_lines import main

    foreign = tmp_path / "engine.jsonl"
    foreign.write_text(
        '{"header": {"format": "chessplace-lines-1", "depth": 4, "geometry": "x"}}\n'
    )
    for options, message in [
        (["-n", "40", "--target", "3", "--sample", "5"], "-n is 2 to 32"),
        (["-n", "8", "--target", "0", "--sample", "5"], "--target is 1 to 64"),
        (["-n", "8", "--target", "10", "--sample", "0"], "--sample is at least 1"),
        (
            ["-n", "8", "--target", "10", "--sample", "5", "--checkpoint", str(foreign)],
            "another search's checkpoint",
        ),
    ]:
        capsys.readouterr()
        try:
            code: object = main([*options, "--journal", str(tmp_path / "j")])
        except SystemExit as exit:  # argparse's own refusals
            code = exit.code
        err = capsys.readouterr().err
        assert code == 2 and message in err, err
        assert len(err.splitlines()) == 1
    refused = _run("-n", "40", "--target", "3", "--sample", "5", "--journal", str(tmp_path / "j"))
    assert refused.returncode == 2 and "-n is 2 to 32" in refused.stderr, refused.stderr
    assert len(refused.stderr.splitlines()) == 1
