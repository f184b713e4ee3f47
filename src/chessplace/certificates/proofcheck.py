"""The proof checker: dratify, a DRAT/DRUP checker from PyPI that shares no code
with any SAT solver (its Rust engine, from ``cdclkit-native``, when installed)."""

from __future__ import annotations

import zlib
from typing import Any

MAX_PROOF_BYTES = 1 << 32
"""The largest proof, unpacked, a certificate may hold (4 GiB)."""


class NoProofChecker(RuntimeError):
    """dratify is not installed."""


def checker_name() -> str:
    dratify = _dratify()
    engine = "native" if dratify.native_available() else "pure Python"
    return f"dratify {dratify.__version__} ({engine})"


def unpacked(name: str, data: bytes) -> str:
    """The text of a proof file: gunzipped when its name ends in ``.gz``, never past
    :data:`MAX_PROOF_BYTES`. Raises ValueError for a damaged or oversized file."""
    if name.endswith(".gz"):
        inflate = zlib.decompressobj(wbits=31)
        try:
            data = inflate.decompress(data, MAX_PROOF_BYTES + 1)
        except zlib.error:
            raise ValueError("is not valid gzip data") from None
        if len(data) > MAX_PROOF_BYTES or inflate.unconsumed_tail:
            raise ValueError(f"unpacks to more than {MAX_PROOF_BYTES:,} bytes")
        if not inflate.eof:
            raise ValueError("is a truncated gzip file")
    return data.decode("utf-8", errors="replace")


def proof_fault(formula_text: str, proof_text: str) -> str | None:
    """Why the proof does not refute the formula, or None when it does: every
    added clause is RUP (or RAT) and the empty clause is derived."""
    dratify = _dratify()
    formula = dratify.parse_dimacs(formula_text)
    try:
        result = dratify.check_proof(formula, proof_text)
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
