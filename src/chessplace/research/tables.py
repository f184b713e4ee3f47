"""Write results/README.md's tables (and each ``oeis.md``'s b-file) from the records.

    python -m chessplace.research tables [--results results] [--check]

Each table sits between ``<!-- table NAME -->`` and ``<!-- end -->`` and is made
here from the term records (``nN.json``), each sequence's ``sequence.json``, the
reference table of OEIS terms and the checks' journals (:mod:`chessplace.research.records`);
nothing in a table is typed by hand. Without ``--check`` the pages are rewritten
in place; with it, exit 1 naming each page whose tables differ from its records
(the tests run it), or say in one line that every table is up to date.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from chessplace.data.reference import terms
from chessplace.research.commands import prog
from chessplace.research.records import (
    SEQUENCES,
    about,
    figures,
    progress,
    term_records,
    term_value,
)

BLOCK = re.compile(r"(<!-- table (?P<name>[a-z0-9-]+) -->\n)(.*?)(<!-- end -->)", re.S)
"""A generated table in the README: its marker, its body and its end."""

STATUS = {
    "new": "**new**",
    "new proof": "known value, **new proof**",
    "confirmed": "confirmed",
}
"""How each kind of term is shown."""


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    return "\n".join([_row(head), _row(["---"] * len(head)), *map(_row, rows)]) + "\n"


def _seconds(value: float | None) -> str:
    return "" if value is None else f"{value:,.1f}"


def _revision(record: dict[str, Any]) -> str:
    """A record's revision, briefly: a commit (marked when it is the commit that
    recorded it, not one the run named, or when the tree differed from it), or a
    version."""
    revision = record.get("revision", {})
    if "commit" not in revision:
        return f"v{revision.get('version', '?')}"
    text = f"`{revision['commit'][:10]}`"
    if revision.get("source") == "the commit that recorded it":
        text += " (recorded)"
    return text + (" (dirty)" if revision.get("dirty") else "")


def _status(entry: dict[str, str]) -> str:
    return STATUS[entry["status"]] + (f": {entry['credit']}" if entry.get("credit") else "")


def terms_table(results: Path, sequence: str) -> str:
    """One row per term record: value, status and credit, its command, times, machine,
    revision and witness; each record's note below."""
    folder = results / sequence
    info = about(folder)
    rows, notes = [], []
    for n, record in term_records(folder).items():
        witness = "verified" if record["verify"].startswith("valid") else "**not verified**"
        if record["verify"] == "not a placement task":
            witness = "a count"
        rows.append(
            [
                n,
                _shown(term_value(info, record)),
                _status(info["terms"][str(n)]),
                f"`{record['command']}`",
                _seconds(record["wall_seconds"]),
                _seconds(record["cpu_seconds"]),
                record["machine"],
                _revision(record),
                f"`{sequence}/n{n}.json`, {witness}",
            ]
        )
        if record.get("note"):
            notes.append(f"n = {n}: {record['note']}")
    notes += companion_notes(folder)
    head = ["n", "value", "status", "command", "wall s", "CPU-s", "machine", "revision", "record"]
    return _table(head, rows) + "".join(f"\n{note}\n" for note in notes)


HELD_HERE = "src/chessplace/data/oeis.json"
"""Where the OEIS terms held here are (:mod:`chessplace.data.reference`)."""


def companion_notes(folder: Path) -> list[str]:
    """A note per term of a companion sequence that the same counts give
    (``"companion"`` in ``sequence.json``: A129551 beside A129552, every placement
    where the records' own sequence counts classes): its value as the record holds it
    and what it was compared with. ``ValueError`` where the value is not the record's,
    or where the status says the OEIS terms held here lack it and they hold it."""
    companion = about(folder).get("companion")
    if companion is None:
        return []
    name, records = companion["sequence"], term_records(folder)
    try:
        held = terms(name)
    except KeyError:
        held = {}
    notes = []
    for n, entry in companion["terms"].items():
        value = records[int(n)][companion["field"]]
        if entry["value"] != value:
            raise ValueError(f"{folder.name}/sequence.json gives {name}({n}) another value")
        if entry["status"] == "not in the OEIS data held here" and int(n) in held:
            raise ValueError(f"{HELD_HERE} holds {name}({n}), sequence.json says not")
        notes.append(
            f"{name}({n}) = {_shown(value)}, {companion['what']}"
            f" (`{folder.name}/n{n}.json`, its {companion['field']}):"
            f" {entry['status']}; {entry['checked']}."
        )
    return notes


def classes_table(results: Path, sequence: str = "a260680") -> str:
    """One row per listing of optimal classes (A260680)."""
    folder = results / sequence
    info = about(folder)
    rows = [
        [
            n,
            record["m"],
            f"{record['classes_count']:,}",
            f"{record['placements']:,}",
            _status(info["terms"][str(n)]),
            _seconds(record["wall_seconds"]),
            _seconds(record["cpu_seconds"]),
            _revision(record),
        ]
        for n, record in term_records(folder).items()
    ]
    head = ["n", "a(n) each", "classes", "placements", "status", "wall s", "CPU-s", "revision"]
    return _table(head, rows)


def checks_table(results: Path) -> str:
    """One row per independent check of every sequence, its figures from its journal."""
    rows = []
    for sequence in SEQUENCES:
        folder = results / sequence
        info, records = about(folder), term_records(folder)
        for check in info["checks"]:
            done = figures(folder, check)
            listed = records.get(check["n"], {}).get("placements")
            if done.placements is not None and done.placements != listed:
                raise ValueError(f"{sequence}/{check['journal']} counts another total")
            work = f"{done.pieces:,} {done.unit}s"
            if done.asked is not None and done.asked != done.pieces:  # a run stopped early
                work = f"{done.pieces:,} of {done.asked:,} {done.unit}s"
            work += f", {done.nodes:,} nodes" if done.nodes is not None else ""
            work += f", {done.placements:,} placements" if done.placements is not None else ""
            work += f", {done.steps:,} proof steps" if done.steps is not None else ""
            outcome = "complete" if done.complete else f"**partial**: {done.share:.1%}"
            if done.sample is not None and not done.complete:
                outcome = f"**random sample**: {done.sample}"
            if check.get("superseded"):
                outcome += f", superseded {check['superseded']}"
            kinds = ("journal", "manifest", "output", "proofs")
            files = [check[key] for key in kinds if key in check]
            rows.append(
                [
                    f"{info['sequence']}({check['n']})",
                    check["claim"],
                    check["method"],
                    work,
                    _seconds(done.cpu_seconds),
                    outcome,
                    ", ".join(f"`{sequence}/{name}`" for name in files),
                ]
            )
    head = ["term", "claim", "method", "work", "CPU-s", "outcome", "files"]
    return _table(head, rows)


def runs_table(results: Path) -> str:
    """One row per run under way (``"runs"`` in ``sequence.json``): how far its journal
    is, and what the whole is projected to cost where its chunks were shuffled."""
    rows = []
    for sequence in SEQUENCES:
        info = about(results / sequence)
        for run in info.get("runs", []):
            done = progress(results / sequence / run["journal"])
            rows.append(
                [
                    f"{info['sequence']}({run['n']})",
                    run["claim"],
                    run["method"],
                    f"`{run['command']}`",
                    done,
                    f"`{sequence}/{run['journal']}`",
                ]
            )
    head = ["term", "claim", "method", "command", "done so far", "journal"]
    return _table(head, rows)


def glance_table(results: Path) -> str:
    """Each sequence: its terms here by kind, and where the OEIS entry stops."""
    rows = []
    for sequence in SEQUENCES:
        info = about(results / sequence)
        kinds: dict[str, list[int]] = {kind: [] for kind in STATUS}
        for n, entry in info["terms"].items():
            kinds[entry["status"]].append(int(n))
        rows.append(
            [
                info["sequence"],
                f"n ≤ {info['oeis_through']}",
                *(_span(sorted(kinds[kind])) for kind in STATUS),
            ]
        )
    head = ["sequence", "OEIS entry", "new", "new proof of a known value", "confirmed"]
    return _table(head, rows)


def bfile(results: Path, sequence: str) -> str:
    """A sequence's b-file lines ("n a(n)"): the terms of the reference table (the OEIS
    entry's) with the records' after them; ``ValueError`` where the two disagree."""
    values = dict(terms(sequence.upper()))
    info = about(results / sequence)
    for n, record in term_records(results / sequence).items():
        value = record["classes_count"] if "classes_count" in record else term_value(info, record)
        if values.setdefault(n, value) != value:
            raise ValueError(f"{sequence}/n{n}.json says {value}, the OEIS entry {values[n]}")
    return "```\n" + "".join(f"{n} {values[n]}\n" for n in sorted(values)) + "```\n"


def _shown(value: object) -> str:
    """A value as the tables show it: counts with thousands separators."""
    return f"{value:,}" if isinstance(value, int) and value >= 10_000 else str(value)


def _span(values: list[int]) -> str:
    """1, 2, 3, 5 as "1..3, 5"; nothing as "none"."""
    if not values:
        return "none"
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}..{r[-1]}" for r in runs)


TABLES: dict[str, Callable[[Path], str]] = {
    "glance": glance_table,
    "a250000": lambda results: terms_table(results, "a250000"),
    "a260680": classes_table,
    "a279405": lambda results: terms_table(results, "a279405"),
    "a308632": lambda results: terms_table(results, "a308632"),
    **{s: partial(terms_table, sequence=s) for s in ("a103330", "a103331", "a129552", "a129554")},
    "checks": checks_table,
    "runs": runs_table,
    **{f"bfile-{s}": partial(bfile, sequence=s) for s in SEQUENCES},
}
"""Each table's name (in the README, or a sequence's ``oeis.md``) and what makes it."""


def rendered(readme: str, results: Path) -> str:
    """A page with every table made again from the records; ``ValueError`` for a
    marker that names no table."""

    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in TABLES:
            raise ValueError(f"the README names a table {name!r} this command does not make")
        return match[1] + TABLES[name](results) + match[4]

    return BLOCK.sub(fill, readme)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    parser = argparse.ArgumentParser(prog=prog("tables"), description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"), help="the folder")
    parser.add_argument("--check", action="store_true", help="exit 1 when a table is stale")
    args = parser.parse_args(argv)
    pages = [args.results / "README.md", *sorted(args.results.glob("*/oeis.md"))]
    try:
        texts = {page: page.read_text(encoding="utf-8") for page in pages}
        fresh = {page: rendered(text, args.results) for page, text in texts.items()}
    except (OSError, ValueError, KeyError) as error:
        print(f"tables: {error}", file=sys.stderr)
        return 2
    stale = [page for page in pages if fresh[page] != texts[page]]
    if args.check:
        for page in stale:
            print(f"tables: {page} differs from its records; run `{prog('tables')}`")
        if not stale:
            counted = "1 page" if len(pages) == 1 else f"{len(pages)} pages"
            print(
                f"tables: every table of {counted} ({pages[0]} and each sequence's oeis.md)"
                " is up to date with its records"
            )
        return 1 if stale else 0
    for page in stale:
        page.write_text(fresh[page], encoding="utf-8")
    print(f"{len(stale)} of {len(pages)} pages written from the records")
    return 0
