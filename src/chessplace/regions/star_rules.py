"""The Star Battle rules of :mod:`chessplace.regions.deduction` (two or more pieces per
line): room counted with pieces apart (:func:`chessplace.regions.room.capacity`), over each
unit and over two neighbouring ranks or files taken together, and a short "what
if" chain of the other rules."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from chessplace.core.board import Square, square_name
from chessplace.regions.room import capacity
from chessplace.regions.rules import (
    State,
    Step,
    around,
    confined,
    last_squares,
    touching,
    unit_full,
    units_holding,
    would_empty,
)

Stop = Callable[[], bool]
"""Asked now and then during a long deduction: True to stop."""


def tight_room(state: State, pairs: bool | None = None) -> Step | None:
    """A unit whose free squares fit the pieces it needs only with a piece on some of
    them: those get a piece. ``pairs`` True looks at two neighbouring lines taken
    together only, False at single units only, ``None`` at both."""
    per_line = state.regions.per_line
    for name, squares, holds in state.room_units():
        if pairs is not None and pairs != (holds > per_line):
            continue
        rest = frozenset(state.unknown(squares))
        needed = state.needed(squares, holds)
        if needed <= 0 or len(rest) <= needed or capacity(rest) != needed:
            continue
        forced = tuple(sorted(s for s in rest if capacity(rest - {s}) < needed))
        if forced:
            return Step(
                "tight room",
                forced,
                (),
                f"{name} needs {needed} more, and its free squares hold that many only with these",
                1 if holds == per_line else 2,
            )
    return None


def would_cramp(state: State) -> Step | None:
    """The first unknown square whose piece would leave some unit (or two neighbouring
    lines) room for fewer pieces than it needs, pieces not touching."""
    units = list(state.room_units())
    rest = [frozenset(state.unknown(squares)) for _, squares, _ in units]
    needed = [state.needed(squares, holds) for _, squares, holds in units]
    holds_square = units_holding(state.regions)
    for square in sorted(s for squares in rest[: state.n] for s in squares):
        mine = holds_square[square]
        gone = {t for t in around(square, state.n) if t not in state.marks}
        for index in mine:
            if needed[index] == 1 and index < 3 * state.n:  # filled: the rest empties
                gone.update(rest[index])
        gone.add(square)
        touched = {index for t in gone for index in holds_square[t]}
        for index in sorted(touched):
            need = needed[index] - (index in mine)
            if need > 0 and capacity(rest[index] - gone) < need:
                return Step(
                    "would cramp a unit",
                    (),
                    (square,),
                    f"a piece on {square_name(square)} would leave {units[index][0]} "
                    f"room for fewer than {need} more",
                )
    return None


CHAIN_RULES = (touching, unit_full, last_squares, confined, would_empty, tight_room)
"""The rules a ``short chain`` follows: all before it but ``would cramp a unit``."""


def short_chain(state: State, stop: Stop) -> Step | None:
    """The first unknown square whose piece, followed by the :data:`CHAIN_RULES`, leaves
    a unit too cramped for its pieces (or two pieces touching), the squares of the
    tightest units tried first; ``None`` also when ``stop`` says to stop."""
    for square in _tightest_first(state):
        if stop():
            return None
        trial = State(state.regions, {**state.marks, square: True})
        moves = 0
        changed: tuple[Square, ...] = (square,)
        while (cramped := _cramped(trial, changed)) is None:
            step = next((found for rule in CHAIN_RULES if (found := rule(trial))), None)
            if step is None:
                break
            trial.apply(step)
            changed = step.places + step.empties
            moves += 1
        if cramped is not None:
            return Step(
                "short chain",
                (),
                (square,),
                f"a piece on {square_name(square)} and {moves} steps after it leave {cramped}",
            )
    return None


def _tightest_first(state: State) -> list[Square]:
    """The unknown squares, those of the units with the least room to spare first
    (where a trial piece most likely runs into trouble), then in board order."""
    slack: dict[Square, int] = {}
    for _, squares in state.units():
        rest = state.unknown(squares)
        spare = len(rest) - state.needed(squares)
        for square in rest:
            slack[square] = min(slack.get(square, spare), spare)
    return sorted(slack, key=lambda square: (slack[square], square))


def _cramped(state: State, changed: Iterable[Square]) -> str | None:
    """What makes the marks impossible, looking at the units that hold a ``changed``
    square: one with room for fewer pieces than it needs (or too many), or two
    pieces touching; ``None`` when nothing does."""
    units, holding = state.room_units(), units_holding(state.regions)
    changed = list(changed)
    for index in sorted({index for square in changed for index in holding[square]}):
        name, squares, holds = units[index]
        needed = state.needed(squares, holds)
        if needed < 0:
            return f"{name} with too many pieces"
        if capacity(frozenset(state.unknown(squares))) < needed:
            return f"{name} too little room"
    for square in changed:
        if state.marks.get(square) and any(state.marks.get(t) for t in around(square, state.n)):
            return f"two pieces touching at {square_name(square)}"
    return None
