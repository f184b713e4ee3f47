"""The proof samples in ``results/``: a uniform draw, and every kept proof checks."""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
from pathlib import Path

import pytest

from chessplace.research.cube_solving import formula_digest
from chessplace.research.sample_proofs import (
    Claim,
    bound_claim,
    cube_formula,
    cube_of,
    listed_claim,
)
from chessplace.research.sampling import shuffled

pytest.importorskip("dratify")

RESULTS = Path(__file__).resolve().parents[2] / "results"
JOURNALS = sorted(RESULTS.glob("*/n*-sample-proofs.jsonl"))


def _read(journal: Path) -> tuple[dict, list[dict]]:  # type: ignore[type-arg]
    lines = journal.read_text().splitlines()
    return json.loads(lines[0])["header"], [json.loads(line) for line in lines[1:]]


def _claim(journal: Path, header: dict) -> Claim:  # type: ignore[type-arg]
    if "classes" in header:
        return listed_claim(journal.parent / f"n{header['n']}.json")
    return bound_claim(header["n"], header["beyond"] - 1, header["white"])


def test_there_are_proof_samples() -> None:
    assert JOURNALS, "no results/*/n*-sample-proofs.jsonl"


@pytest.mark.parametrize("journal", JOURNALS, ids=[j.parent.name + "-" + j.stem for j in JOURNALS])
def test_a_sample_is_the_seeded_draw_of_its_formula(journal: Path) -> None:
    """Its formula is the one regenerated from its header, and its cubes (a split
    cube's parts counted as the cube) are the first of the seeded shuffle: a uniform
    draw, none chosen by hand."""
    header, records = _read(journal)
    assert formula_digest(_claim(journal, header).clauses) == header["formula"]
    words = ["".join(signs) for signs in itertools.product("10", repeat=header["lines"])]
    assert len(words) == header["cubes"]
    seed = int(header["order"].removeprefix("shuffled, seed "))
    keys = [r["cube"].removesuffix("+") for r in records]  # a split cube: "+", then its parts
    assert all(set(key) <= {"0", "1"} and len(key) >= header["lines"] for key in keys)
    cubes = {key[: header["lines"]] for key in keys}
    assert cubes == set(shuffled(words, seed)[: len(cubes)])


def _check_kept_proofs(journal: Path, checked: int | None) -> None:
    """Each proof kept beside a sample (``nN-proofs/WORD.drup.gz``) is the one its
    record hashes, and no file there lacks a record; dratify accepts the ``checked``
    shortest of them (all when ``None``) against the formula with its cube as units."""
    from chessplace.certificates.checker.proofs import proof_fault

    header, records = _read(journal)
    claim = _claim(journal, header)
    folder = journal.parent / journal.name.replace("-sample-proofs.jsonl", "-proofs")
    kept = {r["cube"]: r for r in records if r["kept"]}
    files = {path.name.removesuffix(".drup.gz") for path in folder.glob("*.drup.gz")}
    assert files == set(kept)
    base = cube_formula(claim)
    shortest = sorted(kept, key=lambda word: kept[word]["steps"])
    for number, word in enumerate(shortest):
        text = gzip.decompress((folder / f"{word}.drup.gz").read_bytes())
        assert hashlib.sha256(text).hexdigest() == kept[word]["proof"]
        assert len(text.splitlines()) == kept[word]["steps"]
        if checked is None or number < checked:
            assert proof_fault(base.with_units(cube_of(claim, word)), text.decode()) is None


JOURNAL_IDS = [j.parent.name + "-" + j.stem for j in JOURNALS]


@pytest.mark.parametrize("journal", JOURNALS, ids=JOURNAL_IDS)
def test_every_kept_proof_hashes_to_its_record_and_the_shortest_check(journal: Path) -> None:
    """Every kept proof is the one its record hashes; dratify checks the three shortest
    (the whole re-check, a minute, is the slow twin below)."""
    _check_kept_proofs(journal, checked=3)


@pytest.mark.slow
@pytest.mark.parametrize("journal", JOURNALS, ids=JOURNAL_IDS)
def test_every_kept_proof_hashes_to_its_record_and_checks(journal: Path) -> None:
    _check_kept_proofs(journal, checked=None)
