"""The proof checker: dratify, a DRAT/DRUP checker from PyPI that shares no code
with any SAT solver (its Rust engine, from ``cdclkit-native``, when installed)."""

from __future__ import annotations

import zlib
from typing import Any

MAX_PROOF_BYTES = 1 << 32
"""The largest proof, unpacked, a certificate may hold (4 GiB)."""

MAX_PACKING = 32
"""How many times its gzipped size a proof may unpack to, past its first MiB:
Glucose's DRUP text packs about 3.3 to 1, a gzip bomb a thousand to 1 (and
checking takes about a hundred bytes of memory per byte of proof text)."""


class NoProofChecker(RuntimeError):
    """dratify is not installed."""


def checker_name() -> str:
    dratify = _dratify()
    engine = "native" if dratify.native_available() else "pure Python"
    return f"dratify {dratify.__version__} ({engine})"


def unpacked(name: str, data: bytes) -> str:
    """The text of a proof file: gunzipped when its name ends in ``.gz``, never past
    :data:`MAX_PROOF_BYTES` nor :data:`MAX_PACKING` times its size. Raises ValueError
    for a damaged or oversized file."""
    if name.endswith(".gz"):
        limit = min(MAX_PROOF_BYTES, MAX_PACKING * len(data) + (1 << 20))
        inflate = zlib.decompressobj(wbits=31)
        try:
            data = inflate.decompress(data, limit + 1)
        except zlib.error:
            raise ValueError("is not valid gzip data") from None
        if len(data) > limit or inflate.unconsumed_tail:
            raise ValueError(f"unpacks to more than {limit:,} bytes")
        if not inflate.eof:
            raise ValueError("is a truncated gzip file")
        if inflate.unused_data:
            raise ValueError("has data after its gzip stream, which would go unchecked")
    return data.decode("utf-8", errors="replace")


def proof_fault(formula_text: str, proof_text: str) -> str | None:
    """Why the proof does not refute the formula, or None when it does: every
    added clause is RUP and the empty clause is derived.

    RAT is not accepted: dratify keeps what the root propagated from a clause
    after the clause is deleted, which is sound when every clause is implied
    (RUP), but lets a RAT step after a deletion refute a satisfiable formula
    (``y 0``, ``z -y 0``, ``d z -y 0``, ``-z 0``, ``0`` with y, z fresh).
    The steps are handed over parsed, so that the variables a proof may
    introduce are bounded by its literals, not by its length (whitespace)."""
    dratify = _dratify()
    formula = dratify.parse_dimacs(formula_text)
    try:
        steps = dratify.parse_proof(proof_text)
        result = dratify.check_proof(formula, steps, check_rat=False)
    except ValueError as error:
        return f"is malformed: {error}"
    if result.ok and result.reached_empty:
        return None
    if result.failed_step > 0:
        literals = " ".join(str(dratify.to_dimacs(lit)) for lit in result.failed_clause or ())
        return f"step {result.failed_step} ({literals} 0): {result.reason}"
    return str(result.reason)


def _dratify() -> Any:
    try:
        import dratify
    except ImportError:
        raise NoProofChecker("checking proofs needs: pip install 'chessplace[certify]'") from None
    if not dratify.native_available():
        try:
            import cdclkit_native

            dratify.register_native(cdclkit_native)
        except ImportError:
            pass
    return dratify
