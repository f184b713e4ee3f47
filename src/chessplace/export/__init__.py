"""Export the models chessplace solves in standard formats.

- ``dimacs``: the SAT engine's CNF (:mod:`chessplace.export.dimacs`);
- ``opb``, ``lp``, ``mzn``: the CP-SAT engine's 0/1 linear model
  (:mod:`chessplace.encodings.linear`) as pseudo-Boolean, CPLEX LP and MiniZinc.

A problem with a count exports the checking problem; one without, the
optimisation problem (formats with an objective only).
"""

from __future__ import annotations

from collections.abc import Iterator

from chessplace.core.problem import Problem

FORMATS = ("dimacs", "opb", "mzn", "lp")


def export_lines(
    problem: Problem,
    format_name: str,
    encoding: str | None = None,
    break_symmetry: bool = True,
) -> Iterator[str]:
    """The lines of ``problem``'s model in ``format_name``.

    Raises ``ValueError`` (with a message for the user) before the first line
    when the format cannot express the problem. ``encoding`` and
    ``break_symmetry`` shape the DIMACS formula; the linear formats follow the
    CP-SAT model, which has no symmetry breaking (and takes no encoding).
    """
    refusal = problem.refusal()
    if refusal is not None:
        raise ValueError(refusal)
    if format_name == "dimacs":
        from chessplace.export.dimacs import dimacs_lines

        return dimacs_lines(problem, encoding, break_symmetry)
    if format_name not in FORMATS:
        raise ValueError(f"unknown format {format_name!r}; choose from {', '.join(FORMATS)}")
    if encoding is not None:
        raise ValueError("--encoding shapes the DIMACS formula: it needs --format dimacs")
    from chessplace.encodings.linear import linear_model
    from chessplace.export.lp import lp_lines
    from chessplace.export.mzn import mzn_lines
    from chessplace.export.opb import opb_lines

    writers = {"opb": opb_lines, "mzn": mzn_lines, "lp": lp_lines}
    return writers[format_name](linear_model(problem))
