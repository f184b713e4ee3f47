"""CPLEX LP format (read by HiGHS, SCIP, CPLEX, Gurobi): named binary variables."""

from __future__ import annotations

from collections.abc import Iterator

from chessplace.core.problem import Sense
from chessplace.encodings.linear import LinearModel, Term
from chessplace.export.text import header, wrapped


def lp_lines(model: LinearModel) -> Iterator[str]:
    """The lines of the LP file; long expressions continue on following lines."""
    names = [variable.name for variable in model.variables]
    for line in header(model, "CPLEX LP"):
        yield f"\\ {line}"
    yield "\\ variables: ARMY_SQUARE is 1 when a piece of ARMY stands on SQUARE;"
    yield "\\ ARMY_on_FROM_TO is 1 when ARMY has a piece on the line from FROM to TO"
    objective = model.objective
    if objective is None:
        yield "Minimize"
        yield " nothing: 0 " + names[0]
    else:
        yield "Maximize" if objective.sense is Sense.MAXIMIZE else "Minimize"
        yield from wrapped(["pieces:", *_terms(objective.terms, names)], indent=" ")
    yield "Subject To"
    for section in model.sections:
        yield f"\\ {section.comment}"
        for constraint in section.constraints:
            expression = [
                *_terms(constraint.terms, names),
                constraint.relation,
                str(constraint.bound),
            ]
            yield from wrapped(expression, indent=" ")
    yield "Binaries"
    yield from wrapped(names, indent=" ")
    yield "End"


def _terms(terms: tuple[Term, ...], names: list[str]) -> list[str]:
    """``a + b - 2 c`` as pieces to wrap."""
    pieces: list[str] = []
    for index, (coefficient, variable) in enumerate(terms):
        size = abs(coefficient)
        term = names[variable] if size == 1 else f"{size} {names[variable]}"
        if coefficient < 0:
            term = f"- {term}"
        elif index > 0:
            term = f"+ {term}"
        pieces.append(term)
    return pieces
