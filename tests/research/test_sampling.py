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
