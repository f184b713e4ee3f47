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
        "counts",
        "no_attack",
        "cover",
    )
)
"""Every key of a manifest's ``problem``: anything else is a rule not checked."""

GIVEN_KEYS = frozenset(("piece", "army", "square"))
"""The keys of each given piece: its piece (Betza, its army's), its army, its square."""

COUNT_KEYS = frozenset(("army", "squares", "at_least", "at_most"))
"""The keys of each count rule: its army's name (``null``: every army), its squares,
its bounds (``at_most`` ``null``: none)."""

COVER_KEYS = frozenset(("at_least", "at_most"))
"""The keys of ``cover``: how many times each square is covered, at least and at most."""

MAX_COUNTS = 1 << 16
"""The most count rules a manifest may list (each rank, file and region of a
64×64 board are 192; the model takes 10,000 rules)."""


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
class CountSpec:
    """A count rule: the pieces of army ``army`` (``None``: of every army) on
    ``squares`` number from ``at_least`` to ``at_most`` (``None``: no upper bound)."""

    army: int | None
    squares: tuple[Square, ...]
    at_least: int
    at_most: int | None

    def admits(self, count: int) -> bool:
        return count >= self.at_least and (self.at_most is None or count <= self.at_most)


@dataclass(frozen=True)
class Spec:
    """A placement problem as the checker understands it.

    Pieces of different armies never attack one another; pieces of one army
    may not either when ``independent``; with ``dominating`` every square is
    occupied, attacked or blocked. No piece stands on a ``blocked`` square (rides
    pass over it) and every ``given`` piece stands in every placement, counted in
    its army. Every army has the same piece, so that blockers never change the
    answer (see :mod:`chessplace.certificates`), unless ``no_attack`` is stated.

    The user's rules: each of ``counts`` bounds the pieces on its squares.
    ``no_attack`` (``None``: the rule above) lists the ordered pairs ``(attacker,
    target)`` of different armies whose pieces may not attack; every other pair of
    armies may, and then pieces block rides as in chess (a ride attacks the first
    piece in its way and nothing behind it; it passes over blocked squares), and
    the armies may have different pieces. ``cover`` (dominating only): every square
    that is not blocked is covered from ``cover[0]`` to ``cover[1]`` (``None``: no
    upper bound) times, once for its own piece and once for each piece attacking it,
    rides stopping at the first piece; ``(1, None)`` is plain domination.
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
    counts: tuple[CountSpec, ...] = ()
    no_attack: tuple[tuple[int, int], ...] | None = None
    """``(attacker, target)`` army numbers, in order; ``None``: no army attacks another."""
    cover: tuple[int, int | None] = (1, None)

    @property
    def counted_cover(self) -> bool:
        """True when squares must be covered a set number of times (not plain domination)."""
        return self.dominating and self.cover != (1, None)

    def forbids(self, attacker: int, target: int) -> bool:
        """True when a piece of army ``attacker`` may not attack one of army ``target``."""
        if attacker == target:
            return self.independent
        return self.no_attack is None or (attacker, target) in self.no_attack

    def moves(self, army: int) -> dict[tuple[int, int], int | None]:
        """The steps of army number ``army``'s piece with their reach."""
        return parse_moves(self.armies[army].betza)

    def paths(self, army: int, square: Square) -> list[tuple[Square, tuple[Square, ...]]]:
        """Every square a piece of army ``army`` on ``square`` reaches along one of its
        moves, with the squares it passes that are not blocked (blocked squares hold
        nothing: rides pass over them), one entry per move that reaches it."""
        found: list[tuple[Square, tuple[Square, ...]]] = []
        longest = max(self.rows, self.cols)
        for (dx, dy), reach in sorted(self.moves(army).items()):
            passed: list[Square] = []
            for k in range(1, min(longest, reach or longest) + 1):
                target = (square[0] + k * dx, square[1] + k * dy)
                if not self.on_board(target):
                    break
                found.append((target, tuple(passed)))
                if target not in self.blocked:
                    passed.append(target)
        return found

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
        if self.counts:
            data["counts"] = [
                {
                    "army": None if c.army is None else self.armies[c.army].name,
                    "squares": [square_name(s) for s in c.squares],
                    "at_least": c.at_least,
                    "at_most": c.at_most,
                }
                for c in self.counts
            ]
        if self.no_attack is not None:
            data["no_attack"] = [
                [self.armies[a].name, self.armies[b].name] for a, b in self.no_attack
            ]
        if self.cover != (1, None):
            data["cover"] = {"at_least": self.cover[0], "at_most": self.cover[1]}
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
        if not spec.armies:
            raise SpecError("a problem needs an army")
        if len({a.name for a in spec.armies}) != len(spec.armies):
            raise SpecError("army names must differ")
        if spec.dominating and len(spec.armies) != 1:
            raise SpecError("domination is certified for one army")
        if spec.equal_armies and not spec.maximize and len(spec.armies) > 1:
            raise SpecError("equal armies are certified when maximising")
        for army in spec.armies:
            parse_moves(army.betza)
        spec = replace(spec, no_attack=_no_attack(data.get("no_attack"), spec))
        if spec.no_attack is None and len({a.betza for a in spec.armies}) != 1:
            raise SpecError("every army must have the same piece, unless no_attack is stated")
        names = {square_name(spec.square_of(s)): spec.square_of(s) for s in range(spec.squares)}
        spec = replace(spec, blocked=_blocked(data.get("blocked", []), names, spec))
        spec = replace(spec, given=_given(data.get("given", []), names, spec))
        spec = replace(spec, counts=_counts(data.get("counts", []), names, spec))
        return replace(spec, cover=_cover(data.get("cover"), spec))


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


def _no_attack(data: Any, spec: Spec) -> tuple[tuple[int, int], ...] | None:
    """The attack pairs: ``null`` (absent), or a list of ``[attacker, target]`` names of
    two different armies, each pair once, ordered by attacker then target as the
    problem lists its armies; not with domination."""
    if data is None:
        return None
    if not isinstance(data, list):
        raise SpecError("no_attack: expected a list of [attacker, target] army names")
    if spec.dominating:
        raise SpecError("no_attack: attack rules are certified without domination")
    names = [army.name for army in spec.armies]
    pairs: list[tuple[int, int]] = []
    for number, pair in enumerate(data, 1):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(name, str) and name in names for name in pair)
        ):
            raise SpecError(f"no_attack: pair {number} is not two army names of the problem")
        attacker, target = names.index(pair[0]), names.index(pair[1])
        if attacker == target:
            raise SpecError(f"no_attack: pair {number} names one army twice")
        if pairs and (attacker, target) <= pairs[-1]:
            raise SpecError(
                f"no_attack: pair {number} is repeated or out of order (by attacker, then target)"
            )
        pairs.append((attacker, target))
    return tuple(pairs)


def _counts(data: Any, names: dict[str, Square], spec: Spec) -> tuple[CountSpec, ...]:
    """The count rules: a list of ``{army, squares, at_least, at_most}``, the army a
    name of the problem's or ``null`` (every army), the squares a non-empty list of
    square names each once, rank by rank and file by file within a rank, the bounds
    whole numbers (``at_most`` ``null`` or not below ``at_least``)."""
    if not isinstance(data, list):
        raise SpecError("counts: expected a list of {army, squares, at_least, at_most}")
    if len(data) > MAX_COUNTS:
        raise SpecError(f"counts: more than {MAX_COUNTS:,} count rules")
    armies = [army.name for army in spec.armies]
    counts: list[CountSpec] = []
    for number, entry in enumerate(data, 1):
        what = f"counts: rule {number}"
        if not isinstance(entry, dict) or set(entry) != COUNT_KEYS:
            raise SpecError(f"{what} is not an object of army, squares, at_least and at_most")
        army = entry["army"]
        if army is not None and army not in armies:
            raise SpecError(f"{what} names no army of the problem")
        listed = entry["squares"]
        if not isinstance(listed, list) or not listed:
            raise SpecError(f"{what} lists no squares")
        squares: list[Square] = []
        for name in listed:
            square = _square(name, names, spec, what)
            if squares and spec.index(square) <= spec.index(squares[-1]):
                raise SpecError(f"{what}: {name} is repeated or out of order (rank by rank)")
            squares.append(square)
        low = _count(entry["at_least"], f"{what}'s at_least")
        high = entry["at_most"]
        if high is not None and _count(high, f"{what}'s at_most") < low:
            raise SpecError(f"{what} asks at least {low} and at most {high}")
        counts.append(
            CountSpec(None if army is None else armies.index(army), tuple(squares), low, high)
        )
    return tuple(counts)


def _cover(data: Any, spec: Spec) -> tuple[int, int | None]:
    """How many times each square is covered: absent (at least once: plain domination),
    or ``{at_least, at_most}`` for a dominating problem, other than 1 and ``null``."""
    if data is None:
        return (1, None)
    if not isinstance(data, dict) or set(data) != COVER_KEYS:
        raise SpecError("cover: expected an object of at_least and at_most")
    if not spec.dominating:
        raise SpecError("cover: how often squares are covered is for a dominating problem")
    low = _count(data["at_least"], "cover's at_least")
    high = data["at_most"]
    if high is not None and _count(high, "cover's at_most") < low:
        raise SpecError(f"cover: at least {low} and at most {high}")
    if (low, high) == (1, None):
        raise SpecError("cover: at least 1 and no upper bound is plain domination: leave it out")
    return (low, high)


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
