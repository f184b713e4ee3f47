"""The checker's own check of a witness placement, with real chess attacks.

Trusted side, sharing no code with :mod:`chessplace.core.verification`: it reads the
``pieces`` list of the project's placement JSON, walks every move of every
piece until the first piece in its way (over blocked squares), and compares the
given pieces, blocked squares, counts, count rules, attack pairs and coverage (how
many times each square is covered, when the problem says) with the problem.
"""

from __future__ import annotations

from typing import Any

from chessplace.certificates.checker.spec import Spec, Square, square_name


def read_witness(spec: Spec, data: Any) -> list[dict[Square, None]]:
    """The squares of each army (insertion-ordered) from placement JSON; ``ValueError``
    naming the first entry that is not a piece of the problem on its board."""
    pieces = data.get("pieces") if isinstance(data, dict) else None
    if not isinstance(pieces, list):
        raise ValueError("has no 'pieces' list")
    names = [army.name for army in spec.armies]
    armies: list[dict[Square, None]] = [{} for _ in names]
    taken: set[Square] = set()
    for number, entry in enumerate(pieces, 1):
        if not isinstance(entry, dict) or entry.get("army") not in names:
            raise ValueError(f"piece {number} names no army of the problem")
        file, rank = entry.get("file"), entry.get("rank")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (file, rank)):
            raise ValueError(f"piece {number} lacks a 1-based file and rank")
        assert isinstance(file, int) and isinstance(rank, int)
        square = (file - 1, rank - 1)
        if not spec.on_board(square):
            raise ValueError(f"piece {number} stands off the board")
        if square in taken:
            raise ValueError(f"piece {number} stands on a square already taken")
        taken.add(square)
        armies[names.index(entry["army"])][square] = None
    return armies


def witness_fault(spec: Spec, armies: list[dict[Square, None]]) -> str | None:
    """The first broken rule of the placement, or None when it is valid."""
    for index, squares in enumerate(armies):
        for square in squares:
            if square in spec.blocked:
                return f"{_name(spec, index, square)} stands on a blocked square"
    for index, square in sorted(spec.given, key=lambda given: spec.var(*given)):
        if square not in armies[index]:
            return f"the given {_name(spec, index, square)} is missing"
    sizes = [len(squares) for squares in armies]
    for army, size in zip(spec.armies, sizes, strict=True):
        if size < army.minimum or (army.maximum is not None and size > army.maximum):
            return f"{army.name} has {size} pieces, outside its bounds"
    if spec.equal_armies and len(set(sizes)) > 1:
        return f"the armies are not equal: {sizes}"
    for number, count in enumerate(spec.counts, 1):
        counted = range(len(armies)) if count.army is None else (count.army,)
        held = sum(1 for square in count.squares for a in counted if square in armies[a])
        if not count.admits(held):
            return f"count rule {number} holds {held} pieces, outside its bounds"
    owner = {square: index for index, squares in enumerate(armies) for square in squares}
    times = dict.fromkeys(owner, 1)
    for square, index in owner.items():
        attacked: set[Square] = set()
        for (dx, dy), reach in spec.moves(index).items():
            x, y = square
            steps = 0
            while reach is None or steps < reach:
                x, y, steps = x + dx, y + dy, steps + 1
                if not spec.on_board((x, y)):
                    break
                attacked.add((x, y))
                if (x, y) in owner:
                    if spec.forbids(index, owner[(x, y)]):
                        victim = _name(spec, owner[(x, y)], (x, y))
                        return f"{_name(spec, index, square)} attacks {victim}"
                    break
        for target in attacked:
            times[target] = times.get(target, 0) + 1
    if spec.dominating:
        return _cover_fault(spec, times)
    return None


def _cover_fault(spec: Spec, times: dict[Square, int]) -> str | None:
    """Whether every square that is not blocked is covered as often as the problem
    asks (once for its own piece, once for each piece attacking it)."""
    low, high = spec.cover
    needing = [
        square for s in range(spec.squares) if (square := spec.square_of(s)) not in spec.blocked
    ]
    if (low, high) == (1, None):
        bare = sum(1 for square in needing if not times.get(square))
        return f"{bare} squares are neither occupied nor attacked" if bare else None
    for square in needing:
        covered = times.get(square, 0)
        if covered < low or (high is not None and covered > high):
            asked = f"exactly {low}" if low == high else f"at least {low}"
            if high is not None and high != low:
                asked = f"{low} to {high}"
            return f"{square_name(square)} is covered {covered} times, the rule asks {asked}"
    return None


def objective(spec: Spec, armies: list[dict[Square, None]]) -> int:
    sizes = [len(armies[i]) for i in spec.scored]
    return min(sizes) if spec.equal_armies and spec.maximize else sum(sizes)


def _name(spec: Spec, army: int, square: Square) -> str:
    """``white d5``: the army and the square."""
    return f"{spec.armies[army].name} {square_name(square)}"
