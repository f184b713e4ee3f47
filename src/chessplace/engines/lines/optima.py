"""Every placement of two peaceable armies of exactly ``m`` each, from the line search.

A placement (W, B) of a pure rider is peaceable exactly when some labelling
of the lines (white or black each) puts every square of W on white lines
only and every square of B on black lines only, that is W ⊆ FW and B ⊆ FB,
the labelling's filled sets. So the placements with ``m`` of each are the
pairs of ``m``-subsets of FW and FB over the labellings with
min(|FW|, |FB|) >= ``m``; a labelling whose colour has more room than ``m``
holds several.

The search (:mod:`chessplace.engines.lines.kernel`, run to its leaves with the
target ``m`` and nothing raised) does not visit every such labelling, and
needs not:

- it cuts a rank/file prefix that some symmetry maps below itself: every
  placement P has a labelling L, and the symmetry g that makes g(L)'s
  rank/file part the smallest of its orbit leaves g(L)'s path uncut, so
  g(P) is reached and P comes back as an image of g(P);
- after the ranks and files, a line with no possible-white square is only
  labelled black (no possible-black: only white). The other label would
  only shrink the filled sets, so each leaf it skips is covered by a leaf
  it keeps whose FW and FB contain the skipped leaf's. In the search's own
  order such lines are not labelled at all: a node where every open line is
  one is a leaf, written with each of them in its one useful colour, and its
  filled sets are the squares still possible in each colour. Any placement
  (W, B) inside some labelling L follows L's colour at each line the search
  branches on, so W and B stay possible down to a leaf.

So the images, under the 16 symmetries (8 of the board × the colour swap),
of the pairs of subsets of the leaves it keeps are every such placement,
each met at least once. Each is brought to its class's smallest image
(a byte string per square: 0 empty, 1 white, 2 black) and kept in a set,
so the count of classes is exact and the count of placements is the sum of
the classes' orbit sizes.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from chessplace.core.board import Board, Symmetry
from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.geometry import Geometry
from chessplace.engines.lines.runner import LineSearch
from chessplace.runtime.control import Control

MAX_CLASSES = 5_000_000
"""The most classes kept in memory (a few hundred bytes each); past it the count is
refused rather than the machine's memory exhausted."""

LEAF_ROWS = 64
"""Leaves a chunk's buffer holds at first (it grows fourfold when full)."""


class TooManyPlacements(ValueError):
    """The count would hold more classes than :data:`MAX_CLASSES`."""


@dataclass
class Classes:
    """Placements seen so far, one key per class under the group of ``images``
    (square permutations, identity included) and the colour swap."""

    images: np.ndarray
    keys: set[bytes] = field(default_factory=set)
    placements: int = 0

    def add(self, white: tuple[int, ...], black: tuple[int, ...]) -> None:
        """Count the class of the placement ``white``/``black`` (square indices)."""
        squares = self.images.shape[1]
        colour = np.zeros(squares, dtype=np.uint8)
        colour[list(white)] = 1
        colour[list(black)] = 2
        swapped = np.where(colour == 0, 0, 3 - colour).astype(np.uint8)
        orbit = {bytes(image) for image in colour[self.images]}
        orbit |= {bytes(image) for image in swapped[self.images]}
        key = min(orbit)
        if key in self.keys:
            return
        if len(self.keys) >= MAX_CLASSES:
            raise TooManyPlacements(
                f"more than {MAX_CLASSES:,} classes of placements: count fewer pieces "
                "with another solver"
            )
        self.keys.add(key)
        self.placements += len(orbit)

    @property
    def classes(self) -> int:
        return len(self.keys)

    def representatives(self) -> Iterator[tuple[list[int], list[int]]]:
        """One placement (white squares, black squares) of each class."""
        for key in self.keys:
            colour = np.frombuffer(key, dtype=np.uint8)
            yield np.flatnonzero(colour == 1).tolist(), np.flatnonzero(colour == 2).tolist()


def board_images(board: Board, symmetries: Sequence[Symmetry] | None = None) -> np.ndarray:
    """The board's symmetries (default: all of them; a problem's keep its blocked
    squares) as square permutations (identity first), for :class:`Classes`."""
    group = board.symmetries() if symmetries is None else symmetries
    return np.array(
        [[board.index(t(board.at(s))) for s in range(board.size)] for t in group],
        dtype=np.intp,
    )


def filled(g: Geometry, labels: np.ndarray) -> tuple[list[int], list[int]]:
    """The open squares all of whose lines are white, and those all of whose lines are
    black."""
    colours = np.asarray(labels)[g.through]
    white = (colours == 1).all(axis=1) & g.free
    black = (colours == 0).all(axis=1) & g.free
    return np.flatnonzero(white).tolist(), np.flatnonzero(black).tolist()


def subsets(g: Geometry, labels: np.ndarray, m: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every pair of ``m``-subsets of a labelling's filled squares (white, black)."""
    white, black = filled(g, labels)
    for w in itertools.combinations(white, m):
        for b in itertools.combinations(black, m):
            yield w, b


@dataclass
class Enumeration:
    """The classes found, and whether every chunk was searched."""

    classes: Classes
    complete: bool
    nodes: int
    leaves: int


def enumerate_optima(
    search: LineSearch, m: int, images: np.ndarray, control: Control
) -> Enumeration:
    """Every placement with ``m`` of each army, by class (see the module's docstring),
    searched in chunks over ``search``'s threads. A stop ends it with the classes
    of the chunks finished (``complete`` false)."""
    g = search.geometry
    classes = Classes(images)
    shared = search.shared(m)
    lock = threading.Lock()
    state = {"done": 0, "nodes": 0, "leaves": 0}
    with control.interrupting(lambda: shared.__setitem__(0, 1)):
        prefixes = _prefixes(search, shared)
        if prefixes is None:
            return Enumeration(classes, False, 0, 0)
        total = len(prefixes)
        taken = [0]

        def work() -> None:
            while True:
                with lock:
                    if taken[0] >= total or shared[0] != 0 or control.stopped:
                        return
                    position = taken[0]
                    taken[0] += 1
                found = _leaves(g, prefixes[position], shared)
                if found is None:
                    return
                leaves, nodes = found
                with lock:
                    for labels in leaves:
                        for white, black in subsets(g, labels, m):
                            if control.stopped:
                                shared[0] = 1
                                return
                            classes.add(white, black)
                    state["done"] += 1
                    state["nodes"] += nodes
                    state["leaves"] += len(leaves)
                    control.report(count=classes.placements, done=state["done"], total=total)

        workers = search.workers or os.cpu_count() or 1
        with ThreadPoolExecutor(workers) as pool:
            for future in [pool.submit(work) for _ in range(workers)]:
                future.result()
    complete = state["done"] == total
    return Enumeration(classes, complete, state["nodes"], state["leaves"])


def _prefixes(search: LineSearch, shared: np.ndarray) -> np.ndarray | None:
    """The chunks: nodes at the split depth that the bounds for ``m`` keep."""
    rows, _ = search.split(search.split_depth(), shared)
    return rows


def _leaves(g: Geometry, prefix: np.ndarray, shared: np.ndarray) -> tuple[np.ndarray, int] | None:
    """Every leaf below ``prefix`` reaching the target ``shared[1]`` and the nodes
    visited; ``None`` when a stop was asked."""
    rows = LEAF_ROWS
    while True:
        out = np.zeros((rows, g.lines), dtype=np.int8)
        status, _, nodes, written, _, _ = call(g, prefix, g.lines, out, False, shared)
        if status == kernel.STOPPED:
            return None
        if status != kernel.FULL:
            return out[:written].copy(), nodes
        rows *= 4
