"""results/' tables and b-files are made from the records (python -m chessplace.research tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessplace.research import tables
from chessplace.research.records import SEQUENCES
from tests.paths import ROOT

RESULTS = ROOT / "results"


PAGES = [RESULTS / "README.md", *sorted(RESULTS.glob("*/oeis.md"))]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(RESULTS)) for p in PAGES])
def test_every_table_is_made_from_the_records(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert tables.rendered(text, RESULTS) == text


def test_every_table_is_on_a_page_once() -> None:
    names = [m["name"] for page in PAGES for m in tables.BLOCK.finditer(page.read_text())]
    assert sorted(names) == sorted(tables.TABLES)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A results folder whose README is a copy and whose sequences are the real ones."""
    (tmp_path / "README.md").write_text((RESULTS / "README.md").read_text(encoding="utf-8"))
    for sequence in SEQUENCES:
        (tmp_path / sequence).symlink_to(RESULTS / sequence)
    return tmp_path


def test_a_figure_typed_into_a_table_is_found_and_written_over(copy: Path) -> None:
    readme = copy / "README.md"
    text = readme.read_text(encoding="utf-8")
    readme.write_text(text.replace("| 28,096.9 |", "| 20,000.0 |", 1), encoding="utf-8")
    assert tables.main(["--results", str(copy), "--check"]) == 1
    assert tables.main(["--results", str(copy)]) == 0
    assert readme.read_text(encoding="utf-8") == text


def test_a_table_the_command_does_not_make_is_refused(
    copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = copy / "README.md"
    readme.write_text("<!-- table nonsense -->\n<!-- end -->\n", encoding="utf-8")
    assert tables.main(["--results", str(copy), "--check"]) == 2
    assert "nonsense" in capsys.readouterr().err


def test_a_check_that_finds_every_table_up_to_date_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--check`` says in one line what it checked when all is well (it once said
    nothing), and names each stale page otherwise."""
    (tmp_path / "README.md").write_text("# Results\n\nNo tables yet.\n", encoding="utf-8")
    assert tables.main(["--results", str(tmp_path), "--check"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out == (
        f"tables: every table of 1 page ({tmp_path / 'README.md'} and each sequence's oeis.md)"
        " is up to date with its records\n"
    )


def test_runs_of_terms_are_written_as_ranges() -> None:
    assert tables._span([]) == "none"
    assert tables._span([1, 2, 3, 5, 7, 8]) == "1..3, 5, 7..8"
