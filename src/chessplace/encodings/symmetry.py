"""Sound symmetry breaking: lex-leader constraints over the problem's symmetry group.

The group is the board's symmetries, times renumbering armies that are
interchangeable (same piece, same counts). Every rule of a
:class:`Problem` is invariant under it, so each orbit of placements keeps its
lexicographically smallest member: requiring ``X <=lex g(X)`` for every ``g``
never removes every optimum, only its images. Requiring it for only some of
the ``g`` is sound too (it keeps at least that member), which is what keeps
many armies affordable: past :data:`MAX_RENUMBERINGS` renumberings (4 armies)
only the swaps of neighbouring armies are used. Counting must not use it.

Lex-leader constraints: J. Crawford, M. Ginsberg, E. Luks, A. Roy, 1996,
"Symmetry-breaking predicates for search problems", KR 1996.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from chessplace.core.problem import Problem
from chessplace.encodings.boolean import Literal

Mapping = Callable[[Literal], Literal]


MAX_RENUMBERINGS = 24
"""Use every renumbering of interchangeable armies up to this many (4! for 4 armies)."""


def group(problem: Problem) -> list[Mapping]:
    """The non-identity symmetries of the problem that the lex-leader constraints use,
    acting on ``(army, square)``: all of them unless armies are many (see above)."""
    board = problem.board
    squares = [
        [board.index(symmetry(board.at(s))) for s in range(board.size)]
        for symmetry in problem.symmetries()
    ]
    renumberings = _renumberings(problem)
    found: list[Mapping] = []
    for image in squares:
        for renumbering in renumberings:
            if image == squares[0] and renumbering == renumberings[0]:
                continue
            found.append(_mapping(image, renumbering))
    return found


def _renumberings(problem: Problem) -> tuple[tuple[int, ...], ...]:
    """Every renumbering of interchangeable armies (identity first), or past
    MAX_RENUMBERINGS the identity and the swaps of neighbouring armies in the group."""
    every = problem.army_permutations
    if len(every) <= MAX_RENUMBERINGS:
        return every
    identity = every[0]
    swaps = []
    for i in range(len(identity) - 1):
        swap = list(identity)
        swap[i], swap[i + 1] = swap[i + 1], swap[i]
        swaps.append(tuple(swap))
    return (identity, *(s for s in swaps if s in set(every)))


def _mapping(image: list[int], renumbering: tuple[int, ...]) -> Mapping:
    def apply(literal: Literal) -> Literal:
        army, square = literal
        return renumbering[army], image[square]

    return apply


def lex_leader(
    order: list[Literal],
    mapping: Mapping,
    var: Callable[[Literal], int],
    fresh: Callable[[], int],
) -> Iterator[list[int]]:
    """Clauses for ``X <=lex g(X)``, with X the variables in ``order``.

    ``equal_i`` is true exactly when the first i positions agree, so the
    constraint is neither weaker nor stronger than the lexicographic order.
    """
    equal = None  # None stands for "true": the empty prefix agrees
    for literal in order:
        x, y = var(literal), var(mapping(literal))
        if x == y:
            continue
        guard: list[int] = [] if equal is None else [-equal]
        yield [*guard, -x, y]  # prefix equal -> x <= y
        following = fresh()
        if equal is not None:
            yield [-following, equal]
        yield [-following, -x, y]
        yield [-following, x, -y]
        yield [*guard, x, y, following]
        yield [*guard, -x, -y, following]
        equal = following
