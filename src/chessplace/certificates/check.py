"""``chessplace check DIR``: accept or reject a certificate, naming what failed.

Trusted side. It reads the manifest's problem and claim, checks every file's
SHA-256, checks the witness with its own attack rules, confirms that each
listed permutation is a symmetry, regenerates the refuted formula itself
(lex-leader clauses included) and compares it with the shipped one, confirms
that the cubes cover every assignment (all sign patterns of the split
variables), and hands each cube's proof with the *regenerated* formula and the
cube's literals as unit clauses to an independent DRUP checker.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chessplace.certificates.formula import (
    claim_bounds,
    named_variables,
    refutation_formula,
    rule_clauses,
    symmetry_fault,
)
from chessplace.certificates.proofcheck import checker_name, proof_fault
from chessplace.certificates.spec import Spec, SpecError
from chessplace.certificates.witness import objective, read_witness, witness_fault

FORMAT = "chessplace-certificate/2"
MAX_MANIFEST_BYTES = 1 << 20
MAX_SPLIT = 16
"""The most variables cubes may be split on (2**16 cubes)."""


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


def _manifest(directory: Path) -> dict[str, Any]:
    if not directory.is_dir():
        raise NotACertificate(f"{directory}: no such directory")
    path = directory / "manifest.json"
    if not path.is_file():
        raise NotACertificate(f"{directory}: no manifest.json, not a certificate")
    try:
        data = json.loads(path.read_bytes()[:MAX_MANIFEST_BYTES])
    except (ValueError, UnicodeDecodeError):
        raise NotACertificate(f"{path}: not JSON, not a certificate") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotACertificate(f"{path}: not a {FORMAT} manifest")
    return data


def _check(directory: Path, manifest: dict[str, Any]) -> str:
    contents = _hashed_files(directory, manifest.get("files"))
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
    parts = [f"{manifest.get('puzzle', 'problem')} on {spec.rows}×{spec.cols}: {claimed}"]
    if kind != "infeasible":
        parts.append(_check_witness(spec, claim, manifest, contents))
    if kind != "feasible":
        parts.append(_check_refutation(spec, claim, manifest, contents))
    return ", ".join(parts)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _hashed_files(directory: Path, files: Any) -> dict[str, bytes]:
    """Every listed file's bytes, once its SHA-256 matches the manifest."""
    if not isinstance(files, dict):
        raise Rejected("manifest: no 'files' with their SHA-256")
    contents: dict[str, bytes] = {}
    for name, digest in files.items():
        if not isinstance(name, str) or "/" in name or "\\" in name or name.startswith("."):
            raise Rejected(f"manifest: {name!r} is not a file name in the directory")
        path = directory / name
        if not path.is_file():
            raise Rejected(f"{name} is missing")
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            raise Rejected(f"{name}: SHA-256 differs from the manifest")
        contents[name] = data
    return contents


def _listed(contents: dict[str, bytes], entry: Any, key: str, what: str) -> bytes:
    name = entry.get(key) if isinstance(entry, dict) else None
    if not isinstance(name, str):
        raise Rejected(f"manifest: no {what}")
    if name not in contents:
        raise Rejected(f"{name} ({what}) is not among the hashed files")
    return contents[name]


def _check_witness(
    spec: Spec, claim: dict[str, Any], manifest: dict[str, Any], contents: dict[str, bytes]
) -> str:
    entry = manifest.get("witness")
    name = entry.get("file") if isinstance(entry, dict) else "witness"
    try:
        armies = read_witness(spec, json.loads(_listed(contents, entry, "file", "witness")))
    except ValueError as error:
        raise Rejected(f"witness {name}: {error}") from None
    fault = witness_fault(spec, armies)
    if fault:
        raise Rejected(f"witness {name}: {fault}")
    value = objective(spec, armies)
    if claim["kind"] == "optimum" and value != claim["value"]:
        raise Rejected(f"witness {name}: reaches {value}, the claim is {claim['value']}")
    return f"witness valid ({value})"


def _check_refutation(
    spec: Spec, claim: dict[str, Any], manifest: dict[str, Any], contents: dict[str, bytes]
) -> str:
    entry = manifest.get("refutation")
    shipped = _listed(contents, entry, "formula", "refuted formula")
    assert isinstance(entry, dict)
    bounds = claim_bounds(spec, claim)
    permutations = _permutations(_listed(contents, entry, "symmetries", "symmetries"))
    rules = rule_clauses(spec)
    for number, permutation in enumerate(permutations, 1):
        fault = symmetry_fault(spec, rules, bounds, permutation)
        if fault:
            raise Rejected(f"symmetry {number} is not a symmetry of the formula: it {fault}")
    formula = refutation_formula(spec, bounds, permutations)
    if _clauses_text(shipped) != _clauses_text(formula.dimacs().encode()):
        raise Rejected(f"{entry['formula']} differs from the formula regenerated from the problem")
    cubes = _cubes(spec, entry)
    for cube, proof_entry in cubes:
        proof = _listed(contents, proof_entry, "proof", "proof")
        text = refutation_formula(spec, bounds, permutations, cube).dimacs()
        fault = proof_fault(text, proof.decode("utf-8", errors="replace"))
        if fault:
            raise Rejected(f"{proof_entry['proof']}: {fault}")
    statement = "; ".join(bound.describe(spec) for bound in bounds) or "the rules alone"
    split = f", {len(cubes)} cubes covering all" if len(cubes) > 1 else ""
    return (
        f"refuted: {statement} ({len(formula.clauses):,} clauses, "
        f"{len(permutations)} symmetries confirmed{split}, proofs checked by {checker_name()})"
    )


def _cubes(spec: Spec, entry: dict[str, Any]) -> list[tuple[list[int], dict[str, Any]]]:
    """Each cube with its proof's entry, once the cubes are seen to cover every
    assignment: each fixes every split variable, in the split's order, and all
    2**k sign patterns are there (no split: one empty cube)."""
    split, proofs = entry.get("split"), entry.get("proofs")
    if not isinstance(split, list) or not all(_is_count(v) for v in split):
        raise Rejected("cover: no list of split variables")
    if len(split) > MAX_SPLIT or len(set(split)) != len(split):
        raise Rejected(f"cover: expected at most {MAX_SPLIT} distinct split variables")
    if not all(1 <= v <= named_variables(spec) for v in split):
        raise Rejected("cover: a split variable is not a placement or line variable")
    if not isinstance(proofs, list) or not all(isinstance(p, dict) for p in proofs):
        raise Rejected("cover: no list of proofs with their cubes")
    cubes: list[tuple[list[int], dict[str, Any]]] = []
    patterns: set[tuple[bool, ...]] = set()
    for number, proof in enumerate(proofs, 1):
        cube = proof.get("cube")
        if (
            not isinstance(cube, list)
            or len(cube) != len(split)
            or not all(
                isinstance(lit, int) and abs(lit) == v for lit, v in zip(cube, split, strict=True)
            )
        ):
            raise Rejected(f"cover: cube {number} does not fix each split variable in order")
        patterns.add(tuple(lit > 0 for lit in cube))
        cubes.append((cube, proof))
    if len(patterns) != 2 ** len(split):
        raise Rejected(
            f"cover: the cubes give {len(patterns)} of the {2 ** len(split)} sign patterns"
            f" of the {len(split)} split variables, so they do not cover every assignment"
        )
    return cubes


def _permutations(data: bytes) -> list[list[int]]:
    try:
        listed = json.loads(data).get("permutations")
    except (ValueError, AttributeError):
        listed = None
    if not isinstance(listed, list) or not all(
        isinstance(p, list) and all(_is_count(v) for v in p) for p in listed
    ):
        raise Rejected("symmetries: expected a list of permutations of variables")
    return listed


def _clauses_text(dimacs: bytes) -> bytes:
    """The formula without its comment lines."""
    return b"\n".join(line for line in dimacs.splitlines() if not line.startswith(b"c"))
