"""The checker reads every piece exactly as the model does.

``chessplace check`` parses Betza notation with its own code (it trusts nothing of
the model), so the two parsers must agree on every string: which they accept and,
for those, which moves they mean. A manifest whose piece was rewritten from ``WF2``
to ``K2`` (the model's ``W2F2``) must not be certified with the old answer.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessplace.certificates.checker.spec import SpecError, describe_moves, parse_moves
from chessplace.core.betza import parse_betza
from chessplace.faces.cli import main
from tests.certified import manifest_of, seal

LONGEST = 64
"""A board side long enough that a reach past it means 'without limit'."""

Steps = dict[tuple[int, int], int | None]


def model_steps(text: str) -> Steps | None:
    """The model's moves as signed steps with reach (``None``: unlimited or past the
    board); ``None`` when the model refuses the text."""
    try:
        moves = parse_betza(text)
    except ValueError:
        return None
    steps: Steps = {}
    for move in moves:
        for direction in move.directions:
            steps[direction] = move.reach
    return normalised(steps)


def checker_steps(text: str) -> Steps | None:
    try:
        return normalised(parse_moves(text))
    except SpecError:
        return None


def normalised(steps: Steps) -> Steps:
    return {
        step: None if reach is None or reach >= LONGEST else reach for step, reach in steps.items()
    }


TOKENS = st.sampled_from(
    [
        "W",
        "F",
        "D",
        "N",
        "A",
        "H",
        "C",
        "Z",
        "G",
        "K",
        "R",
        "B",
        "Q",
        "WW",
        "FF",
        "NN",
        "KK",
        "RR",
        "QQ",
        "BB",
        "0",
        "1",
        "2",
        "3",
        "00",
        "07",
        "12",
        "99",
        "x",
        "c",
        "n",
        "X",
        "E",
    ]
)


@given(st.lists(TOKENS, min_size=1, max_size=6).map("".join))
def test_both_parsers_accept_the_same_texts_and_read_the_same_moves(text: str) -> None:
    assert checker_steps(text) == model_steps(text), text


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("K2", "W2F2"),
        ("K0", "WWFF"),
        ("K", "WF"),
        ("Q", "WWFF"),
        ("Q2", "W2F2"),
        ("R3", "W3"),
        ("B", "FF"),
        ("WF2", "WF2"),
        ("QN", "WWFFN"),
        ("W00", "WW"),
        ("NN", "NN"),
    ],
)
def test_shorthands_with_numbers_mean_what_the_model_means(text: str, moves: str) -> None:
    assert describe_moves(parse_moves(text), LONGEST) == moves
    assert checker_steps(text) == model_steps(text)


@pytest.mark.parametrize("text", ["KK", "RR", "QQ", "BB", "WW2", "", "Kc", "k"])
def test_texts_the_model_refuses_are_refused(text: str) -> None:
    assert model_steps(text) is None
    with pytest.raises(SpecError):
        parse_moves(text)


@pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None or importlib.util.find_spec("pysat") is None,
    reason="certificates need the certify extra",
)
def test_a_piece_rewritten_from_wf2_to_k2_is_not_certified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The forgery the hostile trial found: 8 WF2 pieces fit on 5×5, 8 K2 (W2F2) do not."""
    directory = tmp_path / "c"
    args = ["optimize", "independent", "--piece", "WF2", "-n", "5", "--solver", "sat"]
    assert main([*args, "--certificate", str(directory)]) == 0
    capsys.readouterr()
    assert main(["check", str(directory)]) == 0
    honest = capsys.readouterr().out
    assert "moving WF2 " in honest and "the maximum is 8" in honest, honest
    manifest = manifest_of(directory)
    manifest["problem"]["armies"][0]["betza"] = "K2"
    seal(directory, manifest)
    code = main(["check", str(directory)])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("rejected"), out
    assert "moving W2F2 " in out or "W2F2" in out or "attack" in out, out
