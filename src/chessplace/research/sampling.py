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
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from typing import NamedTuple

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""

LEAST_SAMPLE = 30
"""The fewest finished chunks a projection is made from."""


def shuffled(words: Sequence[str], seed: int) -> list[str]:
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
