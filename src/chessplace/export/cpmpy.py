"""The bridge to CPMpy: a problem as a CPMpy model a user can add rules to.

:func:`to_cpmpy` builds the model from the same :class:`~chessplace.encodings.boolean.Rules`
as the CP-SAT engine and the exports, with every rule and no symmetry breaking (so
``solveAll`` sees every placement), and returns it with ``x[army][square]``, the Boolean
"a piece of that army stands there" (``x["white"]["a1"]``; ``x["pawn"]`` for pawns to
place). :func:`from_cpmpy` reads a solved model's values back as a
:class:`~chessplace.core.placement.Placement`, which ``verify()`` checks against the
rules chessplace knows (not the ones added in CPMpy).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from chessplace.core.board import Square, parse_square, square_name
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.encodings.boolean import PAWN, Key, Literal, rules_of

PAWN_ARMY = "pawn"
"""The key of the pawns to place in ``x``."""

Variables = dict[str, dict[str, Any]]
"""``x[army name][square name]``: CPMpy Boolean variables."""


def to_cpmpy(problem: Problem) -> tuple[Any, Variables]:
    """``(model, x)``: a ``cpmpy.Model`` holding every rule of ``problem`` (the armies'
    counts included, no objective and no symmetry breaking) and its piece variables."""
    cp = _cpmpy()
    refusal = problem.refusal()
    if refusal is not None:
        raise ValueError(refusal)
    board = problem.board
    rules = rules_of(problem)
    names = [army.name for army in problem.armies]
    if PAWN_ARMY in names and problem.free_pawns:
        raise ValueError(f"an army named {PAWN_ARMY!r} clashes with the pawns to place")
    armies = [*range(len(names)), *([PAWN] if problem.free_pawns else [])]
    by_literal: dict[Literal, Any] = {}
    x: Variables = {}
    for a in armies:
        name = PAWN_ARMY if a == PAWN else names[a]
        x[name] = {}
        for s in range(board.size):
            square = square_name(board.at(s))
            by_literal[a, s] = x[name][square] = cp.boolvar(name=f"{name}_{square}")
    aux: dict[Key, Any] = {}

    def var(key: Key) -> Any:
        if key in by_literal:
            return by_literal[key]
        if key not in aux:
            aux[key] = cp.boolvar(name=f"aux{len(aux)}")
        return aux[key]

    model = cp.Model()
    for v, value in rules.fixed:
        model += var(v) == int(value)
    for clause in rules.clauses:
        model += cp.any(var(k) if value else ~var(k) for k, value in clause)
    for group in rules.at_most_one:
        model += cp.sum(var(v) for v in group) <= 1
    for a, b, line in rules.exclusive_lines:
        model += ~(cp.any(var((a, s)) for s in line) & cp.any(var((b, s)) for s in line))
    for first, second in rules.forbidden_pairs:
        model += ~(var(first) & var(second))
    for group in rules.cover:
        model += cp.any(var(v) for v in group)
    for group, k in rules.exactly:
        model += cp.sum(var(v) for v in group) == k
    for members, low, high in rules.bounded:
        held = cp.sum(var(v) for v in members)
        model += held >= low
        if high is not None:
            model += held <= high
    sizes = [cp.sum(x[name].values()) for name in names]
    for a, army in enumerate(problem.armies):
        model += sizes[a] >= problem.fewest(a)
        if army.maximum is not None:
            model += sizes[a] <= army.maximum
    if problem.equal_armies:
        model += [size == sizes[0] for size in sizes[1:]]
    return model, x


def _cpmpy() -> Any:
    """The ``cpmpy`` module. OR-Tools bundles a HiGHS of its own: loaded after
    ``highspy`` it fails to link, and ``highspy`` loaded after it fails too. OR-Tools is
    loaded first (CPMpy's default solver), and where ``highspy`` then fails CPMpy is
    told it is absent, so its probe of HiGHS does not fail as it loads."""
    try:
        import ortools.sat.python.cp_model  # noqa: F401 - OR-Tools' HiGHS first
    except ImportError as error:
        raise RuntimeError(
            "OR-Tools cannot load in a process that loaded highspy first (their HiGHS "
            "libraries clash): use chessplace.to_cpmpy before importing highspy"
        ) from error

    try:
        import highspy  # noqa: F401
    except ImportError:
        sys.modules["highspy"] = None  # type: ignore[assignment]
    import cpmpy

    return cpmpy


def from_cpmpy(problem: Problem, x: Mapping[str, Mapping[str, Any]]) -> Placement:
    """The placement a solved model's values describe (``ValueError`` when ``x`` was
    not made for ``problem`` or the model has no values)."""
    armies: list[list[Square]] = []
    for army in problem.armies:
        if army.name not in x:
            raise ValueError(f"no variables for army {army.name!r}")
        armies.append(_true_squares(x[army.name]))
    pawns = _true_squares(x[PAWN_ARMY]) if problem.free_pawns and PAWN_ARMY in x else []
    return Placement.from_squares(problem, armies, pawns)


def _true_squares(variables: Mapping[str, Any]) -> list[Square]:
    squares = []
    for name, variable in variables.items():
        value = variable.value()
        if value is None:
            raise ValueError("the model has no values: solve it first")
        if value:
            squares.append(parse_square(name))
    return squares
