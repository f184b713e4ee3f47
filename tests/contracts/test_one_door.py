"""The command line and the HTTP API go through one door (chessplace.api) and agree."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chessplace import Board, api, puzzles
from chessplace.faces.cli import main
from chessplace.faces.web.app import create_app

# (task, request body): each is sent to the CLI as options and to the web as JSON.
REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("solve", {"puzzle": "queens", "n": 6}),
    ("solve", {"puzzle": "amazons", "n": 9}),
    ("solve", {"puzzle": "peaceable-queens", "n": 5}),
    ("solve", {"puzzle": "peaceable-queens", "n": 5, "at_least": 4}),
    ("solve", {"puzzle": "independent", "piece": "NN", "rows": 3, "cols": 4, "at_least": 4}),
    ("optimize", {"puzzle": "bishops", "n": 5}),
    ("optimize", {"puzzle": "peaceable-queens", "n": 5, "solver": "cpsat"}),
    ("optimize", {"puzzle": "dominating-queens", "n": 4}),
    ("count", {"puzzle": "queens", "n": 6, "unique": True}),
    ("count", {"puzzle": "queens", "n": 4, "at_most": 4}),
    ("count", {"puzzle": "queens", "n": 4, "optimal": True}),
    ("count", {"puzzle": "peaceable-queens", "n": 4}),
    ("count", {"puzzle": "peaceable-queens", "n": 4, "optimal": True, "unique": True}),
    ("count", {"puzzle": "peaceable-queens", "n": 3, "at_least": 20}),
    ("count", {"puzzle": "independent", "piece": "K", "n": 3, "exactly": 2, "solver": "cpsat"}),
    ("solve", {"puzzle": "nonsense", "n": 4}),
    ("solve", {"puzzle": "queens", "n": 4, "solver": "nonsense"}),
    ("count", {"puzzle": "queens", "n": 6, "solver": "construction"}),
    ("solve", {"puzzle": "queens", "rows": 4}),
    ("solve", {"puzzle": "peaceable-queens", "n": 4, "white": 99}),
]

SAME = ("status", "objective", "bound", "count", "unique")


def _argv(task: str, body: dict[str, Any]) -> list[str]:
    argv = [task, body["puzzle"], "--json"]
    for key, value in body.items():
        flag = "-n" if key == "n" else "--" + key.replace("_", "-")
        if key == "puzzle":
            continue
        argv += [flag] if value is True else [flag, str(value)]
    return argv


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.mark.parametrize(("task", "body"), REQUESTS, ids=[f"{t}-{b}" for t, b in REQUESTS])
def test_cli_and_web_give_the_same_answer(
    task: str, body: dict[str, Any], client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(_argv(task, body))
    out, err = capsys.readouterr()
    response = client.post(f"/api/{task}", json=body)
    if code == 2:
        message = err.strip().removeprefix("chessplace: error: ")
        assert "\n" not in message
        assert response.status_code == 400, response.text
        assert response.json()["detail"] == message
        return
    assert response.status_code == 200, response.text
    by_cli, by_web = json.loads(out), response.json()
    assert {k: by_cli.get(k) for k in SAME} == {k: by_web.get(k) for k in SAME}
    # the same engine; in a portfolio ("portfolio(sat)") the member that won may differ
    assert by_cli["solver"].split("(")[0] == by_web["solver"].split("(")[0]
    assert bool(by_cli["pieces"]) == bool(by_web["pieces"])
    assert code == {"infeasible": 1}.get(by_cli["status"], 0)


def test_the_answer_names_the_engines_passed_over() -> None:
    problem = puzzles.peaceable_queens(Board.square(4)).with_counts(exactly=2)
    result = api.count(problem)
    assert result.solver == "lines"
    assert result.passed_over and result.passed_over[0].startswith("bitboard: ")


def test_engine_options_choose_their_engine() -> None:
    problem = puzzles.peaceable_queens(Board.square(4)).with_counts(at_least=2)
    assert api.solve(problem, encoding="seqcounter").solver == "sat"
    with pytest.raises(ValueError, match="takes no option encoding"):
        api.solve(problem, solver="cpsat", encoding="seqcounter")


def test_listing_checks_every_solution_and_keeps_one_per_class() -> None:
    problem = puzzles.queens(Board.square(8))
    assert sum(1 for _ in api.solutions(problem)) == 92
    assert sum(1 for _ in api.solutions(problem, unique=True)) == 12


def test_a_model_cp_sat_rejects_is_an_error_not_unknown() -> None:
    from ortools.sat.python import cp_model

    from chessplace.engines.cpsat import ModelInvalid, _verdict

    model = cp_model.CpModel()
    model.new_int_var(0, 2**62, "x")  # a domain past CP-SAT's range: MODEL_INVALID
    status = cp_model.CpSolver().solve(model)
    assert status == cp_model.MODEL_INVALID
    with pytest.raises(ModelInvalid, match="rejected the model"):
        _verdict(status, model)
    assert [_verdict(s, model) for s in (cp_model.OPTIMAL, cp_model.UNKNOWN)] == [
        "proven",
        "stopped",
    ]
