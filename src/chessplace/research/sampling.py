"""Chunks in a shuffled order, so that a run cut short projects the whole.

A search cross-check run with ``--shuffle SEED`` takes its chunks in the order a
seeded shuffle gives (the seed is in the journal's header). The chunks a
stopped run has finished are then, up to the few that were under way when it
stopped, a uniform random sample of all chunks, and their CPU seconds estimate
what the rest will cost: the finished chunks' time plus the rest's number times
the sample mean, with a 95% interval from the sample's spread (the
finite-population correction included). Chunk times are heavy-tailed (a few
very dear chunks), so the interval is the honest part of the figure: drawn
from the finished A308632(18) journal (4,096 chunks), samples of 100 gave
intervals that held the true total 91% of the time, samples of 400 and 800
94%.

A run stopped at a moment of its own leans low: the chunks under way when it
stopped are left out, and a slow chunk is more likely to be under way. Runs on
that journal's times stopped at a random moment after 60 to 150 chunks
projected 96% of the true total on average with one worker and 87% with two,
and their intervals held it 88% and 81% of the time (the tests redo this). A
draw of a size fixed in advance and finished has no such lean.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, TypeVar

T = TypeVar("T")

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""

LEAST_SAMPLE = 30
"""The fewest finished chunks a projection is made from."""


def shuffled(words: Sequence[T], seed: int) -> list[T]:
    """``words`` in the order the seed gives (the same on every machine and run)."""
    order = list(words)
    random.Random(seed).shuffle(order)
    return order


class Projection(NamedTuple):
    """What a sampled run has spent and projects for the whole, in CPU seconds."""

    done: int
    total: int
    spent: float
    projected: float
    low: float
    high: float

    def line(self, unit: str = "chunks") -> str:
        """One line for a log or a table."""
        return (
            f"{self.done:,} of {self.total:,} {unit} in {self.spent:,.0f} CPU-s; "
            f"the whole projected at {self.projected:,.0f} CPU-s "
            f"(95% interval {self.low:,.0f} to {self.high:,.0f})"
        )


def done_so_far(
    seconds: Sequence[float], total: int, shuffled: bool = True, unit: str = "chunks"
) -> str:
    """One line for the chunks (or other ``unit``) finished so far (their CPU
    ``seconds``, of ``total``): the projection of the whole when they are a shuffled
    sample and enough of them, else how many and what they cost."""
    projected = projection(seconds, total) if shuffled else None
    if projected is not None:
        return projected.line(unit)
    return f"{len(seconds):,} of {total:,} {unit} in {math.fsum(seconds):,.0f} CPU-s"


def projection(seconds: Sequence[float], total: int) -> Projection | None:
    """The projection from the CPU seconds of the finished chunks, a uniform sample of
    ``total`` chunks; ``None`` with fewer than :data:`LEAST_SAMPLE`."""
    done = len(seconds)
    if done < LEAST_SAMPLE or done > total:
        return None
    spent = math.fsum(seconds)
    left = total - done
    mean = spent / done
    projected = spent + left * mean  # = total × mean
    error = total * statistics.stdev(seconds) / math.sqrt(done) * math.sqrt(left / total)
    margin = Z95 * error
    low = max(spent, projected - margin)
    return Projection(done, total, spent, projected, low, projected + margin)


SPLIT_LINES = 2
"""Lines a proof sample's cube is split by when its proof is too large to check."""

SPLIT = "+"
"""Marks a journal key as a cube that was split (its record: the attempt's cost)."""


def settled_costs(seconds: Mapping[str, float], words: Iterable[str]) -> dict[str, float]:
    """The CPU seconds each word cost, for the words that are settled: its own
    record's ``seconds``, or where it was split (keyed ``word`` + :data:`SPLIT`) that
    attempt's seconds plus the costs of its extensions by :data:`SPLIT_LINES` labels,
    once every one of them is settled."""
    endings = ["".join(signs) for signs in itertools.product("10", repeat=SPLIT_LINES)]

    def cost(word: str) -> float | None:
        if word in seconds:
            return seconds[word]
        if word + SPLIT not in seconds:
            return None
        parts = [cost(word + ending) for ending in endings]
        if any(part is None for part in parts):
            return None
        return seconds[word + SPLIT] + math.fsum(p for p in parts if p is not None)

    costs = {word: cost(word) for word in words}
    return {word: value for word, value in costs.items() if value is not None}
