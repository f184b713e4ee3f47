"""``chessplace check DIR``: accept or reject a certificate, naming what failed.

Trusted side. It reads the manifest's problem and claim, checks the SHA-256 of
every file it reads (as it reads it: a proof is read by the process that checks
it, so the proofs never need to fit in memory together), checks the witness
with its own attack rules, confirms that each listed permutation is a symmetry,
regenerates the refuted formula itself (lex-leader clauses included) and
compares it with the shipped one, confirms that the cubes cover every
assignment (a DRUP proof that the negated cubes and the rules leave none), and
hands each cube's proof with the *regenerated* formula and the cube's literals
as unit clauses to an independent DRUP checker, in worker processes over every
core (they die with this process).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from chessplace.certificates.checker.formula import (
    Clause,
    Formula,
    claim_bounds,
    named_variables,
    refutation_formula,
    refuted_statement,
    rule_clauses,
    symmetry_fault,
)
from chessplace.certificates.checker.proofs import (
    MAX_PROOF_BYTES,
    checker_name,
    proof_fault,
    unpacked,
)
from chessplace.certificates.checker.spec import (
    Spec,
    SpecError,
    Square,
    describe_moves,
    parse_moves,
    square_name,
)
from chessplace.certificates.checker.witness import objective, read_witness, witness_fault
from chessplace.runtime.lifeline import fan_out

FORMAT = "chessplace-certificate/3"
MAX_MANIFEST_BYTES = 1 << 26
MAX_CUBES = 1 << 20
MAX_FILE_BYTES = MAX_PROOF_BYTES
"""The largest file a certificate may hold (a proof gzipped or not; 4 GiB)."""
Job = tuple[list[int], "ListedFile"]
"""A cube and its proof's file (read by the process that checks it)."""
MAX_PERMUTATIONS = 1024
"""Symmetries a certificate may list: a board's 8 times the renumberings of its armies
(written certificates list at most 8 × 4! − 1 = 191, for four equal armies)."""


class NotACertificate(ValueError):
    """The directory holds no certificate this checker reads (bad usage)."""


class Rejected(Exception):
    """The certificate does not prove its claim; the message names the fault."""


@dataclass(frozen=True)
class Verdict:
    certified: bool
    line: str


def check_certificate(directory: Path) -> Verdict:
    """The verdict on the certificate in ``directory``; :class:`NotACertificate` when
    there is none to judge."""
    started = time.perf_counter()
    manifest = _manifest(directory)
    try:
        summary = _check(directory, manifest)
    except Rejected as fault:
        return Verdict(False, f"rejected: {fault}")
    seconds = time.perf_counter() - started
    return Verdict(True, f"certified: {summary} · checked in {seconds:.1f} s")


def read_at_most(file: BinaryIO, most: int) -> bytes:
    """The file's bytes, or ``most + 1`` of them when it is longer: a buffer the size of
    the file, not of ``most`` (reading ``most + 1`` at once asked for 4 GiB for every
    file, which a process under a data-size limit cannot have)."""
    size = os.fstat(file.fileno()).st_size
    return file.read(min(size, most) + 1)


def _manifest(directory: Path) -> dict[str, Any]:
    if not directory.is_dir():
        what = "not a directory" if directory.exists() else "no such directory"
        raise NotACertificate(f"{directory}: {what}")
    path = directory / "manifest.json"
    if not path.is_file():
        raise NotACertificate(f"{directory}: no manifest.json, not a certificate")
    with path.open("rb") as file:
        raw = read_at_most(file, MAX_MANIFEST_BYTES)
    if len(raw) > MAX_MANIFEST_BYTES:
        raise NotACertificate(f"{path}: over {MAX_MANIFEST_BYTES:,} bytes, not a certificate")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise NotACertificate(f"{path}: not JSON, not a certificate") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotACertificate(f"{path}: not a {FORMAT} manifest")
    return data


def _check(directory: Path, manifest: dict[str, Any]) -> str:
    contents = _Files(directory, manifest.get("files"))
    try:
        spec = Spec.from_data(manifest.get("problem"))
    except SpecError as error:
        raise Rejected(f"problem: {error}") from None
    claim = manifest.get("claim")
    kind = claim.get("kind") if isinstance(claim, dict) else None
    if kind not in ("feasible", "infeasible", "optimum"):
        raise Rejected("claim: expected feasible, infeasible or optimum")
    assert isinstance(claim, dict)
    if kind == "optimum" and not _is_count(claim.get("value")):
        raise Rejected("claim: an optimum needs a value")
    claimed = {
        "feasible": "a placement exists",
        "infeasible": "no placement exists",
        "optimum": f"the {'maximum' if spec.maximize else 'minimum'} is {claim.get('value')}",
    }[kind]
    parts = [f"{_problem(spec, kind == 'optimum')}: {claimed}"]
    if kind != "infeasible":
        parts.append(_check_witness(spec, claim, manifest, contents))
    if kind != "feasible":
        parts.append(_check_refutation(spec, claim, manifest, contents))
    return ", ".join(parts)


def _problem(spec: Spec, objective: bool) -> str:
    """The problem as checked, every rule stated from the specification read (the
    manifest's puzzle name is not checked, so it is not repeated): the board, each
    army with its piece and bounds, which attacks are forbidden, coverage, equal
    armies, count rules, and what the claim's value measures."""
    armies = ", ".join(_army(army, max(spec.rows, spec.cols)) for army in spec.armies)
    if spec.no_attack is not None:
        rules = [_attacks(spec)]
    elif spec.independent:
        rules = ["no piece attacks any other"]
    elif len(spec.armies) > 1:
        rules = ["no army attacks another"]
    else:
        rules = ["pieces may attack one another"]
    if spec.counted_cover:
        rules.append(_cover(spec))
    elif spec.dominating:
        rules.append("every square occupied or attacked")
    if spec.equal_armies and len(spec.armies) > 1:
        rules.append("armies of equal size")
    rules += _count_rules(spec)
    scored = [spec.armies[i].name for i in spec.scored]
    measured = (
        f"the smallest of {', '.join(scored)}"
        if spec.equal_armies and len(scored) > 1
        else " + ".join(scored)
    )
    if objective:
        rules.append(f"{'maximising' if spec.maximize else 'minimising'} {measured}")
    board = f"{spec.rows}×{spec.cols} flat board{_position(spec)}"
    return f"{board}; {armies}; {'; '.join(rules)}"


def _attacks(spec: Spec) -> str:
    """The attack pairs as checked: which army may not attack which, whether an army's
    own pieces may attack one another, and that pieces block rides."""
    assert spec.no_attack is not None
    names = [army.name for army in spec.armies]
    pairs = [f"{names[a]} may not attack {names[b]}" for a, b in spec.no_attack]
    stated = ", ".join(pairs) + ", other armies may" if pairs else "armies may attack one another"
    own = (
        "no piece attacks one of its own army"
        if spec.independent
        else "pieces of one army may attack one another"
    )
    return f"{stated}; {own}; rides stop at the first piece"


def _cover(spec: Spec) -> str:
    """How many times each square is covered, as checked."""
    low, high = spec.cover
    times = f"exactly {low}" if low == high else f"at least {low}"
    if high is not None and high != low:
        times = f"{low} to {high}" if low else f"at most {high}"
    word = "time" if (high if high is not None else low) == 1 else "times"
    return (
        f"every square covered {times} {word} (its own piece and each piece attacking it, "
        "rides stopping at the first piece)"
    )


SHOWN_COUNT_RULES = 6
"""How many count rules (or families of them) the verdict states before it counts."""


def _count_rules(spec: Spec) -> list[str]:
    """The count rules as checked, those of one army and bounds on every rank (file)
    stated once: ``exactly 1 piece on each rank``, ``white at most 2 on a1 b1 c1``."""
    ranks = {tuple((f, r) for f in range(spec.cols)): f"rank {r + 1}" for r in range(spec.rows)}
    files = {
        tuple((f, r) for r in range(spec.rows)): f"file {square_name((f, 0))[:-1]}"
        for f in range(spec.cols)
    }
    kinds: dict[tuple[int | None, int, int | None], list[tuple[Square, ...]]] = {}
    for count in spec.counts:
        kinds.setdefault((count.army, count.at_least, count.at_most), []).append(count.squares)
    stated: list[str] = []
    for (army, low, high), groups in kinds.items():
        who = "piece" if (high if high is not None else low) == 1 else "pieces"
        who = who if army is None else f"{spec.armies[army].name} {who}"
        if low == high:
            bounds = f"exactly {low}"
        elif high is None:
            bounds = f"at least {low}"
        else:
            bounds = f"{low} to {high}" if low else f"at most {high}"
        rest = list(groups)
        for family, name in ((ranks, "each rank"), (files, "each file")):
            if len(family) > 1 and all(line in rest for line in family):
                stated.append(f"{bounds} {who} on {name}")
                rest = [group for group in rest if group not in family]
        for group in rest:
            named = ranks.get(group) or files.get(group)
            if named is None:
                whole = len(group) == spec.squares
                named = "the board" if whole else _listed(list(group))
            stated.append(f"{bounds} {who} on {named}")
    more = len(stated) - SHOWN_COUNT_RULES
    if more > 0:
        stated = [*stated[:SHOWN_COUNT_RULES], f"and {more} more count rules"]
    return stated


SHOWN_SQUARES = 12
"""How many blocked squares, and given pieces, the verdict names before it counts."""


def _position(spec: Spec) -> str:
    """`` (blocked a1 c3; white given d1)``: the position as checked, in canonical
    order; empty without one."""
    parts = []
    if spec.blocked:
        parts.append(f"blocked {_listed(sorted(spec.blocked, key=spec.index))}")
    for index, army in enumerate(spec.armies):
        squares = sorted((s for a, s in spec.given if a == index), key=spec.index)
        if squares:
            parts.append(f"{army.name} given {_listed(squares)}")
    return f" ({'; '.join(parts)})" if parts else ""


def _listed(squares: list[Square]) -> str:
    shown = " ".join(square_name(square) for square in squares[:SHOWN_SQUARES])
    more = len(squares) - SHOWN_SQUARES
    return f"{shown} and {more} more" if more > 0 else shown


def _army(army: Any, longest: int) -> str:
    """An army as checked: its name, the moves the checker read (not the manifest's
    text), its bounds."""
    if army.maximum is None:
        count = f"at least {army.minimum}" if army.minimum else "any number"
    elif army.maximum == army.minimum:
        count = f"exactly {army.minimum}"
    else:
        count = f"{army.minimum} to {army.maximum}"
    fixed = ", fixed: not counted by the objective" if army.fixed else ""
    moves = describe_moves(parse_moves(army.betza), longest)
    return f"{army.name} moving {moves} ({count}{fixed})"


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class _Files:
    """The files the manifest lists with their SHA-256. Each is read only when it is
    used, and its bytes are accepted only when their SHA-256 is the listed one, so
    that a certificate of gigabytes of proofs holds one proof per core in memory."""

    def __init__(self, directory: Path, files: Any) -> None:
        if not isinstance(files, dict):
            raise Rejected("manifest: no 'files' with their SHA-256")
        for name in files:
            if not isinstance(name, str) or "/" in name or "\\" in name or name.startswith("."):
                raise Rejected(f"manifest: {name!r} is not a file name in the directory")
            try:
                present = (directory / name).is_file()
            except OSError as error:  # a name too long, a directory it may not enter
                raise Rejected(f"{name[:80]} cannot be read ({error.strerror or error})") from None
            if not present:
                raise Rejected(f"{name} is missing")
        self.directory = directory
        self.digests: dict[str, Any] = files

    def listed(self, entry: Any, key: str, what: str) -> ListedFile:
        """The file that ``entry[key]`` names, unread."""
        name = entry.get(key) if isinstance(entry, dict) else None
        if not isinstance(name, str):
            raise Rejected(f"manifest: no {what}")
        if name not in self.digests:
            raise Rejected(f"{name} ({what}) is not among the hashed files")
        return ListedFile(name, self.directory / name, str(self.digests[name]))

    def read(self, entry: Any, key: str, what: str) -> bytes:
        """The bytes of the file that ``entry[key]`` names, once their SHA-256 matches."""
        listed = self.listed(entry, key, what)
        try:
            return listed.read()
        except ValueError as error:
            raise Rejected(f"{listed.name}: {error}") from None


@dataclass(frozen=True)
class ListedFile:
    """A listed file: its name, path and the SHA-256 the manifest gives it."""

    name: str
    path: Path
    digest: str

    def read(self) -> bytes:
        """Its bytes; ValueError when they are not the listed ones, or unreadable."""
        try:
            with self.path.open("rb") as file:
                data = read_at_most(file, MAX_FILE_BYTES)
        except OSError as error:
            raise ValueError(f"cannot be read ({error.strerror or error})") from None
        if len(data) > MAX_FILE_BYTES:
            raise ValueError(f"is over {MAX_FILE_BYTES:,} bytes")
        if hashlib.sha256(data).hexdigest() != self.digest:
            raise ValueError("SHA-256 differs from the manifest")
        return data


def _check_witness(
    spec: Spec, claim: dict[str, Any], manifest: dict[str, Any], contents: _Files
) -> str:
    entry = manifest.get("witness")
    name = entry.get("file") if isinstance(entry, dict) else "witness"
    try:
        armies = read_witness(spec, json.loads(contents.read(entry, "file", "witness")))
    except (ValueError, RecursionError) as error:
        raise Rejected(f"witness {name}: {error}") from None
    fault = witness_fault(spec, armies)
    if fault:
        raise Rejected(f"witness {name}: {fault}")
    value = objective(spec, armies)
    if claim["kind"] == "optimum" and value != claim["value"]:
        raise Rejected(f"witness {name}: reaches {value}, the claim is {claim['value']}")
    return f"witness valid ({value})"


def _check_refutation(
    spec: Spec, claim: dict[str, Any], manifest: dict[str, Any], contents: _Files
) -> str:
    entry = manifest.get("refutation")
    shipped = contents.read(entry, "formula", "refuted formula")
    assert isinstance(entry, dict)
    bounds = claim_bounds(spec, claim)
    permutations = _permutations(contents.read(entry, "symmetries", "symmetries"))
    rules = rule_clauses(spec)
    for number, permutation in enumerate(permutations, 1):
        fault = symmetry_fault(spec, rules, bounds, permutation)
        if fault:
            raise Rejected(f"symmetry {number} is not a symmetry of the formula: it {fault}")
    formula = refutation_formula(spec, bounds, permutations)
    base = CubeFormula.of(formula)
    if _clauses_text(shipped) != _clauses_text(base.with_units([]).encode()):
        raise Rejected(f"{entry['formula']} differs from the formula regenerated from the problem")
    cubes = listed_cubes(spec, entry)
    if len(cubes) > 1 or cubes[0][0]:  # one empty cube covers all by itself
        _check_cover(spec, rules, [cube for cube, _ in cubes], entry, contents)
    jobs = [(cube, contents.listed(proof_entry, "proof", "proof")) for cube, proof_entry in cubes]
    for name, fault in _proof_faults(base, jobs):
        if fault:
            raise Rejected(f"{name}: {fault}")
    statement = refuted_statement(spec, bounds)
    split = f", {len(cubes):,} cubes covering all" if len(cubes) > 1 else ""
    return (
        f"refuted: {statement} ({len(formula.clauses):,} clauses, "
        f"{len(permutations)} symmetries confirmed{split}, proofs checked by {checker_name()})"
    )


def listed_cubes(spec: Spec, entry: dict[str, Any]) -> list[tuple[list[int], dict[str, Any]]]:
    """Each cube (literals of placement and line variables) with its proof's entry,
    once: a cube listed again with the same proof is the same claim (5,000 copies of
    one took 360 s to check again and again)."""
    proofs = entry.get("proofs")
    if not isinstance(proofs, list) or not all(isinstance(p, dict) for p in proofs):
        raise Rejected("cover: no list of proofs with their cubes")
    if not 1 <= len(proofs) <= MAX_CUBES:
        raise Rejected(f"cover: expected 1 to {MAX_CUBES:,} cubes")
    variables = named_variables(spec)
    cubes: list[tuple[list[int], dict[str, Any]]] = []
    seen: set[tuple[tuple[int, ...], str]] = set()
    for number, proof in enumerate(proofs, 1):
        cube = proof.get("cube")
        if not isinstance(cube, list) or not all(
            isinstance(lit, int) and not isinstance(lit, bool) and 1 <= abs(lit) <= variables
            for lit in cube
        ):
            raise Rejected(f"cover: cube {number} is not a list of placement and line literals")
        key = (tuple(sorted(set(cube))), str(proof.get("proof")))
        if key not in seen:
            seen.add(key)
            cubes.append((cube, proof))
    return cubes


def _check_cover(
    spec: Spec,
    rules: Sequence[Clause],
    cubes: list[list[int]],
    entry: dict[str, Any],
    contents: _Files,
) -> None:
    """The cubes cover every assignment of the rules: the rules and the negation of
    every cube are refuted by the cover proof (so each model of the formula lies in
    some cube, whose own proof refutes it)."""
    data = contents.read(entry, "cover", "cover proof")
    name = entry["cover"]
    try:
        fault = cover_fault(spec, rules, cubes, unpacked(name, data))
    except ValueError as error:
        fault = str(error)
    if fault:
        raise Rejected(f"cover: {name} {fault}, so the {len(cubes):,} cubes may leave a gap")


def cover_fault(
    spec: Spec, rules: Sequence[Clause], cubes: list[list[int]], proof_text: str
) -> str | None:
    """Why the DRUP proof does not refute the rules with every cube negated (so the
    cubes may leave an assignment uncovered), or None when it does."""
    cover = Formula(named_variables(spec))
    cover.clauses = [*rules, *(tuple(-lit for lit in cube) for cube in cubes)]
    return proof_fault(cover.dimacs(), proof_text)


def _proof_faults(base: CubeFormula, jobs: list[Job]) -> Iterator[tuple[str, str | None]]:
    """Each proof's name and fault (None when it refutes the formula with its cube),
    in order; over every core when there are several proofs, in one child process
    per proof (:mod:`chessplace.runtime.lifeline`: they die with the checker). A child that
    dies (the OOM killer, a signal) is a rejection."""
    cores = min(len(jobs), len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    if cores <= 1:
        yield from (_cube_fault(base, job) for job in jobs)
        return
    finished: dict[int, tuple[str, str | None]] = {}
    given = 0
    with closing(fan_out(_check_in_child, [(base, job) for job in jobs], lambda: cores)) as done:
        for index, answer in done:
            if answer is None:
                raise Rejected(
                    "a proof-checking process died (out of memory?), so not every proof was checked"
                )
            finished[index] = answer
            while given in finished:
                yield finished.pop(given)
                given += 1


@dataclass(frozen=True)
class CubeFormula:
    """A formula as DIMACS clause lines, to add a cube's units to (what each cube's
    proof is checked against)."""

    variables: int
    clauses: int
    body: str

    @staticmethod
    def of(formula: Formula) -> CubeFormula:
        return CubeFormula.of_clauses(formula.variables, formula.clauses)

    @staticmethod
    def of_clauses(variables: int, clauses: Sequence[Sequence[int]]) -> CubeFormula:
        body = "".join(" ".join(map(str, (*clause, 0))) + "\n" for clause in clauses)
        return CubeFormula(variables, len(clauses), body)

    def with_units(self, cube: list[int]) -> str:
        units = "".join(f"{lit} 0\n" for lit in cube)
        return f"p cnf {self.variables} {self.clauses + len(cube)}\n{self.body}{units}"


def _cube_fault(base: CubeFormula, job: Job) -> tuple[str, str | None]:
    cube, proof = job
    try:
        return proof.name, proof_fault(base.with_units(cube), unpacked(proof.name, proof.read()))
    except ValueError as error:
        return proof.name, str(error)


def _check_in_child(sender: Any, base: CubeFormula, job: Job) -> None:
    """In a child: send the proof's name and fault."""
    sender.send(_cube_fault(base, job))
    sender.close()


def _permutations(data: bytes) -> list[list[int]]:
    try:
        listed = json.loads(data).get("permutations")
    except (ValueError, AttributeError, RecursionError):
        listed = None
    if not isinstance(listed, list) or not all(
        isinstance(p, list) and all(_is_count(v) for v in p) for p in listed
    ):
        raise Rejected("symmetries: expected a list of permutations of variables")
    if len(listed) > MAX_PERMUTATIONS:
        raise Rejected(f"symmetries: more than {MAX_PERMUTATIONS} permutations")
    return listed


def _clauses_text(dimacs: bytes) -> bytes:
    """The formula without its comment lines."""
    return b"\n".join(line for line in dimacs.splitlines() if not line.startswith(b"c"))
