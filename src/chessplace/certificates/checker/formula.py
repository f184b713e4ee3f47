"""The certified formula: a deliberately plain CNF of a problem and a bound.

Trusted side. One variable per army and square (:meth:`Spec.var`); a binary
clause for every pair of pieces that may not stand where they would attack
each other (blockers ignored: with one piece kind, two pieces on a line always
include a pair that attack directly); a unit clause for every army on every
blocked square (false: rides pass over it, so nothing else changes) and for
every given piece (true: counted in its army like any other); one clause per
square that is not blocked for domination;
a totalizer (O. Bailleux, Y. Boufkhad, 2003, "Efficient CNF encoding of Boolean
cardinality constraints", CP 2003) for "at least" and "at most"; lex-leader clauses,
built here from the permutations a certificate lists, after
:func:`symmetry_fault` has confirmed that each one maps the rules and the
bounds onto themselves. Everything is sorted so that the DIMACS text, and so
its SHA-256, depends on nothing but the problem, the bounds and the
permutations.

Line variables (peaceable armies: two or more, whose own pieces may attack
each other). Along a line of an unlimited ride every square attacks every
other (blockers ignored), so "no two armies attack each other along this
line" is exactly "at most one army stands on it". The formula gives every
such line one army as its *label*, with one variable per army and line:
``x(a, s) → L(a, l)`` for every square ``s`` of ``l``, ``¬L(a, l) ∨ ¬L(b, l)``
for armies ``a < b`` and ``L(0, l) ∨ L(1, l) ∨ …``; pairs that no such line
joins (limited moves) keep their binary clauses. The placements that satisfy
these clauses (for some labels) are exactly those that satisfy the binary
clauses of every pair on the lines: given a placement with no line shared,
label each line with the army standing on it (any army when none does);
conversely a line with two armies on it would need two labels. So refuting
the formula with line variables refutes the placement problem.

Labels are what the line-labelling engine searches, so a cube of labels is
a node of its search tree, and the lex-leader order puts the labels of the
ranks and files first, from the edges inward (rank 0, file 0, last rank,
last file, rank 1, …), as that engine compares them: its symmetry cuts are
then refuted by unit propagation.

The user's rules. A count rule is a totalizer over the variables of its army (or
of every army) on its squares, among the bounds. With attack pairs
(``no_attack``) blockers matter, so neither line variables nor the binary clauses
above are used: for every piece of army ``a`` on ``s``, every square ``t`` one of
its moves reaches and every army ``b`` that ``a`` may not attack, a *sight clause*
"not a on s, or not b on t, or some piece on a square the move passes" (no
variables but the placement ones; blocked squares hold nothing and are not
listed). Squares covered a set number of times: for each square ``s`` and square
``t`` a move from ``s`` reaches, a variable "a piece on ``s`` sees ``t``", defined
as the placement variable of ``s`` for a leap and otherwise as the disjunction of
one variable per move, each "a piece on ``s`` and none on the squares passed"
(both directions of every definition); then per square that is not blocked a
totalizer over its own placement variable and the variables of the squares that
see it. Those definitions are numbered after the placement and line variables,
which no listed permutation may move, so a formula with them takes no symmetries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chessplace.certificates.checker.spec import Spec, Square, parse_moves

Clause = tuple[int, ...]


@dataclass(frozen=True)
class Bound:
    """At least ``least`` and at most ``most`` of ``variables`` are true; ``rule``: a
    count rule's number (from 1), ``0`` for an army's or the objective's bound."""

    variables: tuple[int, ...]
    least: int = 0
    most: int | None = None
    rule: int = 0

    def describe(self, spec: Spec) -> str:
        armies = sorted({(v - 1) // spec.squares for v in self.variables})
        names = " + ".join(spec.armies[a].name for a in armies)
        if self.rule:
            names = f"count rule {self.rule}: {names}"
        if self.most == self.least:
            return f"{names} exactly {self.least}"
        if self.most is None:
            return f"{names} at least {self.least}"
        return (
            f"{names} at most {self.most}"
            if not self.least
            else f"{names} {self.least}..{self.most}"
        )


def army_variables(spec: Spec, army: int) -> tuple[int, ...]:
    first = spec.var(army, (0, 0))
    return tuple(range(first, first + spec.squares))


def ride_directions(spec: Spec) -> list[tuple[int, int]]:
    """One direction of each unlimited ride of peaceable armies (two or more, not
    independent, without attack pairs), ranks (1, 0) before files (0, 1) before the
    others; none otherwise."""
    if len(spec.armies) < 2 or spec.independent or spec.no_attack is not None:
        return []
    moves = parse_moves(spec.armies[0].betza)
    return sorted(
        {max(step, (-step[0], -step[1])) for step, reach in moves.items() if reach is None},
        key=lambda step: (0 in step, step),
        reverse=True,
    )


def ride_families(spec: Spec) -> list[list[tuple[int, ...]]]:
    """The lines that get line variables, one list per direction of
    :func:`ride_directions`: every line of two squares or more. Each line lists its
    square indices in order, and a direction's lines come from rank or file 0 up."""
    families: list[list[tuple[int, ...]]] = []
    for dx, dy in ride_directions(spec):
        family = []
        for start in range(spec.squares):
            x, y = spec.square_of(start)
            if spec.on_board((x - dx, y - dy)):
                continue
            line = []
            while spec.on_board((x, y)):
                line.append(y * spec.cols + x)
                x, y = x + dx, y + dy
            if len(line) >= 2:
                family.append(tuple(line))
        families.append(family)
    return families


def ride_lines(spec: Spec) -> list[tuple[int, ...]]:
    """The lines of :func:`ride_families`, numbered one of each direction in turn."""
    families = ride_families(spec)
    longest = max((len(family) for family in families), default=0)
    return [family[i] for i in range(longest) for family in families if i < len(family)]


def named_variables(spec: Spec) -> int:
    """Placement variables, then line variables: the ones permutations act on."""
    return len(spec.armies) * (spec.squares + len(ride_lines(spec)))


def line_var(spec: Spec, army: int, line: int) -> int:
    """The variable "line number ``line`` of :func:`ride_lines` is labelled ``army``"."""
    return len(spec.armies) * (spec.squares + line) + army + 1


def rule_clauses(spec: Spec) -> list[Clause]:
    """The rules of the problem, no counts: one army per square, none on a blocked
    square, every given piece placed, no attacks that the rules forbid (through
    line labels along ride lines, see the module's docstring; sight clauses with
    attack pairs), every square that is not blocked covered when dominating (at
    least once; a set number of times is :func:`add_cover_counts`)."""
    clauses: set[Clause] = set()
    armies = range(len(spec.armies))
    clauses.update((-spec.var(a, square),) for square in spec.blocked for a in armies)
    clauses.update((spec.var(a, square),) for a, square in spec.given)
    for s in range(spec.squares):
        square = spec.square_of(s)
        for a in armies:
            for b in armies:
                if a < b:
                    clauses.add(_sorted((-spec.var(a, square), -spec.var(b, square))))
    if spec.no_attack is not None:
        clauses.update(sight_clauses(spec))
        return sorted(clauses)
    lines = ride_lines(spec)
    joined: set[tuple[int, int]] = set()
    for number, line in enumerate(lines):
        joined.update((s, t) for s in line for t in line if s < t)
        for a in armies:
            flag = line_var(spec, a, number)
            clauses.update(_sorted((-spec.var(a, spec.square_of(s)), flag)) for s in line)
            for b in armies:
                if a < b:
                    clauses.add((-flag, -line_var(spec, b, number)))
        clauses.add(tuple(line_var(spec, a, number) for a in armies))
    pairs = spec.reach_pairs()
    for s, t in pairs:
        for a in armies:
            for b in armies:
                if (a != b and (s, t) not in joined) or spec.independent:
                    u, v = spec.var(a, spec.square_of(s)), spec.var(b, spec.square_of(t))
                    clauses.add(_sorted((-u, -v)))
    if spec.dominating and not spec.counted_cover:
        reach: list[set[int]] = [{s} for s in range(spec.squares)]
        for s, t in pairs:
            reach[s].add(t)
            reach[t].add(s)
        for t in range(spec.squares):
            if spec.square_of(t) in spec.blocked:
                continue
            clauses.add(
                _sorted(tuple(spec.var(a, spec.square_of(s)) for a in armies for s in reach[t]))
            )
    return sorted(clauses)


def sight_clauses(spec: Spec) -> set[Clause]:
    """No piece sees a piece it may not attack (with attack pairs: blockers matter):
    for army ``a`` on ``s``, each square ``t`` a move of its piece reaches and each
    army ``b`` it may not attack, "not a on s, or not b on t, or a piece of some army
    on a square the move passes". Blocked squares hold nothing: no clause ends on
    one and none lists one."""
    armies = range(len(spec.armies))
    clauses: set[Clause] = set()
    for a in armies:
        targets = [b for b in armies if spec.forbids(a, b)]
        if not targets:
            continue
        for s in range(spec.squares):
            square = spec.square_of(s)
            if square in spec.blocked:
                continue
            for target, passed in spec.paths(a, square):
                if target in spec.blocked:
                    continue
                between = tuple(spec.var(c, m) for m in passed for c in armies)
                for b in targets:
                    clause = (-spec.var(a, square), -spec.var(b, target), *between)
                    clauses.add(_sorted(clause))
    return clauses


def add_cover_counts(formula: Formula, spec: Spec) -> None:
    """Every square that is not blocked covered ``spec.cover`` times (its own piece
    once, each piece that attacks it once, rides stopping at the first piece): "sees"
    variables defined both ways, then a totalizer per square (see the module's
    docstring). Nothing when the problem asks plain domination or none."""
    if not spec.counted_cover:
        return
    low, high = spec.cover
    seers: dict[Square, list[int]] = {}
    for s in range(spec.squares):
        square = spec.square_of(s)
        if square in spec.blocked:
            continue
        here = spec.var(0, square)
        ways: dict[Square, set[tuple[Square, ...]]] = {}
        for target, passed in spec.paths(0, square):
            if target not in spec.blocked:
                ways.setdefault(target, set()).add(passed)
        for target in sorted(ways, key=spec.index):
            if () in ways[target]:  # a move that passes no square: it sees whenever it stands
                seers.setdefault(target, []).append(here)
                continue
            clear = []
            for passed in sorted(ways[target]):
                way = formula.fresh()
                formula.clauses.append((-way, here))
                formula.clauses += [(-way, -spec.var(0, m)) for m in passed]
                formula.clauses.append((way, -here, *(spec.var(0, m) for m in passed)))
                clear.append(way)
            sees = clear[0]
            if len(clear) > 1:
                sees = formula.fresh()
                formula.clauses += [(-way, sees) for way in clear]
                formula.clauses.append((-sees, *clear))
            seers.setdefault(target, []).append(sees)
    for t in range(spec.squares):
        square = spec.square_of(t)
        if square in spec.blocked:
            continue
        covering = [spec.var(0, square), *seers.get(square, [])]
        formula.at_least(covering, low)
        if high is not None:
            formula.at_most(covering, high)


def count_bounds(spec: Spec) -> list[Bound]:
    """The count rules as bounds over the variables of their army (of every army) on
    their squares, numbered as the manifest lists them."""
    armies = range(len(spec.armies))
    return [
        Bound(
            tuple(
                spec.var(a, square)
                for square in count.squares
                for a in (armies if count.army is None else (count.army,))
            ),
            count.at_least,
            count.at_most,
            number,
        )
        for number, count in enumerate(spec.counts, 1)
    ]


def claim_bounds(spec: Spec, claim: Mapping[str, object]) -> list[Bound]:
    """The bounds that, with the rules, are refuted to prove ``claim``.

    ``infeasible``: each army's own bounds and the count rules. ``optimum`` v:
    each army's own bounds, the count rules, and the objective one step past v
    (each scored army at least v+1 with equal armies, else their total; at most
    v−1 when minimising). Refuting per-army bounds without requiring equal armies
    proves more than needed, never less.
    """
    bounds = [
        Bound(army_variables(spec, i), army.minimum, army.maximum)
        for i, army in enumerate(spec.armies)
        if army.minimum > 0 or army.maximum is not None
    ]
    bounds += count_bounds(spec)
    if claim.get("kind") == "infeasible":
        return bounds
    value = claim.get("value")
    assert isinstance(value, int)
    scored = spec.scored
    if spec.maximize and spec.equal_armies:
        bounds += [Bound(army_variables(spec, i), value + 1) for i in scored]
    else:
        joined = tuple(v for i in scored for v in army_variables(spec, i))
        bounds.append(Bound(joined, value + 1) if spec.maximize else Bound(joined, 0, value - 1))
    return bounds


def symmetry_fault(
    spec: Spec, rules: Sequence[Clause], bounds: Sequence[Bound], permutation: Sequence[int]
) -> str | None:
    """Why ``permutation`` (``permutation[v-1]`` is the image of variable ``v``) is not
    a symmetry of the rules and the bounds; None when it is. It must permute all the
    placement and line variables (:func:`named_variables`), map every rule clause
    onto a rule clause and every bound onto a bound."""
    if spec.counted_cover:
        return "is offered for squares covered a set number of times, which take no symmetries"
    count = named_variables(spec)
    if len(permutation) != count or sorted(permutation) != list(range(1, count + 1)):
        return f"is not a permutation of the {count} placement and line variables"

    def image(literal: int) -> int:
        mapped = permutation[abs(literal) - 1]
        return mapped if literal > 0 else -mapped

    present = set(rules)
    for clause in rules:
        if _sorted(tuple(image(lit) for lit in clause)) not in present:
            return f"maps clause {' '.join(map(str, clause))} 0 outside the formula"
    kinds = {(frozenset(b.variables), b.least, b.most) for b in bounds}
    for bound in bounds:
        moved = (frozenset(permutation[v - 1] for v in bound.variables), bound.least, bound.most)
        if moved not in kinds:
            return f"maps the bound '{bound.describe(spec)}' onto no bound of the formula"
    return None


def lex_order(spec: Spec) -> list[int]:
    """The order lex-leader clauses compare variables in: line variables, those of
    the ranks and files first (when the piece rides both) from the edges inward,
    interleaved (rank 0, file 0, last rank, last file, rank 1, file 1, …), then the
    other lines by number; each line's armies in turn; then placement variables.
    Any fixed order of all the variables a symmetry permutes is sound."""
    lines = ride_lines(spec)
    number = {line: i for i, line in enumerate(lines)}
    first: list[int] = []
    if ride_directions(spec)[:2] == [(1, 0), (0, 1)]:
        ranks, files = (_inward(family) for family in ride_families(spec)[:2])
        for i in range(max(len(ranks), len(files))):
            first += [number[line] for line in ranks[i : i + 1] + files[i : i + 1]]
    taken = set(first)
    ordered = first + [i for i in range(len(lines)) if i not in taken]
    armies = range(len(spec.armies))
    placement = len(spec.armies) * spec.squares
    return [line_var(spec, a, i) for i in ordered for a in armies] + list(range(1, placement + 1))


def _inward(family: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Lines 0, last, 1, last but one, …"""
    ordered: list[tuple[int, ...]] = []
    low, high = 0, len(family) - 1
    while low <= high:
        ordered += [family[low]] if low == high else [family[low], family[high]]
        low, high = low + 1, high - 1
    return ordered


class Formula:
    """A CNF under construction, with fresh variables numbered after the given ones."""

    def __init__(self, variables: int) -> None:
        self.variables = variables
        self.clauses: list[Clause] = []

    def fresh(self) -> int:
        self.variables += 1
        return self.variables

    def at_least(self, items: Sequence[int], k: int) -> None:
        """Totalizer, one direction: output j true only if j of the items are."""
        if k <= 0:
            return
        if k > len(items):
            self.clauses.append(())
            return
        self.clauses.append((self._count_up_to(items, k)[k - 1],))

    def at_most(self, items: Sequence[int], k: int) -> None:
        """Totalizer, one direction: output j true if j of the items are; no k+1."""
        if k >= len(items):
            return
        if k < 0:
            self.clauses.append(())
            return
        self.clauses.append((-self._count_from(items, k + 1)[k],))

    def _count_up_to(self, items: Sequence[int], k: int) -> list[int]:
        """Outputs ``o[0..min(k, n)-1]``: ``o[j-1]`` implies at least j items are true."""
        if len(items) == 1:
            return [items[0]]
        left = self._count_up_to(items[: len(items) // 2], k)
        right = self._count_up_to(items[len(items) // 2 :], k)
        outputs = [self.fresh() for _ in range(min(k, len(left) + len(right)))]
        for a in range(len(left) + 1):  # at most a of the left ones
            for b in range(len(right) + 1):
                if a + b < len(outputs):
                    more = [left[a]] if a < len(left) else []
                    more += [right[b]] if b < len(right) else []
                    self.clauses.append((*more, -outputs[a + b]))
        return outputs

    def _count_from(self, items: Sequence[int], k: int) -> list[int]:
        """Outputs ``o[0..min(k, n)-1]``: at least j items true implies ``o[j-1]``."""
        if len(items) == 1:
            return [items[0]]
        left = self._count_from(items[: len(items) // 2], k)
        right = self._count_from(items[len(items) // 2 :], k)
        outputs = [self.fresh() for _ in range(min(k, len(left) + len(right)))]
        for a in range(len(left) + 1):  # at least a of the left ones
            for b in range(len(right) + 1):
                if a + b:
                    need = [-left[a - 1]] if a else []
                    need += [-right[b - 1]] if b else []
                    self.clauses.append((*need, outputs[min(a + b, len(outputs)) - 1]))
        return outputs

    def lex_leader(self, permutation: Sequence[int], order: Sequence[int]) -> None:
        """x ≤lex x∘σ comparing the variables in ``order`` (all those σ moves): at the
        first i with x_i ≠ x_σ(i), x_i is false."""
        equal: int | None = None  # the prefix so far is equal (None: trivially true)
        for i in order:
            j = permutation[i - 1]
            if i == j:
                continue
            guard = () if equal is None else (-equal,)
            self.clauses.append((*guard, -i, j))
            following = self.fresh()
            self.clauses.append((*guard, i, j, following))
            self.clauses.append((*guard, -i, -j, following))
            equal = following

    def dimacs(self, comments: Sequence[str] = ()) -> str:
        lines = [f"c {line}" for line in comments]
        lines.append(f"p cnf {self.variables} {len(self.clauses)}")
        lines += [" ".join(map(str, (*clause, 0))) for clause in self.clauses]
        return "\n".join(lines) + "\n"


def refutation_formula(
    spec: Spec,
    bounds: Sequence[Bound],
    permutations: Sequence[Sequence[int]],
) -> Formula:
    """Rules (with the cover counts), bounds and lex-leader clauses, in that order."""
    formula = Formula(named_variables(spec))
    formula.clauses += rule_clauses(spec)
    add_cover_counts(formula, spec)
    for bound in bounds:
        formula.at_least(bound.variables, bound.least)
        if bound.most is not None:
            formula.at_most(bound.variables, bound.most)
    order = lex_order(spec)
    for permutation in permutations:
        formula.lex_leader(permutation, order)
    return formula


def refuted_statement(spec: Spec, bounds: Sequence[Bound]) -> str:
    """What a formula with these bounds refutes, in words (the count rules counted,
    not each stated: the verdict states them with the problem)."""
    parts = [bound.describe(spec) for bound in bounds if not bound.rule]
    rules = sum(1 for bound in bounds if bound.rule)
    if rules:
        parts.append(f"the {rules} count rules" if rules > 1 else "the count rule")
    return "; ".join(parts) or "the rules alone"


def refutation_comments(spec: Spec, bounds: Sequence[Bound]) -> list[str]:
    """The comment lines a certificate's formula file opens with: what it refutes
    and how its variables are numbered."""
    comments = [
        "chessplace certified formula: the rules, then the bounds, then lex-leader clauses",
        f"refuted: {refuted_statement(spec, bounds)}",
        f"variable 1 + army*{spec.squares} + rank*{spec.cols} + file: army on square",
    ]
    if ride_lines(spec):
        comments.append(
            f"variable {len(spec.armies)}*({spec.squares} + line) + army + 1: line's army"
        )
    return comments


def _sorted(clause: Clause) -> Clause:
    return tuple(sorted(clause, key=lambda lit: (abs(lit), lit)))
