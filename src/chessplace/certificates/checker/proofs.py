"""The proof checker: dratify, a DRAT/DRUP checker from PyPI that shares no code
with any SAT solver (its Rust engine, from ``cdclkit-native``, when installed).

Proofs are clausal: each added clause must follow by reverse unit propagation (RUP),
and only such steps are accepted here (no RAT, see :func:`proof_fault`). The formats:
DRUP, M. J. H. Heule, W. A. Hunt Jr., N. Wetzler, 2013, "Trimming while checking
clausal proofs", FMCAD 2013; DRAT, N. Wetzler, M. J. H. Heule, W. A. Hunt Jr., 2014,
"DRAT-trim: Efficient Checking and Trimming Using Expressive Clausal Proofs", SAT 2014.
"""

from __future__ import annotations

import resource
import zlib
from typing import Any

MAX_PROOF_BYTES = 1 << 32
"""The largest proof, unpacked, a certificate may hold (4 GiB)."""

MAX_PACKING = 32
"""How many times its gzipped size a proof may unpack to, past its first MiB:
Glucose's DRUP text packs about 3.3 to 1, a gzip bomb a thousand to 1 (and
checking takes :data:`MEMORY_PER_BYTE` bytes of memory per byte of proof text)."""


MEMORY_PER_BYTE = 40
"""Bytes of memory checking takes per byte of proof text, about: the parsed steps
dwarf the text (an 80 MB proof peaked at 2.7 GB, 33 a byte; a margin on top)."""


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
    too_large = memory_fault(len(proof_text))
    if too_large:
        return too_large
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


def memory_fault(text_bytes: int) -> str | None:
    """Why a proof of ``text_bytes`` bytes of text is not checked here: it would need
    more memory than this process may have (``None`` when it fits, or when neither
    figure is known). Refused with the figures, not left to the OOM killer."""
    need = text_bytes * MEMORY_PER_BYTE
    room = available_memory()
    if room is None or need <= room:
        return None
    return (
        f"needs about {_gib(need)} of memory to check ({text_bytes:,} bytes of proof text, "
        f"{MEMORY_PER_BYTE} bytes each), more than the {_gib(room)} available here, "
        "so it was not checked"
    )


def available_memory() -> int | None:
    """The memory this process could still use: the system's available memory
    (``MemAvailable``), or less under a data-size limit; ``None`` when unknown."""
    room = None
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    room = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    if soft != resource.RLIM_INFINITY:
        room = soft if room is None else min(room, soft)
    return room


def _gib(size: int) -> str:
    """A size in GiB, or in MiB below one GiB."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):,.1f} GiB"
    return f"{size / (1 << 20):,.1f} MiB"


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
