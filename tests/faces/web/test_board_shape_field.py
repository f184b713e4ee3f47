"""The HTTP API's ``shape`` field (and ``torus``, short for a torus), as the command
line's ``--shape`` (tests/faces/cli/test_board_shape_option.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from chessplace.faces.web.app import create_app


def test_the_http_api_takes_the_shape() -> None:
    with TestClient(create_app()) as client:
        body = {"puzzle": "queens", "n": 5, "shape": "cylinder", "unique": True}
        data = client.post("/api/count", json=body).json()
        assert (data["shape"], data["count"], data["unique"]) == ("cylinder", 10, 1)
        data = client.post("/api/solve", json={"puzzle": "queens", "n": 5, "torus": True}).json()
        assert data["shape"] == "torus" and len(data["pieces"]) == 5
        response = client.post("/api/solve", json={"puzzle": "queens", "n": 5, "shape": "cone"})
        assert (response.status_code, response.json()) == (
            400,
            {"detail": "shape: the board's shape is one of plane, torus, cylinder, not 'cone'"},
        )
        body = {"puzzle": "queens", "n": 5, "shape": "plane", "torus": True}
        response = client.post("/api/solve", json=body)
        assert (response.status_code, response.json()) == (
            400,
            {"detail": "shape is plane but torus is true: give one of them"},
        )


def test_a_key_given_twice_in_a_request_is_refused() -> None:
    """JSON readers keep the last of two keys silently; the API refuses the body, as the
    problem file reader does."""
    with TestClient(create_app()) as client:
        body = b'{"puzzle": "queens", "n": 5, "shape": "cylinder", "shape": "plane"}'
        headers = {"Content-Type": "application/json"}
        response = client.post("/api/solve", content=body, headers=headers)
        assert (response.status_code, response.json()) == (
            400,
            {"detail": 'not valid JSON: the key "shape" comes twice in one object'},
        )
        nested = b'{"puzzle": "queens", "n": 5, "counts": [{"k": 1, "k": 2}]}'
        response = client.post("/api/solve", content=nested, headers=headers)
        assert (
            response.status_code == 400 and 'the key "k" comes twice' in response.json()["detail"]
        )
        once = b'{"puzzle": "queens", "n": 5, "shape": "cylinder"}'
        response = client.post("/api/solve", content=once, headers=headers)
        assert response.status_code == 200 and len(response.json()["pieces"]) == 5
