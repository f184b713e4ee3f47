"""Prove a certificate's cubes again, checking each proof as soon as it is made.

    python -m chessplace.research reprove-certificate results/a308632/n12-certificate.json \
        --workers 2 --journal results/a308632/n12-proofs.jsonl

A certificate cut into hundreds of cubes has gigabytes of proofs (A308632(12):
842 proofs, 4.7 GB gzipped), more than a repository keeps, and ``chessplace
check`` needs them on disk. This script needs only the published manifest: the
problem, the claim and the cubes. From the problem it regenerates the refuted
formula with the checker's code (each board symmetry confirmed by the checker's
test before its lex-leader clauses are used) and requires the SHA-256 the
manifest lists for its formula file; it checks that the cubes cover every
assignment (the cover proof, checked by dratify); then, for each cube in a
child process of its own, Glucose 4 refutes the formula with the cube as unit
clauses, logging a DRUP proof, and dratify checks that proof against the
regenerated formula at once. The proof is dropped and the cube is journaled
(its proof's steps, the seconds proving and checking), so a stopped run
(Ctrl-C, SIGTERM: exit 3) resumes where it was.

Exit 0 when every cube's proof checks, 1 when one does not (or a cube is
satisfiable), 2 for bad input, 4 when a child died without an answer (out of
memory?) or a proof is too large to check in the memory here, which prove
nothing either way. The witness is not read here: each
published term's witness is verified on its own (the ``term`` command).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import sys
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import NamedTuple

from chessplace.certificates.checker.formula import (
    Clause,
    Formula,
    claim_bounds,
    refutation_comments,
    refutation_formula,
    refuted_statement,
    rule_clauses,
)
from chessplace.certificates.checker.proofs import NoProofChecker, checker_name
from chessplace.certificates.checker.spec import Spec, SpecError
from chessplace.certificates.checker.verdict import (
    FORMAT,
    MAX_MANIFEST_BYTES,
    CubeFormula,
    Rejected,
    cover_fault,
    listed_cubes,
)
from chessplace.certificates.writer.cubes import cover_proof
from chessplace.certificates.writer.proving import PROOF_SOLVER
from chessplace.certificates.writer.symmetries import confirmed_symmetries
from chessplace.research.checked_proofs import SATISFIABLE, refute_and_check
from chessplace.research.commands import prog
from chessplace.research.cube_solving import formula_digest
from chessplace.runtime.journal import Journal, Schema, natural
from chessplace.runtime.lifeline import fan_out


class Checked(NamedTuple):
    """A cube whose fresh proof dratify accepted (a journal record)."""

    steps: int
    proving: float
    checking: float


_STOP = {"asked": False}


class BadInput(ValueError):
    """The manifest cannot be read, or describes another formula."""


class Certificate(NamedTuple):
    """What the script takes from a manifest, the formula regenerated from its problem."""

    spec: Spec
    statement: str
    formula: Formula
    cubes: list[list[int]]
    published_steps: list[int]
    digest: str  # the manifest's SHA-256


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    args = _arguments(argv)
    started = time.perf_counter()
    try:
        checker = checker_name()  # NoProofChecker without dratify
        import pysat.solvers  # noqa: F401  (the children's Glucose)

        certificate = _read(args.manifest)
        keys = [_key(number, len(certificate.cubes)) for number in range(len(certificate.cubes))]
        journal = Journal(args.journal, _header(certificate), _schema(set(keys)))
    except (ValueError, OSError, ImportError, NoProofChecker) as error:
        print(f"reprove-certificate: {error}", file=sys.stderr)  # also: another run's journal
        return 2
    spec, statement, formula, cubes = (
        certificate.spec,
        certificate.statement,
        certificate.formula,
        certificate.cubes,
    )
    before = len(journal.done)
    try:
        fault = cover_fault(spec, rule_clauses(spec), cubes, cover_proof(cubes))
        if fault:
            print(f"rejected: the cubes' cover proof {fault}")
            return 1
        for sig in (signal.SIGINT, signal.SIGTERM):  # from here a stop keeps what is done
            signal.signal(sig, _stop)
        print(
            f"refuting {statement}: {len(formula.clauses):,} clauses, {len(cubes):,} cubes "
            f"covering every assignment; {before:,} proved and checked before",
            flush=True,
        )
        todo = [
            (key, cube) for key, cube in zip(keys, cubes, strict=True) if key not in journal.done
        ]
        verdict = _prove_and_check(CubeFormula.of(formula), formula.clauses, todo, journal, args)
    finally:
        journal.close()
    if verdict is not None:
        return verdict
    records = [journal.done[key] for key in keys]
    same = sum(
        r.steps == steps for r, steps in zip(records, certificate.published_steps, strict=True)
    )
    print(
        f"confirmed: {statement} is unsatisfiable: all {len(cubes):,} cubes refuted by "
        f"{PROOF_SOLVER}, every DRUP proof ({sum(r.steps for r in records):,} steps) checked "
        f"by {checker}; {sum(r.proving for r in records):,.0f} CPU-s proving, "
        f"{sum(r.checking for r in records):,.0f} checking ({len(cubes) - before:,} cubes "
        f"in {time.perf_counter() - started:,.0f} s this run); {same:,} proofs have the "
        "manifest's number of steps"
    )
    return 0


def _schema(keys: set[str]) -> Schema:
    """The journal: one record per cube whose proof was checked, keyed by its number."""
    return Schema(
        key="cube",
        record=Checked,
        valid_key=keys.__contains__,
        valid=lambda r: (
            isinstance(r.steps, int)
            and r.steps > 0
            and all(isinstance(s, float) and s >= 0 for s in (r.proving, r.checking))
        ),
        work="proof check",
        unit="cube",
        redone="proved and checked again",
    )


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog("reprove-certificate"), description=__doc__.splitlines()[0]
    )
    parser.add_argument("manifest", type=Path, help="a certificate's manifest.json")
    parser.add_argument("--workers", type=_workers, default=1, help="child processes at once")
    parser.add_argument("--journal", type=Path, required=True, help="checked cubes, resumable")
    return parser.parse_args(argv)


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError(f"expected 1 to 256 workers, not {text!r}")
    return value


def _read(path: Path) -> Certificate:
    """The manifest's problem, claim and cubes, with the formula regenerated from them;
    :class:`BadInput` unless its formula file's SHA-256 is the regenerated one's."""
    with path.open("rb") as file:
        raw = file.read(MAX_MANIFEST_BYTES + 1)
    try:
        manifest = json.loads(raw) if len(raw) <= MAX_MANIFEST_BYTES else None
    except (ValueError, RecursionError):
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BadInput(f"{path}: not a {FORMAT} manifest")
    entry, claim, files = (manifest.get(key) for key in ("refutation", "claim", "files"))
    if not isinstance(entry, dict) or not isinstance(files, dict):
        raise BadInput(f"{path}: the manifest holds no refutation")
    if not isinstance(claim, dict) or not (
        claim.get("kind") == "infeasible"
        or (claim.get("kind") == "optimum" and natural(claim.get("value")))
    ):
        raise BadInput(f"{path}: the claim is neither an optimum nor infeasibility")
    try:
        spec = Spec.from_data(manifest.get("problem"))
        listed = listed_cubes(spec, entry)
    except (SpecError, Rejected) as error:
        raise BadInput(f"{path}: {error}") from None
    bounds = claim_bounds(spec, claim)
    formula = refutation_formula(spec, bounds, confirmed_symmetries(spec, bounds))
    text = formula.dimacs(refutation_comments(spec, bounds)).encode("utf-8")
    if hashlib.sha256(text).hexdigest() != files.get(entry.get("formula")):
        raise BadInput(f"{path}: its formula is not the one regenerated from its problem")
    statement = refuted_statement(spec, bounds)
    steps = [proof.get("steps") for _, proof in listed]
    return Certificate(
        spec,
        statement,
        formula,
        [cube for cube, _ in listed],
        [s if natural(s) else 0 for s in steps],
        hashlib.sha256(raw).hexdigest(),
    )


def _header(certificate: Certificate) -> dict[str, object]:
    """The journal's header: the manifest and the formula, pinned by hashes."""
    return {"manifest": certificate.digest, "formula": formula_digest(certificate.formula.clauses)}


def _key(number: int, cubes: int) -> str:
    return str(number).zfill(len(str(cubes - 1)))


def _prove_and_check(
    base: CubeFormula,
    clauses: list[Clause],
    todo: list[tuple[str, list[int]]],
    journal: Journal,
    args: argparse.Namespace,
) -> int | None:
    """Prove and check every cube of ``todo`` in child processes, journaling each one
    accepted; None when all were, else the exit code after a line saying why: 1 for a
    satisfiable cube or a rejected proof, 3 for a stop (what was checked is kept), 4
    for a child that died without an answer or a proof too large to check here
    (which prove nothing either way)."""
    jobs = [(base, clauses, cube) for _, cube in todo]
    children = fan_out(refute_and_check, jobs, lambda: args.workers, lambda: _STOP["asked"])
    with closing(children) as done:
        for index, answer in done:
            key = todo[index][0]
            if _STOP["asked"]:  # a stop sent to the process group kills the children too
                break
            if answer is None:
                print(f"not checked: the process proving cube {key} died (out of memory?)")
                return 4
            if answer == SATISFIABLE:
                print(f"rejected: cube {key} is satisfiable: the claim is wrong")
                return 1
            if answer.unchecked:
                print(f"not checked: cube {key}: the proof {answer.unchecked}")
                return 4
            if answer.fault:
                print(f"rejected: cube {key}: the proof {answer.fault}")
                return 1
            steps, proving, checking = answer.steps, answer.proving, answer.checking
            journal.record(key, steps, proving, checking)
            if len(journal.done) % 20 == 0 or proving + checking > 60:
                print(f"{len(journal.done):,} cubes proved and checked", flush=True)
    left = sum(key not in journal.done for key, _ in todo)
    if left:  # only a stop ends the children early without an answer above
        print(
            f"stopped: {left:,} cubes left, {len(journal.done):,} checked, kept in {journal.path}"
        )
        return 3
    return None


def _stop(signum: int, frame: object) -> None:
    _STOP["asked"] = True
