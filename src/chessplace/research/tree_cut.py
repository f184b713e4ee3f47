"""Cubes of the line-colour formula cut along the line engine's search tree.

A cube is written as a word: its colours ("1" white, "0" black) on the rank
and file lines the engine labels first, in the engine's order. The cut at a
depth D is the leaves of the engine's tree down to D labels (the nodes its
bounds and symmetry check keep at D, and every node above that they cut); a
cube too hard for its conflict budget is split into the leaves of the tree
4 labels deeper (``splitting.children``) that extend it, or, where the engine
cut it, into every colouring of the next 4 lines. The engine only
proposes the cut: the caller checks that the words it refutes cover every
colouring.
"""

from __future__ import annotations

from chessplace.certificates.writer.cubes import tree_leaves
from chessplace.core.problem import Problem
from chessplace.encodings.formulas import DEFAULT_ENCODING, LineFormula
from chessplace.runtime.control import Control


class TreeCut:
    """The formula for ``problem`` (at least ``target`` of each army, or black beside a
    fixed white army), its lex-leader comparing the engine's first ``depth`` lines first
    (so that a node the engine cut by symmetry falls to propagation), and its cubes."""

    def __init__(self, problem: Problem, target: int, depth: int) -> None:
        self.problem, self.target = problem, target
        self.deepest = problem.board.rows + problem.board.cols
        if not 1 <= depth <= self.deepest:
            raise ValueError(f"--tree-depth is 1 to {self.deepest} rank and file labels")
        self.depth = depth
        self._trees: dict[int, list[str]] = {}
        self._variables: list[int] = []
        tree = tree_leaves(problem, target, Control(), depth)
        if tree is None:
            raise ValueError("the line engine does not search this problem")
        self.formula = LineFormula(problem, DEFAULT_ENCODING, compare_first=tree[0])
        self._keep(depth, tree)

    def leaves(self, depth: int) -> list[str]:
        """The words of the tree's leaves down to ``depth`` labels."""
        if depth not in self._trees:
            tree = tree_leaves(self.problem, self.target, Control(), depth)
            assert tree is not None  # the engine searched it at a shallower depth
            self._keep(depth, tree)
        return self._trees[depth]

    def _keep(self, depth: int, tree: tuple[list[frozenset[int]], list[tuple[int, ...]]]) -> None:
        """Remember a tree's leaves as words, and the colour variables of its lines."""
        lines, leaves = tree
        if len(lines) > len(self._variables):
            self._variables = [self.formula.white_line(line) for line in lines]
        self._trees[depth] = ["".join(map(str, leaf)) for leaf in leaves]

    def cube(self, word: str) -> tuple[int, ...]:
        """The literals of a word: each line white or not."""
        variables = self._variables[: len(word)]
        return tuple(v if c == "1" else -v for v, c in zip(variables, word, strict=True))
