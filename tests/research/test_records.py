"""The wording of results/' records against what their journals and the code hold (issue
52): a check's claim says how many parts it recounted and of what kind, a check stopped
early is partial, a contribution text says how far the tests go, and a companion
sequence's value is the record's count, compared with the OEIS terms held here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chessplace.data.reference import terms
from chessplace.research import tables
from chessplace.research.records import (
    SEQUENCES,
    about,
    figures,
    journal_records,
    pawn_parts,
    term_records,
)
from tests.engines.test_pawn_counter import QUICK, SLOW
from tests.paths import ROOT

RESULTS = ROOT / "results"

PAWN_CHECKS = [
    (sequence, check)
    for sequence in SEQUENCES
    for check in about(RESULTS / sequence)["checks"]
    if "journal" in check
    and journal_records(RESULTS / sequence / check["journal"])[0].get("kind") == "pawn parts"
]


def _journal(path: Path, givens: list[list[str]]) -> Path:
    """A crosscheck-pawns journal of parts with these given queens, all agreeing."""
    header = {"kind": "pawn parts", "n": 8, "pawns": 2, "most": 1000, "seed": 1}
    lines = [json.dumps({"header": header})]
    for given in givens:
        record = {"pawns": ["c3", "f6"], "given": given, "bitboard": 3, "cpsat": 3}
        lines.append(json.dumps({**record, "agree": True, "seconds": 1.5}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _check(parts: int) -> dict[str, object]:
    command = f"python -m chessplace.research crosscheck-pawns -n 8 --pawns 2 --parts {parts}"
    return {"n": 8, "command": command, "journal": "n8-cpsat-parts.jsonl"}


def test_a_pawn_parts_check_stopped_before_its_parts_is_partial(tmp_path: Path) -> None:
    """A129552(17)'s check asked for 20 parts and stopped at 18: it was shown as
    complete, since the journal does not say how many were asked."""
    _journal(tmp_path / "n8-cpsat-parts.jsonl", [[], ["a1"]])
    short = figures(tmp_path, _check(3))
    assert (short.pieces, short.asked, short.complete) == (2, 3, False)
    assert short.share == pytest.approx(2 / 3)
    whole = figures(tmp_path, _check(2))
    assert (whole.pieces, whole.asked, whole.complete, whole.share) == (2, 2, True, 1.0)
    with pytest.raises(ValueError, match="holds 2 parts, its command asks 1"):
        figures(tmp_path, _check(1))
    with pytest.raises(ValueError, match="names no --parts"):
        figures(tmp_path, {**_check(2), "command": "crosscheck-pawns -n 8 --pawns 2"})


@pytest.mark.parametrize(
    ("givens", "words"),
    [
        ([[], [], ["a1"]], "2 whole pawn classes and 1 pawn class with 1 queen fixed"),
        ([[]], "1 whole pawn class"),
        ([["a1", "b3"], ["c1", "d2"]], "2 pawn classes with 2 queens fixed"),
        (
            [["a1"], ["a1", "b3"], ["c1", "d2"], ["a1", "b3", "c5"], []],
            "1 whole pawn class and 4 pawn classes with 1 to 3 queens fixed"
            " (1 with 1, 2 with 2, 1 with 3)",
        ),
        ([], "no parts"),
    ],
)
def test_pawn_parts_are_described_exactly(givens: list[list[str]], words: str) -> None:
    assert pawn_parts([{"given": given} for given in givens]) == words


@pytest.mark.parametrize(
    ("sequence", "check"), PAWN_CHECKS, ids=[f"{s}-n{c['n']}" for s, c in PAWN_CHECKS]
)
def test_every_pawn_parts_claim_says_what_its_journal_holds(
    sequence: str, check: dict[str, object]
) -> None:
    """The claim names the parts as the journal holds them (A129554(15)'s said 20 whole
    pawn classes, one having a queen fixed), and a run stopped early says how far it
    went of the parts its command asked for (A129552(17)'s: 18 of 20)."""
    folder = RESULTS / sequence
    _, records = journal_records(folder / str(check["journal"]))
    done = figures(folder, check)
    claim, method = str(check["claim"]), str(check["method"])
    assert pawn_parts(records) in claim
    if done.pieces < (done.asked or 0):
        assert f"{done.pieces} of the {done.asked} asked" in claim and not done.complete
    else:
        assert claim.startswith(f"{done.asked} random parts") and done.complete
    whole = sum(not r["given"] for r in records)
    assert all(int(count) == whole for count in re.findall(r"(\d+) whole", claim + method))
    if whole < len(records):
        assert "whole pawn classes here" not in method


@pytest.mark.parametrize(("sequence", "pawns"), [("a129552", 2), ("a129554", 3)])
def test_the_contribution_text_says_how_far_the_tests_reproduce_the_entry(
    sequence: str, pawns: int
) -> None:
    """tests/engines/test_pawn_counter.py checks the entry to QUICK and, marked slow,
    to SLOW (A129554's text said n = 12 where the default suite stops at 9)."""
    text = " ".join((RESULTS / sequence / "oeis.md").read_text(encoding="utf-8").split())
    said = f"to n = {QUICK[pawns]} in the default suite and to n = {SLOW[pawns]} with the slow"
    assert said in text


COMPANIONS = [s for s in SEQUENCES if "companion" in about(RESULTS / s)]


@pytest.mark.parametrize("sequence", COMPANIONS)
def test_a_companion_term_is_the_records_count_compared_with_the_terms_held_here(
    sequence: str,
) -> None:
    """A129551(17) and A129553(15), the placements in all of the counts that gave
    A129552(17) and A129554(15): each is its record's count, each is said to be missing
    from the OEIS terms held here only where src/chessplace/data/oeis.json lacks it,
    and the contribution text gives it and says so."""
    folder = RESULTS / sequence
    companion, records = about(folder)["companion"], term_records(folder)
    try:
        held = terms(companion["sequence"])
    except KeyError:
        held = {}
    page = " ".join((folder / "oeis.md").read_text(encoding="utf-8").split())
    for n, entry in companion["terms"].items():
        assert entry["value"] == records[int(n)][companion["field"]]
        if entry["status"] == "not in the OEIS data held here":
            assert int(n) not in held
            assert f"has no terms of {companion['sequence']}" in page
        else:
            assert held[int(n)] == entry["value"]
        assert f"{entry['value']:,}" in page and f"{companion['sequence']}({n})" in page
        assert "new" not in entry["status"]
    assert len(tables.companion_notes(folder)) == len(companion["terms"])


def test_a_companion_value_the_record_does_not_hold_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "a129554"
    folder.mkdir()
    for name in ("n15.json", "sequence.json"):
        (folder / name).write_text((RESULTS / "a129554" / name).read_text(encoding="utf-8"))
    info = about(folder)
    info["companion"]["terms"]["15"]["value"] += 1
    (folder / "sequence.json").write_text(json.dumps(info), encoding="utf-8")
    with pytest.raises(ValueError, match="another value"):
        tables.companion_notes(folder)
