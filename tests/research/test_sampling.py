"""Projections from chunks taken in a shuffled order (chessplace.research.sampling)."""

from __future__ import annotations

import json
import random

import pytest

from chessplace.research.sampling import projection, shuffled
from tests.paths import ROOT

RESULTS = ROOT / "results"


def test_the_shuffle_is_a_permutation_fixed_by_its_seed() -> None:
    words = [format(i, "08b") for i in range(256)]
    order = shuffled(words, 11)
    assert sorted(order) == words and order != words
    assert order == shuffled(words, 11) and order != shuffled(words, 12)


def test_equal_chunks_project_exactly() -> None:
    projected = projection([2.0] * 40, 100)
    assert projected is not None
    assert projected.projected == projected.low == projected.high == pytest.approx(200.0)
    assert "40 of 100 chunks in 80 CPU-s" in projected.line()


def test_a_finished_run_projects_what_it_spent() -> None:
    projected = projection([1.0, 5.0, 0.5] * 10, 30)
    assert projected is not None and projected.low == projected.high == projected.projected == 65.0


@pytest.mark.parametrize(("seconds", "total"), [([], 50), ([1.0] * 29, 50), ([1.0] * 51, 50)])
def test_too_few_or_too_many_chunks_project_nothing(seconds: list[float], total: int) -> None:
    assert projection(seconds, total) is None


def test_the_interval_holds_the_true_total_about_as_often_as_it_claims() -> None:
    """The chunk times of a finished journal (A308632(18): 4,096 chunks, skewness about
    5) as the population: samples of 400 drawn from it give a 95% interval that holds
    the journal's true total in 90% to 99% of 300 seeded draws. An interval half as
    wide, or one from the wrong count, holds it far less often."""
    journal = RESULTS / "a308632" / "n18-search.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()[1:]
    population = [json.loads(line)["seconds"] for line in lines]
    truth = sum(population)
    draw = random.Random(2026)
    held = 0
    for _ in range(300):
        projected = projection(draw.sample(population, 400), len(population))
        assert projected is not None and projected.low <= projected.projected <= projected.high
        held += projected.low <= truth <= projected.high
    assert 270 <= held <= 297, held


def test_a_split_cube_costs_its_attempt_and_its_parts_once_all_are_settled() -> None:
    from chessplace.research.sampling import settled_costs

    seconds = {"11": 1.0, "10+": 2.0, "1011": 1.0, "1010": 1.0, "1001+": 0.5, "01+": 5.0}
    seconds |= {"100111": 1.0, "100110": 1.0, "100101": 1.0, "100100": 1.5, "1000": 1.0}
    seconds |= {"0111": 1.0}  # "01" split, three of its parts not refuted yet
    assert settled_costs(seconds, ["11", "10", "01", "00"]) == {"11": 1.0, "10": 10.0}


RUNS = 2000
"""Seeded runs a stopped run's lean is measured over."""


@pytest.mark.parametrize(("workers", "lean", "held"), [(1, 0.96, 0.88), (2, 0.87, 0.81)])
def test_a_run_stopped_part_way_leans_low_as_the_docs_say(
    workers: int, lean: float, held: float
) -> None:
    """On the A308632(18) chunk times, runs with ``workers`` stopped at a random moment
    after 60 to 150 chunks: the mean of projection / truth and the share of intervals
    holding the truth are the figures sampling's docstring and results/README.md give
    (to 0.01), from :data:`RUNS` seeded runs."""
    import heapq
    import statistics

    journal = RESULTS / "a308632" / "n18-search.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()[1:]
    population = [json.loads(line)["seconds"] for line in lines]
    truth = sum(population)
    draw = random.Random(5)
    ratios, holding = [], 0
    for _ in range(RUNS):
        order = shuffled(population, draw.randrange(2**32))
        free, finished = [0.0] * workers, []
        for seconds in order[:200]:
            start = heapq.heappop(free)
            finished.append((start + seconds, seconds))
            heapq.heappush(free, start + seconds)
        ends = sorted(end for end, _ in finished)
        stop = draw.uniform(ends[60], ends[150])
        projected = projection([s for end, s in finished if end <= stop], len(population))
        assert projected is not None
        ratios.append(projected.projected / truth)
        holding += projected.low <= truth <= projected.high
    assert statistics.mean(ratios) == pytest.approx(lean, abs=0.01)
    assert holding / RUNS == pytest.approx(held, abs=0.01)
