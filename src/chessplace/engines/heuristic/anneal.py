"""Simulated annealing over line colours (Numba, ``nogil``).

The state is a white/black colour per line (see
:mod:`chessplace.encodings.lines`); a move recolours one line, and the number
of squares whose lines are all white (white pieces) or all black (black
pieces) is updated by walking that line only.

Simulated annealing: S. Kirkpatrick, C. D. Gelatt Jr., M. P. Vecchi, 1983,
"Optimization by simulated annealing", Science 220.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from chessplace.engines.support.jitcache import watch_compiles

watch_compiles()  # a first call that compiles is timed apart


@njit(nogil=True, cache=True)
def _score(white, black, fixed_white, balance):  # type: ignore[no-untyped-def]
    """What annealing maximises: the smaller army (plus ``balance`` of the total), or
    with ``fixed_white >= 0`` the black army, with white short of its size penalised."""
    if fixed_white >= 0:
        return 2.0 * min(white, fixed_white) + black
    return min(white, black) + balance * (white + black)


@njit(nogil=True, cache=True)
def anneal(  # type: ignore[no-untyped-def]
    members, lengths, through, colours, best, steps, hot, cold, seed, fixed_white, balance
):
    """Run ``steps`` recolourings from ``colours`` (updated in place) cooling from
    ``hot`` to ``cold``; the best colouring seen is copied into ``best``.

    Returns ``(white, black)`` of the best colouring.
    """
    np.random.seed(seed)
    squares = through.shape[0]
    lines = lengths.shape[0]
    # Cleared and copied by loops: np.zeros and slices would each compile a helper.
    white_lines = np.empty(squares, dtype=np.int32)
    for s in range(squares):
        white_lines[s] = 0
    for line in range(lines):
        if colours[line]:
            for k in range(lengths[line]):
                white_lines[members[line, k]] += 1
    white = 0
    black = 0
    for s in range(squares):
        if through[s] > 0 and white_lines[s] == through[s]:
            white += 1
        elif through[s] > 0 and white_lines[s] == 0:
            black += 1
    current = _score(white, black, fixed_white, balance)
    best_score = current
    best_white, best_black = white, black
    for line in range(lines):
        best[line] = colours[line]
    ratio = (cold / hot) ** (1.0 / max(steps - 1, 1))
    temperature = hot
    for _ in range(steps):
        line = np.random.randint(lines)
        to_white = colours[line] == 0
        d_white = 0
        d_black = 0
        for k in range(lengths[line]):
            s = members[line, k]
            count = white_lines[s]
            if to_white:
                if count == 0:
                    d_black -= 1
                if count + 1 == through[s]:
                    d_white += 1
            else:
                if count == through[s]:
                    d_white -= 1
                if count == 1:
                    d_black += 1
        proposed = _score(white + d_white, black + d_black, fixed_white, balance)
        change = proposed - current
        if change >= 0 or np.random.random() < np.exp(change / temperature):
            colours[line] = 1 - colours[line]
            step = 1 if to_white else -1
            for k in range(lengths[line]):
                white_lines[members[line, k]] += step
            white += d_white
            black += d_black
            current = proposed
            if current > best_score:
                best_score = current
                best_white, best_black = white, black
                for other in range(lines):
                    best[other] = colours[other]
        temperature *= ratio
    return best_white, best_black
