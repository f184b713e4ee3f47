"""The checker's own reading of a problem: board, armies, rules and moves.

This module belongs to the trusted side of certificates. It imports nothing
from the rest of chessplace: it reads the problem from the manifest's plain
data, parses the pieces' Betza notation itself and works out attacks from the
moves by its own code, so a bug in the solvers' geometry cannot hide here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

Square = tuple[int, int]
"""``(file, rank)``, 0-based, a1 = (0, 0)."""

_ATOMS = {
    "W": (1, 0),
    "F": (1, 1),
    "D": (2, 0),
    "N": (2, 1),
    "A": (2, 2),
    "H": (3, 0),
    "C": (3, 1),
    "Z": (3, 2),
    "G": (3, 3),
}
_SHORTHANDS = {"K": "WF", "R": "W", "B": "F", "Q": "WF"}
"""Shorthand → its atoms. ``K`` leaps (or rides as far as its number says) like
``W`` and ``F``; ``R``, ``B`` and ``Q`` ride without limit (or as far as their number
says): ``K2`` is ``W2F2``, ``K0`` and ``Q`` ride as a queen, ``R3`` is ``W3``."""
_RIDERS = frozenset("RBQ")
_TOKEN = re.compile(r"([A-Z])(\1?)([0-9]*)")

MAX_CERTIFIED_SIDE = 64
"""The largest board side a certificate may describe (formulas grow as side⁴)."""


PROBLEM_KEYS = frozenset(
    (
        "rows",
        "cols",
        "armies",
        "independent",
        "dominating",
        "equal_armies",
        "sense",
        "blocked",
        "given",
    )
)
"""Every key of a manifest's ``problem``: anything else is a rule not checked."""

GIVEN_KEYS = frozenset(("piece", "army", "square"))
"""The keys of each given piece: its piece (Betza, its army's), its army, its square."""


class SpecError(ValueError):
    """The manifest's problem is not one the checker understands."""


def parse_moves(betza: str) -> dict[tuple[int, int], int | None]:
    """Each step ``(dx, dy)`` of a piece, every sign and swap, with its reach
    (``None``: without limit). Atoms, doubled atoms, the shorthands ``K R B Q``
    and numbers are read, each token on its own, as the model reads them; a
    doubled shorthand (``KK``) or a doubled atom with a number (``WW2``) is refused."""
    steps: dict[tuple[int, int], int | None] = {}
    position = 0
    while position < len(betza):
        match = _TOKEN.match(betza, position)
        if match is None:
            raise SpecError(f"cannot read Betza notation {betza[:40]!r}")
        letter, doubled, digits = match.groups()
        if (doubled and (digits or letter in _SHORTHANDS)) or len(digits) > 9:
            raise SpecError(f"cannot read Betza notation {betza[:40]!r}")
        if letter in _SHORTHANDS:
            atoms = _SHORTHANDS[letter]
            reach = _token_reach(digits, rides=letter in _RIDERS)
        elif letter in _ATOMS:
            atoms = letter
            reach = None if doubled else _token_reach(digits, rides=False)
        else:
            raise SpecError(f"cannot read Betza notation {betza[:40]!r}")
        for atom in atoms:
            _add_step(steps, _ATOMS[atom], reach)
        position = match.end()
    if not steps:
        raise SpecError("a piece needs at least one move")
    return steps


def _token_reach(digits: str, rides: bool) -> int | None:
    """A token's reach: its number (0 rides without limit), else a ride or one leap."""
    if digits:
        return int(digits) or None
    return None if rides else 1


def _add_step(steps: dict[tuple[int, int], int | None], atom: Square, reach: int | None) -> None:
    """Adds the atom's eight (or four) directions with ``reach``; the longer reach wins."""
    a, b = atom
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                old = steps.get((sx * x, sy * y), 0)
                longer = None if old is None or reach is None else max(old, reach)
                steps[(sx * x, sy * y)] = longer


def describe_moves(steps: dict[tuple[int, int], int | None], longest: int) -> str:
    """The moves the checker uses, written back as plain atoms on a board whose
    longest side is ``longest`` (a ride that crosses the board is written doubled):
    what the verdict names, never the manifest's own text."""
    parts = []
    for name, (a, b) in _ATOMS.items():
        if (a, b) not in steps:
            continue
        reach = steps[(a, b)]
        if reach is not None and reach > 1 and reach * a >= longest - 1:
            reach = None
        parts.append(name + (name if reach is None else "" if reach == 1 else str(reach)))
    return "".join(parts)


@dataclass(frozen=True)
class ArmySpec:
    """One army: its name, its piece's moves, and bounds on its size."""

    name: str
    betza: str
    minimum: int
    maximum: int | None
    fixed: bool


@dataclass(frozen=True)
class Spec:
    """A placement problem as the checker understands it.

    Pieces of different armies never attack one another; pieces of one army
    may not either when ``independent``; with ``dominating`` every square is
    occupied, attacked or blocked. No piece stands on a ``blocked`` square (rides
    pass over it) and every ``given`` piece stands in every placement, counted in
    its army. Every army has the same piece, so that blockers never change the
    answer (see :mod:`chessplace.certificates`).
    """

    rows: int
    cols: int
    armies: tuple[ArmySpec, ...]
    independent: bool
    dominating: bool
    equal_armies: bool
    maximize: bool
    blocked: frozenset[Square] = frozenset()
    given: frozenset[tuple[int, Square]] = frozenset()
    """``(army, square)``: the army holds the square in every placement."""

    @property
    def squares(self) -> int:
        return self.rows * self.cols

    @property
    def scored(self) -> tuple[int, ...]:
        """The armies the objective counts: all but fixed ones."""
        free = tuple(i for i, army in enumerate(self.armies) if not army.fixed)
        return free or tuple(range(len(self.armies)))

    def var(self, army: int, square: Square) -> int:
        """The DIMACS variable of ``army`` on ``square``: 1 + army·squares + rank·cols + file."""
        return 1 + army * self.squares + square[1] * self.cols + square[0]

    def square_of(self, index: int) -> Square:
        return index % self.cols, index // self.cols

    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.cols and 0 <= square[1] < self.rows

    def index(self, square: Square) -> int:
        return square[1] * self.cols + square[0]

    def reach_pairs(self) -> list[tuple[int, int]]:
        """Unordered pairs ``(s, t)``, ``s < t`` of square indices on which the piece
        attacks one from the other when nothing stands between them."""
        moves = parse_moves(self.armies[0].betza)
        longest = max(self.rows, self.cols)
        pairs: set[tuple[int, int]] = set()
        for s in range(self.squares):
            x, y = self.square_of(s)
            for (dx, dy), reach in moves.items():
                for k in range(1, min(longest, reach or longest) + 1):
                    target = (x + k * dx, y + k * dy)
                    if not self.on_board(target):
                        break
                    t = target[1] * self.cols + target[0]
                    pairs.add((min(s, t), max(s, t)))
        return sorted(pairs)

    def to_data(self) -> dict[str, Any]:
        """The manifest's ``problem``; ``blocked`` and ``given`` only when there are
        some, in the canonical order that :meth:`from_data` requires."""
        data: dict[str, Any] = {
            "rows": self.rows,
            "cols": self.cols,
            "armies": [
                {
                    "name": a.name,
                    "betza": a.betza,
                    "minimum": a.minimum,
                    "maximum": a.maximum,
                    "fixed": a.fixed,
                }
                for a in self.armies
            ],
            "independent": self.independent,
            "dominating": self.dominating,
            "equal_armies": self.equal_armies,
            "sense": "maximize" if self.maximize else "minimize",
        }
        if self.blocked:
            data["blocked"] = [square_name(s) for s in sorted(self.blocked, key=self.index)]
        if self.given:
            data["given"] = [
                {
                    "piece": self.armies[a].betza,
                    "army": self.armies[a].name,
                    "square": square_name(s),
                }
                for a, s in sorted(self.given, key=lambda g: self.var(*g))
            ]
        return data

    @classmethod
    def from_data(cls, data: Any) -> Spec:
        """The spec in a manifest's ``problem``; :class:`SpecError` naming what is wrong,
        a rule the checker does not know (such as a torus) among them."""
        if isinstance(data, dict):
            unknown = sorted(str(key)[:40] for key in set(data) - PROBLEM_KEYS)
            if unknown:
                raise SpecError(f"rules the checker does not know: {', '.join(unknown[:5])}")
        try:
            spec = cls(
                rows=_count(data["rows"], "rows", 1),
                cols=_count(data["cols"], "cols", 1),
                armies=tuple(_army(entry) for entry in data["armies"]),
                independent=_flag(data["independent"]),
                dominating=_flag(data["dominating"]),
                equal_armies=_flag(data["equal_armies"]),
                maximize={"maximize": True, "minimize": False}[data["sense"]],
            )
        except (KeyError, TypeError) as error:
            raise SpecError(f"the problem lacks or misstates {error}") from None
        if max(spec.rows, spec.cols) > MAX_CERTIFIED_SIDE:
            raise SpecError(f"boards up to {MAX_CERTIFIED_SIDE} squares a side are certified")
        if not spec.armies or len({a.betza for a in spec.armies}) != 1:
            raise SpecError("every army must have the same piece")
        if len({a.name for a in spec.armies}) != len(spec.armies):
            raise SpecError("army names must differ")
        if spec.dominating and len(spec.armies) != 1:
            raise SpecError("domination is certified for one army")
        parse_moves(spec.armies[0].betza)
        names = {square_name(spec.square_of(s)): spec.square_of(s) for s in range(spec.squares)}
        spec = replace(spec, blocked=_blocked(data.get("blocked", []), names, spec))
        return replace(spec, given=_given(data.get("given", []), names, spec))


def square_name(square: Square) -> str:
    """``d5``: files a..z then aa, ab, … (bijective base 26), ranks from 1."""
    file, letters = square[0], ""
    while True:
        file, rest = divmod(file, 26)
        letters = chr(ord("a") + rest) + letters
        if not file:
            break
        file -= 1
    return f"{letters}{square[1] + 1}"


def _square(name: Any, names: dict[str, Square], spec: Spec, what: str) -> Square:
    """The square a name in the manifest names: exactly as :func:`square_name` writes
    one of the board's squares."""
    if not isinstance(name, str) or name not in names:
        shown = repr(name)[:40]
        raise SpecError(f"{what}: {shown} is not a square of the {spec.rows}×{spec.cols} board")
    return names[name]


def _blocked(data: Any, names: dict[str, Square], spec: Spec) -> frozenset[Square]:
    """The blocked squares: a list of square names, each once, rank by rank and file
    by file within a rank (a1, b1, …, a2, …)."""
    if not isinstance(data, list):
        raise SpecError("blocked: expected a list of square names")
    squares: list[Square] = []
    seen: set[Square] = set()
    for name in data:
        square = _square(name, names, spec, "blocked")
        if square in seen:
            raise SpecError(f"blocked: {name} is listed twice")
        if squares and spec.index(square) < spec.index(squares[-1]):
            raise SpecError(f"blocked: {name} is out of order (rank by rank, file by file)")
        squares.append(square)
        seen.add(square)
    return frozenset(squares)


def _given(data: Any, names: dict[str, Square], spec: Spec) -> frozenset[tuple[int, Square]]:
    """The given pieces: a list of ``{piece, army, square}``, the piece in Betza as its
    army's, ordered by army (as the problem lists them), then rank, then file; none on
    a blocked square, one on a square."""
    if not isinstance(data, list):
        raise SpecError("given: expected a list of {piece, army, square}")
    armies = [army.name for army in spec.armies]
    taken: dict[Square, int] = {}
    last = 0
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, dict) or set(entry) != GIVEN_KEYS:
            raise SpecError(f"given: piece {number} is not an object of piece, army and square")
        if entry["army"] not in armies:
            raise SpecError(f"given: piece {number} names no army of the problem")
        army = armies.index(entry["army"])
        square = _square(entry["square"], names, spec, "given")
        where = f"given: {entry['army']} {square_name(square)}"
        if entry["piece"] != spec.armies[army].betza:
            raise SpecError(f"{where} is not its army's piece {spec.armies[army].betza}")
        if square in spec.blocked:
            raise SpecError(f"{where} stands on a blocked square")
        if square in taken:
            other = armies[taken[square]]
            again = "is listed twice" if other == armies[army] else f"shares it with {other}"
            raise SpecError(f"{where} {again}")
        if spec.var(army, square) < last:
            raise SpecError(f"{where} is out of order (army by army, rank by rank, file by file)")
        taken[square] = army
        last = spec.var(army, square)
    return frozenset((army, square) for square, army in taken.items())


def _count(value: Any, what: str, least: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise SpecError(f"{what} must be an integer of at least {least}, not {value!r}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise SpecError(f"expected true or false, not {value!r}")
    return value


def _text(value: Any, what: str) -> str:
    """A string that prints on one line (it ends up in the verdict)."""
    if not isinstance(value, str) or not value.isprintable():
        raise SpecError(f"{what} must be printable text, not {value!r}")
    return value


def _army(entry: Any) -> ArmySpec:
    maximum = entry["maximum"]
    return ArmySpec(
        name=_text(entry["name"], "an army's name"),
        betza=str(entry["betza"]),
        minimum=_count(entry["minimum"], "minimum"),
        maximum=None if maximum is None else _count(maximum, "maximum"),
        fixed=_flag(entry["fixed"]),
    )
