"""How many placements a count would meet, estimated before it starts.

A count that enumerates placements one at a time cannot finish when there are
astronomically many (``count queens -n 40`` ran for ten minutes on CP-SAT with
no word). For a single army of a piece that rides like a rook, with one piece
in every rank, the placements are the leaves of the rank-by-rank search; Knuth's
estimator (random paths down that tree, each weighted by the product of the
branchings it met) estimates their number without bias in a fraction of a second.

D. E. Knuth, 1975, "Estimating the efficiency of backtrack programs", Math. Comp. 29,
121-136.
"""

from __future__ import annotations

import random

from chessplace.core.attacks import bounded_pairs, ride_lines
from chessplace.core.problem import Problem

PROBES = 256
"""Random paths averaged (the estimate errs low more often than high: few paths reach
the rare rich subtrees, so a refusal on it is safe)."""
MAX_SIDE = 64
"""The largest board side estimated (the attack masks grow as the square of the side)."""


def placements_estimate(problem: Problem, seed: int = 0) -> float | None:
    """About how many placements ``problem`` has, or ``None`` when it is not a single
    army of a rook-like rider with one piece in every rank (on at most
    :data:`MAX_SIDE` ranks and files)."""
    board = problem.board
    if (
        problem.regions is not None
        or problem.dominating
        or len(problem.armies) != 1
        or max(board.rows, board.cols) > MAX_SIDE
    ):
        return None
    army = problem.armies[0]
    if not army.piece.has_rook_moves or army.minimum != board.rows:
        return None
    masks = [1 << s for s in range(board.size)]  # a piece's square and what it attacks
    for line in ride_lines(board, army.piece):
        whole = sum(1 << s for s in line)
        for s in line:
            masks[s] |= whole
    for s, t in bounded_pairs(board, army.piece):
        masks[s] |= 1 << t
        masks[t] |= 1 << s
    ranks = [[board.index((f, r)) for f in range(board.cols)] for r in range(board.rows)]
    chance = random.Random(seed)
    total = 0.0
    for _ in range(PROBES):
        taken, weight = 0, 1.0
        for rank in ranks:
            open_squares = [s for s in rank if not taken >> s & 1]
            if not open_squares:
                weight = 0.0
                break
            weight *= len(open_squares)
            taken |= masks[chance.choice(open_squares)]
        total += weight
    return total / PROBES
