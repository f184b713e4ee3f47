"""One cube refuted by Glucose 4 with a DRUP proof that dratify checks at once.

Run in a child process of its own (:func:`chessplace.runtime.lifeline.fan_out`):
PySAT's solve cannot be interrupted from Python, so a stop kills the child.
The proof lives only in the child's memory unless it is small enough to keep.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from chessplace.certificates.checker.proofs import memory_fault, proof_fault
from chessplace.certificates.checker.verdict import CubeFormula
from chessplace.certificates.writer.proving import drup_steps

KEPT_PROOF_BYTES = 1 << 20
"""The largest proof, gzipped, that is written out to be kept (1 MiB)."""

PACKING = 16
"""A proof text longer than this many times :data:`KEPT_PROOF_BYTES` is not compressed
to see whether it fits (Glucose's DRUP text packs about 3.3 to 1)."""

SATISFIABLE = "sat"
"""What the child sends when the cube is satisfiable."""


class Refuted(NamedTuple):
    """A cube Glucose refuted: its proof's steps and SHA-256 (of the text), the CPU
    seconds proving and checking, why dratify rejected the proof (``None``: it
    accepted it), why it was not checked (``None``: it was), and whether it was kept."""

    steps: int
    proving: float
    checking: float
    fault: str | None
    unchecked: str | None
    proof: str
    kept: bool


def refute_and_check(
    sender: Any,
    base: CubeFormula,
    clauses: Sequence[Sequence[int]],
    cube: list[int],
    keep: str | None = None,
) -> None:
    """Refute the clauses with the cube's literals as units, check the proof, and send
    :data:`SATISFIABLE` or a :class:`Refuted`. A proof too large to check in the
    memory here is not checked (``unchecked`` says why); one of at most
    :data:`KEPT_PROOF_BYTES` gzipped that dratify accepted is written to ``keep``."""
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
        sender.send(Refuted(count, proving, 0.0, None, unchecked, proof, False))
        return
    started = time.process_time()
    fault = proof_fault(base.with_units(cube), text)
    checking = time.process_time() - started
    kept = keep is not None and fault is None and _kept(data, Path(keep))
    sender.send(Refuted(count, proving, checking, fault, None, proof, kept))


def _kept(data: bytes, path: Path) -> bool:
    """Write the proof gzipped to ``path`` (whole or not at all) if it is small enough."""
    if len(data) > PACKING * KEPT_PROOF_BYTES:
        return False
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    if len(packed) > KEPT_PROOF_BYTES:
        return False
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(packed)
    os.replace(partial, path)
    return True
