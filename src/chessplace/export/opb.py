"""OPB, the pseudo-Boolean competition format: variables ``x1``…``xN``, only ``>=`` and ``=``."""

from __future__ import annotations

from collections.abc import Iterator

from chessplace.core.problem import Sense
from chessplace.encodings.linear import Constraint, LinearModel, Term
from chessplace.export.text import header


def opb_lines(model: LinearModel) -> Iterator[str]:
    """The lines of the OPB file (``<=`` constraints written negated as ``>=``)."""
    yield f"* #variable= {len(model.variables)} #constraint= {model.constraint_count()}"
    for line in header(model, "OPB (pseudo-Boolean)"):
        yield f"* {line}"
    for index, variable in enumerate(model.variables, start=1):
        yield f"* x{index} = {variable.meaning}"
    objective = model.objective
    if objective is not None:
        maximise = objective.sense is Sense.MAXIMIZE
        if maximise:
            yield "* OPB minimises: the objective is minus the pieces (its optimum is -maximum)"
        sign = -1 if maximise else 1
        yield f"min: {_terms(tuple((sign * c, v) for c, v in objective.terms))} ;"
    for section in model.sections:
        yield f"* {section.comment}"
        yield from (_constraint(constraint) for constraint in section.constraints)


def _constraint(constraint: Constraint) -> str:
    terms, bound = constraint.terms, constraint.bound
    relation = constraint.relation
    if relation == "<=":
        terms, bound, relation = tuple((-c, v) for c, v in terms), -bound, ">="
    return f"{_terms(terms)} {relation} {bound} ;"


def _terms(terms: tuple[Term, ...]) -> str:
    return " ".join(f"{c:+d} x{v + 1}" for c, v in terms)
