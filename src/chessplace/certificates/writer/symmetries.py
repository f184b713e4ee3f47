"""The permutations a certificate offers for symmetry breaking (untrusted side).

Each is a board symmetry combined with a renumbering of armies that have the
same bounds, written as a permutation of the placement and line variables
(:func:`~chessplace.certificates.checker.formula.ride_lines`). Only those that keep
the position are offered: the board symmetry maps the blocked squares onto
themselves, and with the renumbering each army's given pieces onto those of the
army it becomes (a problem whose position no symmetry keeps gets none); count
rules and attack pairs are left to the checker's test, which keeps those that map
every count onto a count and every sight clause onto one. Nothing
here is trusted: the checker confirms every permutation is a symmetry of the
formula (its blocked and given unit clauses included) before it builds
lex-leader clauses from it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

from chessplace.certificates.checker.formula import (
    Bound,
    line_var,
    named_variables,
    ride_lines,
    rule_clauses,
    symmetry_fault,
)
from chessplace.certificates.checker.spec import Spec, Square


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


def confirmed_symmetries(spec: Spec, bounds: list[Bound]) -> list[list[int]]:
    """The permutations of :func:`symmetry_permutations` that the checker's
    :func:`~chessplace.certificates.checker.formula.symmetry_fault` accepts for these bounds:
    the ones a certificate's formula takes lex-leader clauses from."""
    rules = rule_clauses(spec)
    return [
        p for p in symmetry_permutations(spec) if symmetry_fault(spec, rules, bounds, p) is None
    ]


def symmetry_permutations(spec: Spec) -> list[list[int]]:
    """Every board symmetry × army renumbering that keeps the position, but the
    identity, as variable maps (``p[v-1]`` is the image of variable ``v``), without
    repeats."""
    if spec.counted_cover:
        return []  # the checker takes no symmetries for counted cover (its "sees" variables)
    kinds = [(a.betza, a.minimum, a.maximum, a.fixed) for a in spec.armies]
    renumberings = [
        p for p in _renumberings(len(kinds)) if all(kinds[i] == kinds[j] for i, j in enumerate(p))
    ]
    lines = ride_lines(spec)
    line_of = {frozenset(line): number for number, line in enumerate(lines)}
    found: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    identity = tuple(range(1, named_variables(spec) + 1))
    for board_map in _board_maps(spec.rows, spec.cols):
        if {board_map(square) for square in spec.blocked} != spec.blocked:
            continue
        moved = [spec.index(board_map(spec.square_of(s))) for s in range(spec.squares)]
        lines_moved = [line_of[frozenset(moved[s] for s in line)] for line in lines]
        for renumbering in renumberings:
            if {(renumbering[a], board_map(s)) for a, s in spec.given} != spec.given:
                continue
            image = [0] * len(identity)
            for army in range(len(spec.armies)):
                for s in range(spec.squares):
                    image[spec.var(army, spec.square_of(s)) - 1] = spec.var(
                        renumbering[army], spec.square_of(moved[s])
                    )
                for number, target in enumerate(lines_moved):
                    image[line_var(spec, army, number) - 1] = line_var(
                        spec, renumbering[army], target
                    )
            key = tuple(image)
            if key != identity and key not in seen:
                seen.add(key)
                found.append(image)
    return found


FULL_RENUMBERING_UP_TO = 4
"""Up to this many armies every renumbering is offered (4! = 24); beyond, only the
swaps of two neighbouring armies: lex-leader clauses for any subset of the
symmetries are sound, and 8 armies' 40,320 renumberings would make the formula
huge."""


def _renumberings(armies: int) -> list[tuple[int, ...]]:
    """Army renumberings to combine with the board symmetries."""
    if armies <= FULL_RENUMBERING_UP_TO:
        return list(permutations(range(armies)))
    identity = tuple(range(armies))
    swaps = [(*identity[:i], i + 1, i, *identity[i + 2 :]) for i in range(armies - 1)]
    return [identity, *swaps]
