"""Cubes from the line engine's search tree, and the proof that they cover (untrusted).

A large peaceable refutation is cut into cubes along the top of the
``lines`` engine's search: the nodes at a split depth that its bounds and
symmetry check keep, and every node above that they cut. A node is a set of
rank and file labels, so its cube is the certified formula's label variables
``L(army, line)`` of those lines (white label: army 0, black: army 1).
Nodes the engine cut by symmetry are refuted by unit propagation through the
formula's lex-leader clauses (they compare labels in the engine's order);
nodes it cut by a bound, and the kept ones, each need a short Glucose proof.

Nothing here is trusted: the checker confirms the cover itself, from a DRUP
proof (:func:`cover_proof`) that the negated cubes and the formula's rules
leave no assignment.
"""

from __future__ import annotations

import math

import numpy as np

from chessplace.certificates.checker.formula import line_var, ride_lines
from chessplace.certificates.checker.spec import Spec
from chessplace.certificates.writer.proving import StoppedProving
from chessplace.core.problem import Problem
from chessplace.engines.base import Task
from chessplace.engines.lines.engine import LineSearchEngine
from chessplace.engines.lines.geometry import geometry
from chessplace.engines.lines.runner import LineSearch
from chessplace.runtime.control import Control

Cube = list[int]

SPLIT_FROM_SIDE = 8
"""Boards from 8×8 (by area) are split; a(7) and below are one quick proof."""

UNEQUAL_DEPTH = 12
"""The deepest split beside a fixed white army, where the tree has no colour swap to
halve it: Glucose time over all cubes, projected from samples, was least at 12 labels
(A308632: n = 11 at 8, 12, 16 labels 770, 572, 612 s; n = 12 at 8, 12, 16, 20
labels 6,185, 2,800, 8,670, 9,980 s)."""


def split_depth(spec: Spec) -> int:
    """How many rank and file labels a cube fixes: 4 more per side from 4 on 8×8, so
    that a cube's Glucose proof takes about a tenth of a second (measured: a(8)
    0.25 s at depth 4, a(9) 0.22 s at 8, a(10) 0.12-0.18 s at 12, a(11) 0.14 s
    at 16); 0 (no split) below :data:`SPLIT_FROM_SIDE`. Armies of different sizes
    stop at :data:`UNEQUAL_DEPTH`."""
    side = round(math.sqrt(spec.rows * spec.cols))
    if side < SPLIT_FROM_SIDE:
        return 0
    depth = min(4 * (side - SPLIT_FROM_SIDE + 1), spec.rows + spec.cols)
    return depth if spec.equal_armies else min(depth, UNEQUAL_DEPTH)


def tree_cubes(
    problem: Problem, spec: Spec, target: int, control: Control, depth: int | None = None
) -> list[Cube]:
    """The leaves of the line engine's tree for ``target`` down to ``depth`` rank and file
    labels (default :func:`split_depth`), as cubes in the order of their labels; ``[]``
    when the engine does not search this problem or the board is too small to split.
    Raises :class:`StoppedProving` when ``control`` stops."""
    depth = split_depth(spec) if depth is None else depth
    tree = tree_leaves(problem, target, control, depth)
    if tree is None:
        return []
    lines, leaves = tree
    number = {frozenset(line): i for i, line in enumerate(ride_lines(spec))}
    if any(line not in number for line in lines):
        return []  # a line of one square (a board one square wide) has no label variable
    variables = [
        {1: line_var(spec, 0, number[line]), 0: line_var(spec, 1, number[line])} for line in lines
    ]
    return [[variables[p][label] for p, label in enumerate(leaf)] for leaf in leaves]


def tree_leaves(
    problem: Problem, target: int, control: Control, depth: int
) -> tuple[list[frozenset[int]], list[tuple[int, ...]]] | None:
    """The leaves of the line engine's tree for ``target`` down to ``depth`` rank and file
    labels: the squares of the lines it labels first, in its order, and each leaf's
    labels on them (1 white, 0 black); the nodes its bounds and symmetry check keep at
    ``depth``, then every node above that they cut. A line's squares are all of them,
    blocked ones too, as in the certified formula's lines. ``None`` when the engine does not
    search this problem or ``depth`` is 0 or past its ranks and files. Raises
    :class:`StoppedProving` when ``control`` stops."""
    engine = LineSearchEngine(workers=1)
    if depth == 0 or engine.refusal(problem, Task.OPTIMIZE) is not None:
        return None
    if len(problem.armies) != 2:
        return None  # its leaves label lines white or black: two armies' tree only
    if any(army.maximum is not None and not army.fixed for army in problem.armies):
        return None  # the engine's bounds know nothing of caps: its tree would not cut
    # beside a fixed white army the engine searches "at least that many white" (which
    # the cubes' proofs refute for exactly that many) and the board's symmetries alone
    white = None if problem.equal_armies else problem.armies[0].minimum
    piece = problem.armies[0].piece
    # the board's symmetries, not a torus's scalings: the formula's lex clauses break those
    g = geometry(problem.board, piece, True, swap=white is None, blocked=problem.blocked)
    if not g.product or depth > g.symmetric:
        return None
    search = LineSearch(g, workers=1, white_target=white)
    order = [int(line) for line in g.order[:depth]]
    leaves: list[tuple[int, ...]] = []
    kept: set[tuple[int, ...]] = {()}
    for level in range(1, depth + 1):
        if control.stopped:
            raise StoppedProving
        rows = search.prefixes(level, target)
        below = {tuple(int(row[line]) for line in order[:level]) for row in rows}
        for node in sorted(kept):
            children = [(*node, label) for label in (1, 0)]
            leaves += [child for child in children if child not in below]
        kept = below
    leaves += sorted(kept)
    # every square of each line, blocked ones too: the formula's lines keep them (rides
    # pass over them), while the engine's line members leave them out
    lines = [frozenset(np.flatnonzero((g.through == line).any(axis=1)).tolist()) for line in order]
    return lines, leaves


def cover_proof(cubes: list[Cube]) -> str:
    """A DRUP proof that the cubes leave no assignment, given the formula's rule that
    every line has a label: for each inner node of the tree, deepest first, the
    clause "not this node", then the empty clause. Each is unit-implied by its two
    children's clauses and the line's at-least-one-label clause."""
    inner = {tuple(cube[:length]) for cube in cubes for length in range(len(cube))}
    steps = [
        " ".join(str(-literal) for literal in (*node, 0))
        for node in sorted(inner, key=len, reverse=True)
    ]
    if "0" not in steps:
        steps.append("0")
    return "\n".join(steps) + "\n"
