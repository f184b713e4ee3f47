"""Text helpers shared by the export formats."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from chessplace.encodings.linear import LinearModel

_PLAIN = str.maketrans({"×": "x", "—": "-", "–": "-", "γ": "gamma"})


def ascii_text(text: str) -> str:
    """``text`` in ASCII, for formats whose readers may choke on anything else."""
    plain = text.translate(_PLAIN)
    return plain.encode("ascii", "replace").decode("ascii")


def wrapped(pieces: Iterable[str], width: int = 90, indent: str = "  ") -> Iterator[str]:
    """``pieces`` joined by spaces into lines of at most about ``width`` characters,
    lines after the first indented by ``indent``."""
    line: str | None = None
    for piece in pieces:
        if line is None:
            line = piece
        elif len(line) + 1 + len(piece) > width:
            yield line
            line = indent + piece
        else:
            line = f"{line} {piece}"
    if line is not None:
        yield line


def header(model: LinearModel, format_name: str) -> list[str]:
    """Comment lines (without the comment mark) that say what the file holds."""
    problem = model.problem
    what = (
        f"optimisation problem: {model.objective.sense.value} the {model.objective.meaning}"
        if model.objective is not None
        else "checking problem: feasible exactly when chessplace finds a placement"
    )
    return [
        f"chessplace export: {format_name}",
        f"problem: {ascii_text(problem.describe())}",
        what,
        "model: chessplace's CP-SAT model (no symmetry breaking): one 0/1 variable per army",
        "and square; for armies that must not share a line, one variable per army and line",
    ]
