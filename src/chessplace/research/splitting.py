"""Refuting cubes cut along the line engine's tree, splitting the hard ones deeper.

A cube is a word: its labels ("1" white, "0" black) on the lines the engine labels
first, in its order. A cube CaDiCaL has not decided within the conflict budget (or
one split untried, as pending cubes can be) is journaled with :data:`OVER` and split
into the tree's leaves some labels deeper that extend it, or where the engine cut it
into every labelling of the next lines (so a resumed run splits it at once), down to
words that label every rank and file, which have no budget. The caller checks that
the words refuted (``used``) cover every labelling: the tree only proposes the cut.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Sequence
from typing import Protocol

from chessplace.research.cube_solving import Refuted, solved
from chessplace.runtime.journal import Journal

OVER = "+"
"""Marks a journal key as a cube split deeper: over its conflict budget (the seconds
spent on it), or untried (0 seconds)."""

SPLIT_STEP = 4
"""Labels added when a cube is split (a refuted t(13) cube of 602 s at 16 labels split
into 14 cubes at 20, about 300 s in all on shared cores)."""

MOST_CONFLICTS = 2**31 - 1
"""The largest budget CaDiCaL takes through PySAT (a C int: more wraps round)."""

MOST_CUBE_LINES = 20
"""The most lines a run cut by sign patterns labels per cube (2^20 cubes, about a
million: more is more cubes than any run here could journal)."""


class Cut(Protocol):
    """Where the cubes come from: a word's literals, and the tree's leaves down to a
    depth (``deepest``: every rank and file)."""

    deepest: int

    def cube(self, word: str) -> tuple[int, ...]: ...

    def leaves(self, depth: int) -> list[str]: ...


def children(cut: Cut, word: str, depth: int) -> list[str]:
    """The leaves :data:`SPLIT_STEP` labels deeper than ``depth`` that extend ``word``;
    where the tree ends at ``word`` (the engine cut it), every labelling of the next
    :data:`SPLIT_STEP` lines after it instead; none once ``word`` labels every line."""
    if len(word) >= cut.deepest:
        return []
    deeper = min(depth + SPLIT_STEP, cut.deepest)
    leaves = cut.leaves(deeper) if deeper > depth else []
    pieces = [leaf for leaf in leaves if len(leaf) > len(word) and leaf.startswith(word)]
    if pieces:
        return pieces
    longer = min(len(word) + SPLIT_STEP, cut.deepest)
    return [word + "".join(bits) for bits in itertools.product("10", repeat=longer - len(word))]


def add_split_options(parser: argparse.ArgumentParser) -> None:
    """The options that split hard cubes along the tree."""
    parser.add_argument(
        "--split-conflicts",
        type=int,
        help="with --tree-depth: a cube past this many conflicts is split deeper",
    )
    parser.add_argument(
        "--split-pending",
        action="store_true",
        help="with --tree-depth: split the cubes not yet refuted at once, untried",
    )


def cube_options_fault(args: argparse.Namespace) -> str | None:
    """What is wrong with the options that cut and split cubes or ``--workers``
    (``None``: nothing)."""
    if not 1 <= args.cube_lines <= MOST_CUBE_LINES:
        return f"--cube-lines is 1 to {MOST_CUBE_LINES} lines per cube"
    if args.tree_depth is None and (args.split_conflicts is not None or args.split_pending):
        return "cubes split along the tree: give --tree-depth"
    if args.split_conflicts is not None and not 1 <= args.split_conflicts <= MOST_CONFLICTS:
        return f"--split-conflicts is a positive number of conflicts, at most {MOST_CONFLICTS:,}"
    if args.workers < 1:
        return "--workers is at least 1"
    return None


def word_check(longest: int) -> Callable[[str], bool]:
    """Whether a journal key is a cube's word (1 to ``longest`` labels), or one marked
    :data:`OVER`."""

    def valid(key: str) -> bool:
        word = key.removesuffix(OVER)
        return 0 < len(word) <= longest and set(word) <= {"0", "1"}

    return valid


class Refuting:
    """Solves the cubes not refuted yet, level by level: along a tree (``cut``), a cube
    over ``split_conflicts`` (or pending at the first level, with ``split_pending``) is
    split deeper; ``used`` collects the refuted words, which the caller must check cover
    every labelling.
    ``found(word, model)`` reports a model; the run then ends. Without a journal nothing
    is kept."""

    def __init__(
        self,
        clauses: Sequence[Sequence[int]],
        cut: Cut | None,
        journal: Journal | None,
        done: dict[str, Refuted],
        found: Callable[[str, list[int]], None],
        workers: int,
        split_conflicts: int | None = None,
        split_pending: bool = False,
    ) -> None:
        self.clauses, self.cut, self.journal, self.done = clauses, cut, journal, done
        self.found, self.workers = found, workers
        self.split_conflicts, self.split_pending = split_conflicts, split_pending
        recorded = journal.done if journal else {}
        self.over = {key[:-1] for key in recorded if key.endswith(OVER)}  # split, journaled
        self.used: list[str] = []

    def run(self, words: list[str], cubes: list[tuple[int, ...]], depth: int) -> bool:
        """Refute every word (the cut's words at ``depth`` labels, or with no cut the
        given cubes), or split it; True when a model was found."""
        line_cubes = dict(zip(words, cubes, strict=True))
        cut, untried = self.cut, self.split_pending
        while words:
            pending: dict[tuple[int, ...], str] = {}  # each cube to solve, and its word
            budgets: dict[tuple[int, ...], int] = {}
            split = []
            for word in words:
                splittable = cut is not None and len(word) < cut.deepest
                if word in self.done:
                    self.used.append(word)
                elif splittable and (word in self.over or untried):
                    split.append(word)  # split by an earlier run, or asked to be
                else:
                    cube = cut.cube(word) if cut else line_cubes[word]
                    pending[cube] = word
                    if splittable and self.split_conflicts is not None:
                        budgets[cube] = self.split_conflicts
            if pending and self._solve(pending, budgets, split):
                return True
            words, untried = [], False
            for word in split:
                assert cut is not None  # only a tree's words shorter than its deepest
                words += children(cut, word, depth)
                if word not in self.over:  # split untried: a resumed run splits it
                    self._record(word + OVER, 0.0)
                    self.over.add(word)
            depth = min(depth + SPLIT_STEP, cut.deepest) if cut else depth
        return False

    def _solve(
        self,
        batch: dict[tuple[int, ...], str],
        budgets: dict[tuple[int, ...], int],
        split: list[str],
    ) -> bool:
        """Solve one level's cubes (each with its word, some with a conflict budget);
        words over their budget join ``split``. True on a model."""
        for result in solved(self.clauses, list(batch), self.workers, budgets):
            word = batch[result.cube]
            if result.model is not None:
                self.found(word, result.model)
                return True
            if not result.decided:  # kept, so that a resumed run splits it at once
                self._record(word + OVER, result.seconds)
                self.over.add(word)
                split.append(word)
                print(
                    f"cube {word}: over {budgets[result.cube]:,} conflicts, split deeper",
                    flush=True,
                )
                continue
            self._record(word, result.seconds)
            self.done[word] = Refuted(result.seconds)
            self.used.append(word)
            if len(self.done) % 20 == 0 or result.seconds > 60:
                print(f"{len(self.done):,} cubes unsatisfiable", flush=True)
        return False

    def _record(self, key: str, seconds: float) -> None:
        if self.journal is not None:
            self.journal.record(key, seconds)
