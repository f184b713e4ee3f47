"""Reading what ``results/`` holds: each sequence's term records, its ``sequence.json``
(what is new, whom to credit, which checks ran) and what each check's journal says.

A check's figures (chunks or cubes, nodes, CPU seconds, placements counted, proof
steps) are summed from its journal here, every time, so that no table states a
figure its journal does not hold; a check that kept no journal carries its figures
under ``"recorded"`` in ``sequence.json``, taken from its output file.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from chessplace.research.cube_solving import covers, refuted_share
from chessplace.research.sampling import SPLIT, done_so_far, settled_costs, shuffled
from chessplace.research.splitting import OVER

SEQUENCES = (
    "a250000",
    "a260680",
    "a279405",
    "a308632",
    "a103330",
    "a103331",
    "a129552",
    "a129554",
)
"""The folders of ``results/``, one per sequence."""


def term_records(folder: Path) -> dict[int, dict[str, Any]]:
    """A sequence folder's term records (``nN.json``), by n."""
    found = {}
    for path in folder.glob("n*.json"):
        if re.fullmatch(r"n\d+", path.stem):
            found[int(path.stem[1:])] = json.loads(path.read_text(encoding="utf-8"))
    return dict(sorted(found.items()))


def term_value(info: dict[str, Any], record: dict[str, Any]) -> Any:
    """A record's value for its sequence: the optimum, or (``"field"`` in
    ``sequence.json``) the count or the count up to symmetry."""
    return record[info.get("field", "value")]


def about(folder: Path) -> dict[str, Any]:
    """A sequence folder's ``sequence.json``."""
    data: dict[str, Any] = json.loads((folder / "sequence.json").read_text(encoding="utf-8"))
    return data


def journal_records(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A journal's header and its records, as written (no record is checked here: a
    run of the check itself checks every one)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0])["header"], [json.loads(line) for line in lines[1:]]


@dataclass(frozen=True)
class Figures:
    """What a check did: its pieces of work and whether they cover the claim, its nodes
    (a search), placements (a count), proof steps, and CPU seconds."""

    pieces: int
    unit: str
    complete: bool
    share: float
    cpu_seconds: float
    nodes: int | None = None
    placements: int | None = None
    steps: int | None = None
    sample: str | None = None  # a random sample's projection of the whole
    asked: int | None = None  # the pieces its command asked for, where it names them


def figures(folder: Path, check: dict[str, Any]) -> Figures:
    """A check's figures: from its journal, its certificate's manifest, or what
    ``sequence.json`` recorded for it."""
    if "journal" in check and "manifest" in check:  # the certificate's proofs, made again
        done = _from_journal(folder / check["journal"])
        listed = _from_manifest(folder / check["manifest"])
        return replace(done, complete=done.pieces == listed.pieces and done.steps == listed.steps)
    if "journal" in check and "sample" in check:  # a draw of cubes of a size set in advance
        return _from_draw(folder / check["journal"], check["sample"])
    if "journal" in check:
        return _from_journal(folder / check["journal"], check.get("command", ""))
    if "manifest" in check:
        return _from_manifest(folder / check["manifest"])
    recorded = check["recorded"]
    return Figures(recorded["cubes"], "cube", recorded["complete"], 1.0, recorded["cpu_seconds"])


def asked_parts(command: str) -> int:
    """The parts a ``crosscheck-pawns`` command asks for (its ``--parts``): its journal
    does not say, and a run stopped early holds fewer, so the command must name them."""
    found = re.search(r"--parts[ =](\d+)", command)
    if found is None:
        raise ValueError(f"the command names no --parts: {command!r}")
    return int(found[1])


def pawn_parts(records: list[dict[str, Any]]) -> str:
    """What a ``crosscheck-pawns`` journal's parts are, exactly: whole pawn classes and
    pawn classes with queens fixed, by how many ("19 whole pawn classes and 1 pawn
    class with 1 queen fixed"), as a check's claim must word them."""
    fixed = sorted(len(r["given"]) for r in records if r["given"])
    whole = len(records) - len(fixed)
    words = [f"{whole} whole pawn class{'es' if whole != 1 else ''}"] if whole else []
    if fixed and fixed[0] == fixed[-1]:
        many = len(fixed) != 1
        queens = f"{fixed[0]} queen{'s' if fixed[0] != 1 else ''}"
        words.append(f"{len(fixed)} pawn class{'es' if many else ''} with {queens} fixed")
    elif fixed:
        each = ", ".join(f"{fixed.count(k)} with {k}" for k in sorted(set(fixed)))
        words.append(
            f"{len(fixed)} pawn classes with {fixed[0]} to {fixed[-1]} queens fixed ({each})"
        )
    return " and ".join(words) or "no parts"


def _from_journal(path: Path, command: str = "") -> Figures:
    header, records = journal_records(path)
    if header.get("kind") == "pawn parts":  # parts of a count recounted by CP-SAT
        asked = asked_parts(command)
        if len(records) > asked:
            raise ValueError(f"{path} holds {len(records)} parts, its command asks {asked}")
        agree = sum(r["agree"] for r in records)
        return Figures(
            len(records),
            "part",
            agree == len(records) == asked,  # every part asked recounted, and agreeing
            agree / asked if asked else 1.0,
            sum(r["seconds"] for r in records),
            asked=asked,
        )
    if "chunk lines" in header:  # the C search: every word of one length, so 2^lines
        wanted = 1 << header["chunk lines"]
        done = len({r["chunk"] for r in records})
        counted = [r["placements"] for r in records if "placements" in r]
        return Figures(
            done,
            "chunk",
            done == wanted,
            done / wanted,
            sum(r["seconds"] for r in records),
            nodes=sum(r["nodes"] for r in records),
            placements=sum(counted) if counted else None,
        )
    if "manifest" in header:  # proofs made again and checked
        return Figures(
            len(records),
            "cube",
            False,  # known only against the certificate's manifest (figures)
            1.0,
            sum(r["proving"] + r["checking"] for r in records),
            steps=sum(r["steps"] for r in records),
        )
    words = [r["cube"] for r in records if not r["cube"].endswith(OVER)]
    seconds = sum(r["seconds"] for r in records)  # cubes over their budget too
    if "tree depth" in header:
        return Figures(len(words), "cube", covers(words), refuted_share(words), seconds)
    return Figures(
        len(words), "cube", len(words) == header["cubes"], len(words) / header["cubes"], seconds
    )


def _from_draw(path: Path, size: int) -> Figures:
    """A sample-proofs journal whose draw is the first ``size`` cubes of its seeded
    order: the cubes settled (a cube split counted once all its parts are), the
    proof steps checked, the CPU seconds, and, once every cube of the draw is
    settled, the projection of the whole from those cubes alone (cubes settled past
    the draw, or a draw cut short, would lean low: the slow cubes finish last)."""
    header, records = journal_records(path)
    seconds = {r["cube"]: r["proving"] + r["checking"] for r in records}
    lines, whole = header["lines"], header["cubes"]
    order = shuffled(["".join(s) for s in itertools.product("10", repeat=lines)], _seed(header))
    settled = settled_costs(seconds, {key.removesuffix(SPLIT)[:lines] for key in seconds})
    drawn = settled_costs(seconds, order[:size])
    if len(drawn) == size:
        sample = f"all {size:,} cubes drawn refuted; "
        sample += done_so_far(list(drawn.values()), whole, unit="cubes")
    else:
        sample = (
            f"{len(drawn):,} of the {size:,} cubes drawn refuted so far, in "
            f"{math.fsum(seconds.values()):,.0f} CPU-s; no projection until the draw is finished"
        )
    return Figures(
        len(settled),
        "cube",
        len(settled) == whole,
        len(settled) / whole,
        math.fsum(seconds.values()),
        steps=sum(r["steps"] for r in records if not r["cube"].endswith(SPLIT)),  # checked
        sample=sample,
    )


def _seed(header: dict[str, Any]) -> int:
    """The seed of a journal's shuffled order ("shuffled, seed S")."""
    return int(str(header["order"]).removeprefix("shuffled, seed "))


def _from_manifest(path: Path) -> Figures:
    refutation = json.loads(path.read_text(encoding="utf-8"))["refutation"]
    proofs = refutation["proofs"]
    return Figures(
        len(proofs),
        "cube",
        True,  # the certificate's cover proof says the cubes cover every labelling
        1.0,
        sum(p["seconds"] for p in proofs),
        steps=refutation["proof_steps"],
    )


def progress(path: Path) -> str:
    """How far the journal of a run under way is: chunks or parts done of how many
    (where the journal says), CPU seconds (where it keeps them) and, for chunks taken
    in a shuffled order, the projected cost of the whole."""
    header, records = journal_records(path)
    if "chunk lines" in header:  # the C search
        seconds = [r["seconds"] for r in records]
        return done_so_far(seconds, 1 << header["chunk lines"], "order" in header)
    if header.get("format") == "chessplace-lines-sample-1":  # timed line engine chunks
        return done_so_far([r["seconds"] for r in records], header["chunks"])
    if "tasks" in header:  # the bitboard counter's parts
        return f"{len(records):,} of {header['tasks']:,} parts"
    done = [r for r in records if r.get("chunk") != "known"]  # the line engine's chunks
    return f"{len(done):,} chunks refuted (the journal does not say of how many)"
