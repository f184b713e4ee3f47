"""Prove a certificate's cubes again, checking each proof as soon as it is made.

    python results/reprove_certificate.py results/a308632/certificate-n12.json \
        --workers 2 --journal results/checkpoints/a308632-n12-proofs.jsonl

A certificate cut into hundreds of cubes has gigabytes of proofs (A308632(12):
842 proofs, 4.7 GB gzipped), too many to keep, and ``chessplace check`` reads
them all at once. This script needs only the published manifest: the problem,
the claim and the cubes. From the problem it regenerates the refuted formula
with the checker's code (each board symmetry confirmed by the checker's test
before its lex-leader clauses are used) and requires the manifest's formula
size; it checks that the cubes cover every assignment (the cover proof, checked
by dratify); then, for each cube in a child process of its own, Glucose 4
refutes the formula with the cube as unit clauses, logging a DRUP proof, and
dratify checks that proof against the regenerated formula at once. The proof
is dropped and the cube is journaled (its proof's steps, the seconds proving and
checking), so a stopped run (Ctrl-C, SIGTERM: exit 3) resumes where it was.

Exit 0 when every cube's proof checks, 1 when one does not (or a cube is
satisfiable), 2 for bad input. The witness is not read here: each published
term's witness is verified on its own (``results/term.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

from cube_solving import run_script

from chessplace.certificates.check import CubeFormula, Rejected, cover_fault, listed_cubes
from chessplace.certificates.cubes import cover_proof
from chessplace.certificates.formula import (
    claim_bounds,
    refutation_formula,
    rule_clauses,
    symmetry_fault,
)
from chessplace.certificates.proofcheck import checker_name, proof_fault
from chessplace.certificates.proving import PROOF_SOLVER, drup_steps
from chessplace.certificates.spec import Spec, SpecError
from chessplace.certificates.symmetries import symmetry_permutations
from chessplace.journal import Journal, Schema
from chessplace.lifeline import fan_out

MAX_MANIFEST_BYTES = 1 << 26


class Checked(NamedTuple):
    """A cube whose fresh proof dratify accepted (a journal record)."""

    steps: int
    proving: float
    checking: float


SCHEMA = Schema(
    key="cube",
    record=Checked,
    valid_key=lambda key: key.isdigit(),
    valid=lambda r: (
        isinstance(r.steps, int)
        and r.steps > 0
        and all(isinstance(s, float) and s >= 0 for s in (r.proving, r.checking))
    ),
    work="proof check",
    unit="cube",
    redone="proved and checked again",
)

_STOP = {"asked": False}


class BadInput(ValueError):
    """The manifest cannot be read, or describes another formula."""


def main() -> int:
    args = _arguments()
    started = time.perf_counter()
    try:
        spec, formula, cubes, published = _read(args.manifest)
        journal = Journal(args.journal, _header(args.manifest, formula.clauses), SCHEMA)
    except (BadInput, ValueError) as error:  # a journal of other work, or in use
        print(f"reprove_certificate: {error}", file=sys.stderr)
        return 2
    try:
        fault = cover_fault(spec, rule_clauses(spec), cubes, cover_proof(cubes))
        if fault:
            print(f"rejected: the cubes' cover proof {fault}")
            return 1
        for sig in (signal.SIGINT, signal.SIGTERM):  # from here a stop keeps what is done
            signal.signal(sig, _stop)
        print(
            f"{len(formula.clauses):,} clauses, {len(cubes):,} cubes covering every "
            f"assignment; {len(journal.done):,} proved and checked before",
            flush=True,
        )
        keys = [_key(number, len(cubes)) for number in range(len(cubes))]
        todo = [
            (key, cube) for key, cube in zip(keys, cubes, strict=True) if key not in journal.done
        ]
        if _prove_and_check(CubeFormula.of(formula), formula.clauses, todo, journal, args.workers):
            return 1
    finally:
        journal.close()
    if _STOP["asked"]:
        print(
            f"stopped: {len(journal.done):,} of {len(cubes):,} cubes checked, "
            f"kept in {args.journal}"
        )
        return 3
    records = [journal.done[key] for key in keys]
    same = sum(r.steps == steps for r, steps in zip(records, published, strict=True))
    print(
        f"confirmed: all {len(cubes):,} cubes refuted by {PROOF_SOLVER}, every DRUP proof "
        f"({sum(r.steps for r in records):,} steps) checked by {checker_name()}; "
        f"{sum(r.proving for r in records):,.0f} CPU-s proving, "
        f"{sum(r.checking for r in records):,.0f} checking "
        f"({time.perf_counter() - started:,.0f} s this run); "
        f"{same:,} proofs have the manifest's number of steps"
    )
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", type=Path, help="a certificate's manifest.json")
    parser.add_argument("--workers", type=_workers, default=1, help="child processes at once")
    parser.add_argument("--journal", type=Path, required=True, help="checked cubes, resumable")
    return parser.parse_args()


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError(f"expected 1 to 256 workers, not {text!r}")
    return value


def _read(path: Path) -> tuple[Spec, Any, list[list[int]], list[int]]:
    """The spec, the regenerated formula, the cubes and each cube's published proof steps."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_MANIFEST_BYTES + 1)
        manifest = json.loads(raw) if len(raw) <= MAX_MANIFEST_BYTES else None
    except (OSError, ValueError, RecursionError) as error:
        raise BadInput(f"{path}: {error}") from None
    entry = manifest.get("refutation") if isinstance(manifest, dict) else None
    if not isinstance(entry, dict):
        raise BadInput(f"{path}: not a certificate manifest with a refutation")
    assert isinstance(manifest, dict)
    try:
        spec = Spec.from_data(manifest.get("problem"))
        claim = manifest.get("claim")
        if not isinstance(claim, dict):
            raise BadInput(f"{path}: no claim")
        bounds = claim_bounds(spec, claim)
        listed = listed_cubes(spec, entry)
    except (SpecError, Rejected, KeyError, TypeError) as error:
        raise BadInput(f"{path}: {error}") from None
    rules = rule_clauses(spec)
    permutations = [
        p for p in symmetry_permutations(spec) if symmetry_fault(spec, rules, bounds, p) is None
    ]
    formula = refutation_formula(spec, bounds, permutations)
    size = (formula.variables, len(formula.clauses))
    if size != (entry.get("variables"), entry.get("clauses")):
        raise BadInput(
            f"{path}: the regenerated formula has {size[0]:,} variables and {size[1]:,} "
            f"clauses, the manifest's {entry.get('variables')} and {entry.get('clauses')}"
        )
    steps = [proof.get("steps") for _, proof in listed]
    return (
        spec,
        formula,
        [cube for cube, _ in listed],
        [s if isinstance(s, int) else 0 for s in steps],
    )


def _header(manifest: Path, clauses: list[list[int]]) -> dict[str, object]:
    """The journal's header: the manifest and the formula, pinned by hashes."""
    digest = hashlib.sha256()
    for clause in clauses:
        digest.update(" ".join(map(str, clause)).encode() + b"\n")
    return {
        "manifest": hashlib.sha256(manifest.read_bytes()).hexdigest(),
        "formula": digest.hexdigest(),
    }


def _key(number: int, cubes: int) -> str:
    return str(number).zfill(len(str(cubes - 1)))


def _prove_and_check(
    base: CubeFormula,
    clauses: list[list[int]],
    todo: list[tuple[str, list[int]]],
    journal: Journal,
    workers: int,
) -> bool:
    """Prove and check every cube of ``todo`` in child processes, journaling each one
    accepted; True (after a line naming it) when a cube is satisfiable or its proof
    is rejected. A stop ends it early, with what was checked kept."""
    jobs = [(base, clauses, cube) for _, cube in todo]
    children = fan_out(_child, jobs, lambda: workers, lambda: _STOP["asked"])
    with closing(children) as done:
        for index, answer in done:
            key = todo[index][0]
            if answer is None:
                print(f"rejected: the process proving cube {key} died (out of memory?)")
                return True
            if answer[0] == "sat":
                print(f"rejected: cube {key} is satisfiable: the claim is wrong")
                return True
            _, steps, proving, checking, fault = answer
            if fault:
                print(f"rejected: cube {key}: the proof {fault}")
                return True
            journal.record(key, steps, proving, checking)
            if len(journal.done) % 20 == 0 or proving + checking > 60:
                print(f"{len(journal.done):,} cubes proved and checked", flush=True)
    return False


def _stop(signum: int, frame: object) -> None:
    _STOP["asked"] = True


def _child(sender: Any, base: CubeFormula, clauses: list[list[int]], cube: list[int]) -> None:
    """In a child process: refute the cube, check the proof, send what happened (with
    the CPU seconds of each)."""
    started = time.process_time()
    steps = drup_steps(clauses, cube)
    if steps is None:
        sender.send(("sat",))
        return
    proving = time.process_time() - started
    fault = proof_fault(base.with_units(cube), "\n".join(steps) + "\n")
    sender.send(("unsat", len(steps), proving, time.process_time() - started - proving, fault))


if __name__ == "__main__":
    run_script(main)
