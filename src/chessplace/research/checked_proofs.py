"""One cube refuted by Glucose 4 with a DRUP proof that dratify checks at once.

Run in a child process of its own (:func:`chessplace.runtime.lifeline.fan_out`):
PySAT's solve cannot be interrupted from Python, so a stop kills the child.
The proof lives only in the child's memory; one small enough to keep is sent
back gzipped, for the parent to write beside the record it journals (so that
no proof file is left without its record when a run stops or fails).
"""

from __future__ import annotations

import gzip
import hashlib
import time
from collections.abc import Sequence
from typing import Any

from chessplace.certificates.checker.proofs import proof_fault
from chessplace.certificates.checker.verdict import CubeFormula
from chessplace.certificates.writer.proving import drup_steps

KEPT_PROOF_BYTES = 1 << 20
"""The largest proof, gzipped, that is kept (1 MiB)."""

PACKING = 16
"""A proof text longer than this many times :data:`KEPT_PROOF_BYTES` is not compressed
to see whether it fits (Glucose's DRUP text packs about 3.3 to 1)."""


def refute_and_check(
    sender: Any,
    base: CubeFormula,
    clauses: Sequence[Sequence[int]],
    cube: list[int],
    keep: bool = False,
) -> None:
    """Refute the clauses with the cube's literals as units, check the proof, and send
    ``("sat",)`` or ``("unsat", steps, proving, checking, fault, sha256, packed)``:
    the proof's steps, the CPU seconds proving and checking, why dratify rejected it
    (``None``: accepted), the SHA-256 of its text, and, when ``keep`` and the proof
    was accepted, its text gzipped if that is at most :data:`KEPT_PROOF_BYTES`
    (``None`` otherwise)."""
    started = time.process_time()
    steps = drup_steps(clauses, cube)
    if steps is None:
        sender.send(("sat",))
        return
    proving = time.process_time() - started
    count, text = len(steps), "\n".join(steps) + "\n"
    del steps  # the proof once, not twice, while dratify checks it
    started = time.process_time()
    fault = proof_fault(base.with_units(cube), text)
    checking = time.process_time() - started
    data = text.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    packed = _packed(data) if keep and fault is None else None
    sender.send(("unsat", count, proving, checking, fault, digest, packed))


def _packed(data: bytes) -> bytes | None:
    """The proof gzipped, if that is small enough to keep (``None`` if not)."""
    if len(data) > PACKING * KEPT_PROOF_BYTES:
        return None
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    return packed if len(packed) <= KEPT_PROOF_BYTES else None
