"""DIMACS CNF: the formula chessplace's SAT engine solves, with comments naming the variables.

The clauses are those of :func:`chessplace.encodings.formulas.formula_for`, the
formula the ``sat`` engine hands to its SAT solver for the same problem (whole:
the engine may split large formulas into cubes, which changes nothing in it).
Where every count follows from lines that must each hold one piece (n queens on
n×n, blocked squares or not: :func:`~chessplace.encodings.boolean.counts_follow`)
that formula has one clause per line and no cardinality encoding, and the header
says so. CNF has no objective, so the problem must have a count.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from chessplace.core.board import square_name
from chessplace.core.problem import Problem
from chessplace.encodings import formulas, lines, symmetry
from chessplace.encodings.boolean import PAWN, counts_follow
from chessplace.encodings.cnf import PAIRWISE_LIMIT, check_encoding
from chessplace.encodings.linear import line_name
from chessplace.export.text import ascii_text

MODELS = {
    formulas.SquareFormula: "one variable per army and square, every rule as clauses",
    formulas.LineFormula: (
        "peaceable armies as line colours: each ride line is white or black; a white piece"
        " stands only where every line through its square is white, a black one only where"
        " every such line is black; only the lower bounds of the counts are encoded (chessplace"
        " trims a placement with more pieces to the counts)"
    ),
    formulas.DominationFormula: (
        "one variable per square; per square to dominate a clause of the squares that cover"
        " it; the count over the squares in Hilbert-curve order"
    ),
}


def dimacs_lines(problem: Problem, encoding: str | None, break_symmetry: bool) -> Iterator[str]:
    """The lines of the DIMACS file; raises ``ValueError`` at once on a problem it cannot write."""
    if not problem.has_target:
        raise ValueError(
            "DIMACS CNF has no objective: give a count"
            " (--at-least M with M >= 1, --exactly M or --at-most M)"
        )
    if problem.board.size > formulas.MAX_SQUARES:
        raise ValueError(
            f"the SAT model covers boards of at most {formulas.MAX_SQUARES:,} squares,"
            f" not {problem.board.size:,}"
        )
    if encoding is not None:
        check_encoding(encoding)
    formula = formulas.formula_for(problem, encoding, break_symmetry=break_symmetry)
    return _lines(formula, encoding, break_symmetry)


def _lines(formula: formulas.Formula, encoding: str | None, break_symmetry: bool) -> Iterator[str]:
    problem = formula.problem
    kind = type(formula)
    default = formulas.DOMINATION_ENCODING if problem.dominating else formulas.DEFAULT_ENCODING
    count = _symmetries(formula)
    used = max((abs(lit) for clause in formula.clauses for lit in clause), default=0)
    variables = max(formula.pool.top, used)
    yield "c chessplace export: DIMACS CNF"
    yield f"c problem: {ascii_text(problem.describe())}"
    yield f"c satisfiable exactly when chessplace finds a placement; model: {kind.__name__}"
    yield f"c   ({MODELS[kind]})"
    if isinstance(formula, formulas.SquareFormula) and _counts_follow(problem):
        yield (
            "c counts: one clause per line that must hold a piece (its rank, its file...),"
            " no cardinality encoding"
        )
    else:
        yield f"c cardinality encoding: {encoding or default} (PySAT)"
    yield f"c at most one of more than {PAIRWISE_LIMIT} literals: sequential counter"
    if break_symmetry:
        yield (
            f"c symmetry breaking: included, lex-leader clauses for {count} symmetries"
            " (sound: every orbit keeps a placement, so satisfiability is unchanged)"
        )
    else:
        yield "c symmetry breaking: none (--no-symmetry)"
    yield "c variables: 'c var N meaning'; ranges of unnamed auxiliaries as 'c vars N-M meaning'"
    yield from _variable_comments(formula, variables)
    yield f"p cnf {variables} {len(formula.clauses)}"
    for clause in formula.clauses:
        yield " ".join(map(str, clause)) + " 0"


def _symmetries(formula: formulas.Formula) -> int:
    if isinstance(formula, formulas.LineFormula):
        return len(lines.LineModel(formula.problem).symmetries())
    return len(symmetry.group(formula.problem))


def _variable_comments(formula: formulas.Formula, variables: int) -> Iterator[str]:
    names = formula.pool.id2obj
    unnamed_from: int | None = None
    for v in range(1, variables + 2):
        key = names.get(v) if v <= variables else ("end",)
        if key is None:
            unnamed_from = v if unnamed_from is None else unnamed_from
            continue
        if unnamed_from is not None:
            yield f"c vars {unnamed_from}-{v - 1} cardinality and at-most-one encoding auxiliaries"
            unnamed_from = None
        if v <= variables:
            yield f"c var {v} {_meaning(formula, key)}"


def _meaning(formula: formulas.Formula, key: Hashable) -> str:
    problem = formula.problem
    board = problem.board
    assert isinstance(key, tuple)
    match key:
        case ("x", army, square) if army == PAWN:
            return f"pawn {square_name(board.at(square))}"
        case ("x", "seen", _, _):
            return "a piece on the line since its last pawn"
        case ("x", army, square):
            return f"{problem.armies[army].name} {square_name(board.at(square))}"
        case ("white line", index):
            assert isinstance(formula, formulas.LineFormula)
            return f"line {line_name(board, formula.model.lines[index])} is white"
        case ("first army may use", line):
            first, second = problem.armies[0].name, problem.armies[1].name
            return f"line {line_name(board, line)} open to {first}, closed to {second}"
        case ("on", army, line):
            return f"{problem.armies[army].name} has a piece on line {line_name(board, line)}"
        case ("aux", _):
            return "symmetry breaking: the lex-leader prefixes agree so far"
    return f"auxiliary {key!r}"


def _counts_follow(problem: Problem) -> bool:
    """True when the square formula bounds no count: each follows from its filled lines
    (a grid of regions counts its ranks, files and regions with cardinality bounds)."""
    return problem.regions is None and counts_follow(problem)
