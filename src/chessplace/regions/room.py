"""Room: how many pieces fit on a set of squares when no two may touch.

Star Battle's deductions turn on it: a row of three free squares in a row
holds two stars only on its ends, and a region whose free squares fit in two
2×2 blocks holds at most two. :func:`capacity` is exact up to
:data:`EXACT_SQUARES` squares and an upper bound beyond, which keeps every rule
built on "too little room" sound.
"""

from __future__ import annotations

from functools import lru_cache

from chessplace.core.board import Square

EXACT_SQUARES = 30
"""The most squares whose room is found exactly (a search over them); larger sets
get the 2×2-block bound."""


@lru_cache(maxsize=1 << 16)
def capacity(squares: frozenset[Square]) -> int:
    """The most pairwise non-touching squares among ``squares`` (touching includes
    corners); beyond :data:`EXACT_SQUARES` squares an upper bound: the number of
    aligned 2×2 blocks they meet, each of which holds at most one piece."""
    if len(squares) <= 1:
        return len(squares)
    files = {f for f, _ in squares}
    ranks = {r for _, r in squares}
    if max(ranks) - min(ranks) <= 1:  # one or two adjacent ranks: a line of files
        return _on_a_line(files)
    if max(files) - min(files) <= 1:
        return _on_a_line(ranks)
    if len(squares) > EXACT_SQUARES:
        return len({(f // 2, r // 2) for f, r in squares})
    return _largest_apart(tuple(sorted(squares)))


def _on_a_line(positions: set[int]) -> int:
    """The most positions on a line at least two apart (greedy from one end is best).
    Two adjacent ranks project onto their files: squares in one file, or in
    neighbouring files, touch."""
    count, last = 0, None
    for position in sorted(positions):
        if last is None or position - last >= 2:
            count, last = count + 1, position
    return count


def _largest_apart(squares: tuple[Square, ...]) -> int:
    """Exact largest set of non-touching squares, by branching on the first square."""
    index = {square: i for i, square in enumerate(squares)}
    near = [0] * len(squares)
    for i, (f, r) in enumerate(squares):
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                j = index.get((f + df, r + dr))
                if j is not None:
                    near[i] |= 1 << j  # includes the square itself
    memo: dict[int, int] = {}

    def best(left: int) -> int:
        if left == 0:
            return 0
        if left in memo:
            return memo[left]
        first = (left & -left).bit_length() - 1
        taken = 1 + best(left & ~near[first])
        if near[first] & left != 1 << first:  # it has neighbours left: try without it
            taken = max(taken, best(left & ~(1 << first)))
        memo[left] = taken
        return taken

    return best((1 << len(squares)) - 1)
