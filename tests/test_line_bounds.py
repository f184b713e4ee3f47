"""The line search's family bound, decided in one pass at remembered weights, against
the LP value it stands for (the least of its dual over every breakpoint)."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from chessplace.engines.lines.bounds import family_reaches


def random_family(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """(white, black) counts of one family: open lines, lines labelled (one count 0,
    as labelling leaves them) and lines with one colour or none left."""
    lines = rng.randint(1, 12)
    white = np.array([rng.randint(0, 9) for _ in range(lines)], dtype=np.int32)
    black = np.array([rng.randint(0, 9) for _ in range(lines)], dtype=np.int32)
    for line in range(lines):
        if rng.random() < 0.2:
            (black if rng.random() < 0.5 else white)[line] = 0
    return white, black


def lp_value(white: np.ndarray, black: np.ndarray) -> Fraction:
    """The largest min(ΣW, ΣB) with each line white, black or split between them, as
    the least over λ at every breakpoint of Σ max(λ·white, (1 - λ)·black)."""
    pairs = [(int(p), int(q)) for p, q in zip(white, black, strict=True)]
    breaks = {Fraction(0), Fraction(1)} | {Fraction(q, p + q) for p, q in pairs if p + q}
    return min(sum((max(lam * p, (1 - lam) * q) for p, q in pairs), Fraction(0)) for lam in breaks)


def test_the_lp_value_is_what_a_fractional_labelling_reaches() -> None:
    """The reference itself: on small families the best of every labelling with at most
    one line split (an LP vertex) equals the dual's least value."""
    rng = random.Random(3)
    for _ in range(300):
        white, black = random_family(rng)
        lines = len(white)
        best = Fraction(0)
        for mask in range(1 << lines):
            w = sum(int(white[i]) for i in range(lines) if mask >> i & 1)
            b = sum(int(black[i]) for i in range(lines) if not mask >> i & 1)
            best = max(best, Fraction(min(w, b)))
            for i in range(lines):  # line i split: share s white, s = the crossing
                p, q = (int(white[i]), int(black[i]))
                if mask >> i & 1 and p + q:
                    s = Fraction(b + q - (w - p), p + q)
                    if 0 <= s <= 1:
                        best = max(best, w - p + s * p)
        assert best == lp_value(white, black)


@pytest.mark.parametrize("seed", range(4))
def test_the_one_pass_decision_agrees_at_any_remembered_weights(seed: int) -> None:
    """Whatever the weights left by earlier calls (or set at random), the answer is
    the LP's, and the weights left behind stay usable."""
    rng = random.Random(seed)
    weights = np.ones(2, dtype=np.int64)
    scratch = np.zeros(12, dtype=np.int64), np.zeros(12, dtype=np.int64)
    for _ in range(2000):
        white, black = random_family(rng)
        if rng.random() < 0.2:
            weights[:] = rng.choice([(0, 1), (1, 0), (rng.randint(1, 9), rng.randint(1, 9))])
        value = lp_value(white, black)
        target = max(0, int(value) + rng.randint(-2, 2))
        reached = family_reaches(0, len(white), white, black, target, weights, *scratch)
        assert reached == (value >= target), (white, black, target)
        assert weights.min() >= 0 and weights.sum() > 0
