"""MiniZinc: a self-contained model over an enum of the board's squares.

Each army is an array of 0/1 variables indexed by square names (``white[a1]``);
sums over a whole army are written ``sum(white)``. The output section prints
the objective (optimisation problems) and the squares of every army.
"""

from __future__ import annotations

from collections.abc import Iterator

from chessplace.core.problem import Sense
from chessplace.encodings.linear import Constraint, LinearModel, Term
from chessplace.export.text import header, wrapped


def mzn_lines(model: LinearModel) -> Iterator[str]:
    """The lines of the .mzn file."""
    names = _names(model)
    for line in header(model, "MiniZinc"):
        yield f"% {line}"
    yield ""
    yield "% The board's squares, rank by rank from a1."
    yield from wrapped(
        ["enum SQUARE = {", *(f"{s}," for s in model.squares[:-1]), model.squares[-1], "};"]
    )
    for army, piece in zip(model.armies, model.pieces, strict=True):
        yield f"% {army}[s] is 1 when a {army} {piece} stands on square s"
        yield f"array[SQUARE] of var 0..1: {army};"
    for variable in model.variables[len(model.armies) * len(model.squares) :]:
        yield f"var 0..1: {variable.name};  % {variable.meaning}"
    for section in model.sections:
        yield ""
        yield f"% {section.comment}"
        for constraint in section.constraints:
            yield from wrapped(
                ["constraint", *_expression(constraint, model, names), ";"], indent="  "
            )
    yield ""
    yield from _solve(model, names)


def _names(model: LinearModel) -> list[str]:
    """How each variable is written: ``army[square]`` or the line variable's name."""
    squares = len(model.squares)
    return [
        f"{model.armies[index // squares]}[{model.squares[index % squares]}]"
        if index < len(model.armies) * squares
        else variable.name
        for index, variable in enumerate(model.variables)
    ]


def _expression(constraint: Constraint, model: LinearModel, names: list[str]) -> list[str]:
    return [*_sum(constraint.terms, model, names), constraint.relation, str(constraint.bound)]


def _sum(terms: tuple[Term, ...], model: LinearModel, names: list[str]) -> list[str]:
    """Terms as pieces to wrap; a whole army with coefficient 1 or -1 as ``sum(army)``."""
    pieces: list[str] = []
    rest = list(terms)
    for a, army in enumerate(model.armies):
        if len(rest) < len(model.squares):
            break
        for sign in (1, -1):
            whole = {(sign * c, v) for c, v in model.army_terms(a)}
            if whole <= set(rest):
                pieces.append(("- " if sign < 0 else "+ " if pieces else "") + f"sum({army})")
                rest = [term for term in rest if term not in whole]
    for coefficient, variable in rest:
        size = abs(coefficient)
        term = names[variable] if size == 1 else f"{size}*{names[variable]}"
        pieces.append(("- " if coefficient < 0 else "+ " if pieces else "") + term)
    return pieces


def _solve(model: LinearModel, names: list[str]) -> Iterator[str]:
    objective = model.objective
    shown: list[str] = []
    if objective is None:
        yield "solve satisfy;"
    else:
        yield "% the objective: " + objective.meaning
        yield from wrapped(["var int: objective =", *_sum(objective.terms, model, names), ";"])
        sense = "maximize" if objective.sense is Sense.MAXIMIZE else "minimize"
        yield f"solve {sense} objective;"
        shown.append('"objective: \\(objective)\\n"')
    for army in model.armies:
        squares = f'concat([" \\(s)" | s in SQUARE where fix({army}[s]) = 1])'
        shown += [f'"{army}:"', squares, '"\\n"']
    pieces = [f"{piece}," for piece in shown[:-1]] + [shown[-1]]
    yield from wrapped(["output [", *pieces, "];"], indent="  ")
