"""One cube refuted by Glucose 4 with a DRUP proof that dratify checks at once.

Run in a child process of its own (:func:`chessplace.runtime.lifeline.fan_out`):
PySAT's solve cannot be interrupted from Python, so a stop kills the child.
The proof lives only in the child's memory; one small enough to keep is sent
back gzipped, for the parent to write beside the record it journals (so that
no proof file is left without its record when a run stops or fails).

DRUP: M. J. H. Heule, W. A. Hunt, N. Wetzler, 2013, "Trimming while checking clausal proofs".
"""

from __future__ import annotations

import gzip
import hashlib
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from chessplace.certificates.checker.proofs import memory_fault, proof_fault
from chessplace.certificates.checker.verdict import CubeFormula
from chessplace.certificates.writer.proving import drup_steps

KEPT_PROOF_BYTES = 1 << 20
"""The largest proof, gzipped, that is kept (1 MiB)."""

PACKING = 16
"""A proof text longer than this many times :data:`KEPT_PROOF_BYTES` is not compressed
to see whether it fits (Glucose's DRUP text packs about 3.3 to 1)."""

SATISFIABLE = "sat"
"""What the child sends when the cube is satisfiable."""


class Refuted(NamedTuple):
    """A cube Glucose refuted: its proof's steps and SHA-256 (of the text), the CPU
    seconds proving and checking, why dratify rejected the proof (``None``: it
    accepted it), why it was not checked (``None``: it was), and, when asked to keep
    it, the accepted proof gzipped if that is at most :data:`KEPT_PROOF_BYTES`."""

    steps: int
    proving: float
    checking: float
    fault: str | None
    unchecked: str | None
    proof: str
    packed: bytes | None


def refute_and_check(
    sender: Any,
    base: CubeFormula,
    clauses: Sequence[Sequence[int]],
    cube: list[int],
    keep: bool = False,
) -> None:
    """Refute the clauses with the cube's literals as units, check the proof, and send
    :data:`SATISFIABLE` or a :class:`Refuted`. A proof too large to check in the
    memory here is not checked (``unchecked`` says why); with ``keep``, an accepted
    proof small enough comes back gzipped, for the caller to write beside its record."""
    started = time.process_time()
    steps = drup_steps(clauses, cube)
    if steps is None:
        sender.send(SATISFIABLE)
        return
    proving = time.process_time() - started
    count, text = len(steps), "\n".join(steps) + "\n"
    del steps  # the proof once, not twice, while dratify checks it
    data = text.encode("utf-8")
    proof = hashlib.sha256(data).hexdigest()
    unchecked = memory_fault(len(text))
    if unchecked:
        sender.send(Refuted(count, proving, 0.0, None, unchecked, proof, None))
        return
    started = time.process_time()
    fault = proof_fault(base.with_units(cube), text)
    checking = time.process_time() - started
    packed = _packed(data) if keep and fault is None else None
    sender.send(Refuted(count, proving, checking, fault, None, proof, packed))


def _packed(data: bytes) -> bytes | None:
    """The proof gzipped, if that is small enough to keep (``None`` if not)."""
    if len(data) > PACKING * KEPT_PROOF_BYTES:
        return None
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    return packed if len(packed) <= KEPT_PROOF_BYTES else None
