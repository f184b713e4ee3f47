"""The permutations a certificate offers for symmetry breaking (untrusted side).

Each is a board symmetry combined with a renumbering of armies that have the
same bounds, written as a permutation of the placement variables. Nothing here
is trusted: the checker confirms every permutation is a symmetry of the
formula before it builds lex-leader clauses from it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

from chessplace.certificates.spec import Spec, Square


def _board_maps(rows: int, cols: int) -> list[Callable[[Square], Square]]:
    maps: list[Callable[[Square], Square]] = [
        lambda s: s,
        lambda s: (cols - 1 - s[0], s[1]),
        lambda s: (s[0], rows - 1 - s[1]),
        lambda s: (cols - 1 - s[0], rows - 1 - s[1]),
    ]
    if rows == cols:
        n = rows - 1
        maps += [
            lambda s: (s[1], s[0]),
            lambda s: (n - s[1], n - s[0]),
            lambda s: (n - s[1], s[0]),
            lambda s: (s[1], n - s[0]),
        ]
    return maps


def symmetry_permutations(spec: Spec) -> list[list[int]]:
    """Every board symmetry × army renumbering but the identity, as variable maps
    (``p[v-1]`` is the image of variable ``v``), without repeats."""
    kinds = [(a.minimum, a.maximum, a.fixed) for a in spec.armies]
    renumberings = [
        p
        for p in permutations(range(len(kinds)))
        if all(kinds[i] == kinds[j] for i, j in enumerate(p))
    ]
    found: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    identity = tuple(range(1, len(spec.armies) * spec.squares + 1))
    for board_map in _board_maps(spec.rows, spec.cols):
        for renumbering in renumberings:
            image = [0] * len(identity)
            for army in range(len(spec.armies)):
                for s in range(spec.squares):
                    square = spec.square_of(s)
                    image[spec.var(army, square) - 1] = spec.var(
                        renumbering[army], board_map(square)
                    )
            key = tuple(image)
            if key != identity and key not in seen:
                seen.add(key)
                found.append(image)
    return found
