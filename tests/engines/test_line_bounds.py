"""The line search's family bounds, decided in one pass at remembered weights, against
the LP values they stand for (the least of the dual over every breakpoint)."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from chessplace.engines.lines.bounds import family_pair_reaches, family_reaches
from chessplace.engines.lines.bounds_three_armies import PAIRS, family_reaches3


def random_family(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """(white, black) counts of one family: open lines, lines labelled (one count 0,
    as labelling leaves them) and lines with one colour or none left."""
    lines = rng.randint(0, 12)
    white = np.array([rng.randint(0, 9) for _ in range(lines)], dtype=np.int32)
    black = np.array([rng.randint(0, 9) for _ in range(lines)], dtype=np.int32)
    for line in range(lines):
        if rng.random() < 0.2:
            (black if rng.random() < 0.5 else white)[line] = 0
    return white, black


def lp_value(white: np.ndarray, black: np.ndarray) -> Fraction:
    """The largest min(ΣW, ΣB) with each line white, black or split between them, as
    the least over weights (α, β) at every breakpoint of Σ max(α·white, β·black)
    / (α + β)."""
    pairs = list(zip(white.tolist(), black.tolist(), strict=True))
    breaks = {(0, 1), (1, 0)} | {(q, p) for p, q in pairs if p + q}  # λ = α / (α + β)
    return min(
        Fraction(sum(max(alpha * p, beta * q) for p, q in pairs), alpha + beta)
        for alpha, beta in breaks
    )


def test_the_lp_value_is_what_a_fractional_labelling_reaches() -> None:
    """The reference itself: on small families the best of every labelling with at most
    one line split (an LP vertex) equals the dual's least value."""
    rng = random.Random(3)
    for _ in range(300):
        white, black = random_family(rng)
        lines = len(white)
        whites, blacks = white.tolist(), black.tolist()  # Python ints, read 2^lines times
        best = Fraction(0)
        for mask in range(1 << lines):
            w = sum(whites[i] for i in range(lines) if mask >> i & 1)
            b = sum(blacks[i] for i in range(lines) if not mask >> i & 1)
            best = max(best, Fraction(min(w, b)))
            for i in range(lines):  # line i split: share s white, s = the crossing
                p, q = whites[i], blacks[i]
                # 0 <= s <= 1 for s = (b + q - (w - p)) / (p + q), checked in integers
                if mask >> i & 1 and p + q and 0 <= b + q - (w - p) <= p + q:
                    s = Fraction(b + q - (w - p), p + q)
                    best = max(best, w - p + s * p)
        assert best == lp_value(white, black)


def dual_at(weights: np.ndarray, white: np.ndarray, black: np.ndarray) -> Fraction:
    """Σ max(α·white, β·black) / (α + β) at ``weights`` = (α, β)."""
    alpha, beta = int(weights[0]), int(weights[1])
    pairs = zip(white.tolist(), black.tolist(), strict=True)
    return Fraction(sum(max(alpha * p, beta * q) for p, q in pairs), alpha + beta)


@pytest.mark.parametrize("seed", range(4))
def test_the_one_pass_decision_agrees_at_any_remembered_weights(seed: int) -> None:
    """Whatever the weights left by earlier calls (or set at random), the answer is
    the LP's; weights it changes are an optimal dual (the next call's best start)."""
    rng = random.Random(seed)
    weights = np.ones(2, dtype=np.int64)
    scratch = np.zeros(12, dtype=np.int64), np.zeros(12, dtype=np.int64)
    for _ in range(2000):
        white, black = random_family(rng)
        if rng.random() < 0.2:
            weights[:] = rng.choice([(0, 1), (1, 0), (rng.randint(1, 9), rng.randint(1, 9))])
        value = lp_value(white, black)
        target = int(value) + rng.randint(-2, 2)
        before = weights.copy()
        reached = family_reaches(0, len(white), white, black, target, weights, *scratch)
        assert reached == (value >= target), (white, black, target)
        assert weights.min() >= 0 and weights.sum() > 0
        if (weights != before).any():
            assert dual_at(weights, white, black) == value, (white, black, weights)


def test_weights_carried_down_a_search_path_stay_exact() -> None:
    """As in the search: one family of 37 lines (counts up to 19), squares killed a
    few at a time and lines labelled, the weights carried from call to call."""
    rng = random.Random(11)
    scratch = np.zeros(37, dtype=np.int64), np.zeros(37, dtype=np.int64)
    for _ in range(20):
        white = np.array([rng.randint(1, 19) for _ in range(37)], dtype=np.int32)
        black = white.copy()
        weights = np.ones(2, dtype=np.int64)
        while white.sum() + black.sum():
            line = rng.randrange(37)
            if rng.random() < 0.1:  # labelled: the other colour's squares die
                (black if rng.random() < 0.5 else white)[line] = 0
            else:
                counts = white if rng.random() < 0.5 else black
                counts[line] = max(0, counts[line] - rng.randint(1, 3))
            value = lp_value(white, black)
            for target in (int(value), int(value) + 1):
                reached = family_reaches(0, 37, white, black, target, weights, *scratch)
                assert reached == (value >= target)


def pair_lp_value(white: np.ndarray, black: np.ndarray, white_target: int) -> Fraction | None:
    """The most black with at least ``white_target`` white, each line white, black or
    split (None: unreachable), as the least over λ = α/β >= 0 at every breakpoint of
    Σ max(λ·white, black) - λ·white_target."""
    pairs = list(zip(white.tolist(), black.tolist(), strict=True))
    if sum(p for p, _ in pairs) < white_target:
        return None
    slopes = {Fraction(0)} | {Fraction(q, p) for p, q in pairs if p}
    # at λ = a/d: (Σ max(a·white, d·black) - a·white_target) / d, summed in integers
    return min(
        Fraction(
            sum(max(lam.numerator * p, lam.denominator * q) for p, q in pairs)
            - lam.numerator * white_target,
            lam.denominator,
        )
        for lam in slopes
    )


def best_pair_labelling(white: np.ndarray, black: np.ndarray, white_target: int) -> Fraction | None:
    """The same by brute force: every labelling with at most one line split (an LP
    vertex), that line's share just what W needs."""
    lines = len(white)
    whites, blacks = white.tolist(), black.tolist()  # Python ints, read 2^lines times
    best: Fraction | None = None
    for mask in range(1 << lines):
        w = sum(whites[i] for i in range(lines) if mask >> i & 1)
        b = sum(blacks[i] for i in range(lines) if not mask >> i & 1)
        candidates = [Fraction(b)] if w >= white_target else []
        for i in range(lines):  # line i white in part: the share that brings W to target
            p, q = whites[i], blacks[i]
            if mask >> i & 1 and p and w - p < white_target <= w:
                candidates.append(b + q - q * Fraction(white_target - (w - p), p))
        for value in candidates:
            best = value if best is None else max(best, value)
    return best


def test_the_pair_lp_value_is_what_a_fractional_labelling_reaches() -> None:
    rng = random.Random(7)
    for _ in range(300):
        white, black = random_family(rng)
        white_target = rng.randint(0, int(white.sum()) + 2)
        assert best_pair_labelling(white, black, white_target) == pair_lp_value(
            white, black, white_target
        )


@pytest.mark.parametrize("seed", range(4))
def test_the_pair_decision_agrees_at_any_remembered_weights(seed: int) -> None:
    """Unequal armies: at least ``white_target`` white, is ``target`` black within the
    LP bound? Weights it changes are an optimal dual λ = α/β."""
    rng = random.Random(seed)
    weights = np.ones(2, dtype=np.int64)
    scratch = np.zeros(12, dtype=np.int64), np.zeros(12, dtype=np.int64)
    kept = 0
    for _ in range(2000):
        white, black = random_family(rng)
        white_target = rng.randint(0, int(white.sum()) + 2)
        offset = rng.randint(0, 3)  # the kernel's families start inside the line arrays
        padded = [
            np.concatenate([rng.choices(range(9), k=offset), counts, [5]])
            for counts in (white, black)
        ]
        if rng.random() < 0.2:
            weights[:] = rng.choice([(0, 1), (1, 0), (rng.randint(1, 9), rng.randint(1, 9))])
        value = pair_lp_value(white, black, white_target)
        target = (0 if value is None else int(value)) + rng.randint(-2, 2)
        before = weights.copy()
        reached = family_pair_reaches(
            offset, offset + len(white), *padded, white_target, target, weights, *scratch
        )
        assert reached == (value is not None and value >= target), (white, black, target)
        assert weights.min() >= 0 and weights.sum() > 0
        changed = bool((weights != before).any())
        kept += changed and weights.min() > 0
        if changed and value is not None and weights[1]:
            lam = Fraction(int(weights[0]), int(weights[1]))
            pairs = zip(white.tolist(), black.tolist(), strict=True)
            dual = sum(max(lam * p, q) for p, q in pairs) - lam * white_target
            assert dual == value, (white, black, white_target, weights)
    assert kept > 100  # a crossing line's price is remembered for the next call


def test_pair_prices_carried_down_a_search_path_stay_exact() -> None:
    """As in the search: 37 lines, squares killed a few at a time and lines labelled,
    beside a white target, the price carried from call to call."""
    rng = random.Random(13)
    scratch = np.zeros(37, dtype=np.int64), np.zeros(37, dtype=np.int64)
    for _ in range(20):
        white = np.array([rng.randint(1, 19) for _ in range(37)], dtype=np.int32)
        black = white.copy()
        white_target = rng.randint(50, 250)
        weights = np.ones(2, dtype=np.int64)
        while white.sum() + black.sum():
            line = rng.randrange(37)
            if rng.random() < 0.1:
                (black if rng.random() < 0.5 else white)[line] = 0
            else:
                counts = white if rng.random() < 0.5 else black
                counts[line] = max(0, counts[line] - rng.randint(1, 3))
            value = pair_lp_value(white, black, white_target)
            for target in (0, 1) if value is None else (int(value), int(value) + 1):
                reached = family_pair_reaches(
                    0, 37, white, black, white_target, target, weights, *scratch
                )
                assert reached == (value is not None and value >= target)


def three_armies_value(count: np.ndarray) -> Fraction:
    """The three-army family bound: the least of each pair's LP and a third of the sum
    of each line's largest count."""
    pairs = [lp_value(count[a], count[b]) for a in range(3) for b in range(a + 1, 3)]
    return min([*pairs, Fraction(int(count.max(axis=0).sum()) // 3)])


def test_three_armies_decide_every_pair_and_the_third() -> None:
    rng = random.Random(5)
    weights = np.ones((PAIRS, 2), dtype=np.int64)
    scratch = np.zeros(12, dtype=np.int64), np.zeros(12, dtype=np.int64)
    for _ in range(1500):
        lines = rng.randint(0, 12)
        count = np.array([[rng.randint(0, 9) for _ in range(lines)] for _ in range(3)])
        for line in range(lines):
            if rng.random() < 0.2:  # labelled with one colour: the other two die
                keep = rng.randrange(3)
                count[[c for c in range(3) if c != keep], line] = 0
        count = count.astype(np.int32)
        value = three_armies_value(count)
        target = int(value) + rng.randint(-1, 2)
        reached = family_reaches3(0, lines, count, target, weights, *scratch)
        assert reached == (value >= target), (count, target)
