"""The HTTP API (in-process ASGI client) and the page in headless Chromium on a real server."""

from __future__ import annotations

import io
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from chessplace.web.app import create_app

CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def test_api_mirrors_the_cli_json(client: TestClient) -> None:
    data = client.post("/api/solve", json={"puzzle": "queens", "n": 8}).json()
    assert data["status"] == "feasible" and len(data["pieces"]) == 8
    data = client.post("/api/optimize", json={"puzzle": "peaceable-queens", "n": 5}).json()
    assert (data["status"], data["objective"], data["bound"]) == ("optimal", 4, 4)
    data = client.post("/api/count", json={"puzzle": "queens", "n": 8, "unique": True}).json()
    assert (data["count"], data["unique"]) == (92, 12)


def test_api_takes_the_peaceable_variants(client: TestClient) -> None:
    body = {"puzzle": "peaceable-queens", "n": 6, "optimal": True, "unique": True}
    data = client.post("/api/count", json=body).json()
    assert (data["objective"], data["unique"]) == (5, 35)
    body = {"puzzle": "peaceable-queens", "n": 6, "white": 5}
    data = client.post("/api/optimize", json=body).json()
    assert (data["status"], data["objective"]) == ("optimal", 6)
    body = {"puzzle": "peaceable-queens", "n": 4, "armies": 3}
    data = client.post("/api/optimize", json=body).json()
    assert len(data["armies"]) == 3 and data["objective"] == 1
    body = {"puzzle": "queens", "n": 4, "armies": 3}
    assert client.post("/api/optimize", json=body).status_code == 400


def test_api_verify_names_attacks(client: TestClient) -> None:
    pieces = [{"army": "white", "square": "c2"}, {"army": "black", "square": "c1"}]
    data = client.post(
        "/api/verify", json={"puzzle": "peaceable-queens", "n": 5, "pieces": pieces}
    ).json()
    assert data["status"] == "invalid"
    assert "white queen c2 attacks black queen c1" in data["violations"]
    assert ["c2", "c1"] in data["conflicts"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/solve", {"puzzle": "rooks", "n": 8}),
        ("/api/solve", {"puzzle": "queens", "n": 0}),
        ("/api/solve", {"puzzle": "queens"}),
        ("/api/solve", {"puzzle": "peaceable-queens", "n": 5}),
        ("/api/solve", {"puzzle": "queens", "n": 8, "colour": "red"}),
        ("/api/optimize", {"puzzle": "independent", "n": 4, "piece": "fX"}),
        ("/api/count", {"puzzle": "queens", "n": 6, "solver": "gurobi"}),
        ("/api/verify", {"puzzle": "queens", "n": 4, "pieces": [{"square": "99"}]}),
        ("/api/solutions", {"puzzle": "queens", "n": 6, "offset": 4}),
    ],
)
def test_bad_requests_get_a_clear_4xx(
    client: TestClient, path: str, body: dict[str, object]
) -> None:
    response = client.post(path, json=body)
    assert 400 <= response.status_code < 500
    assert response.json()["detail"]
    assert client.get("/api/health").json() == {"status": "ok"}


def test_a_long_job_can_be_cancelled(client: TestClient) -> None:
    job = client.post("/api/jobs", json={"task": "count", "puzzle": "queens", "n": 18}).json()
    time.sleep(1.0)
    assert client.get(f"/api/jobs/{job['id']}").json()["state"] == "running"
    client.delete(f"/api/jobs/{job['id']}")
    deadline = time.monotonic() + 30
    while (state := client.get(f"/api/jobs/{job['id']}").json())["state"] != "cancelled":
        assert time.monotonic() < deadline, state
        time.sleep(0.1)
    assert state["result"]["status"] == "partial"


def test_render_endpoint_draws(client: TestClient) -> None:
    pieces = [{"square": "a1"}, {"square": "b3"}]
    svg = client.post("/api/render?format=svg", json={"puzzle": "queens", "n": 4, "pieces": pieces})
    assert svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content
    png = client.post("/api/render?format=png", json={"puzzle": "queens", "n": 4, "pieces": pieces})
    assert png.content.startswith(b"\x89PNG")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "chessplace", "serve", "--port", str(port)])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_page_in_headless_chromium(server: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(server)
        page.select_option("#puzzle", "queens")
        page.fill("#n", "8")
        page.click("#solve")
        page.wait_for_selector("#verdict.valid")
        assert page.locator("#board .piece").count() == 8
        first = _occupied(page)

        page.click("#next")
        page.wait_for_function("document.querySelector('#position').textContent.startsWith('#')")
        page.wait_for_selector("#verdict.valid")
        second = _occupied(page)
        assert len(second) == 8 and second != first

        queen = sorted(second)[0]
        same_rank = next(f"{f}{queen[1:]}" for f in "abcdefgh" if f"{f}{queen[1:]}" not in second)
        page.click(f"[data-square='{same_rank}']")
        page.wait_for_selector("#verdict.invalid")
        assert "broken rule" in page.text_content("#verdict")

        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
        browser.close()
    colours = shot.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 20  # a drawn board, not a blank page
    board_pixels = {shot.getpixel((x, y)) for x in range(400, 800, 7) for y in range(100, 500, 7)}
    assert {(240, 217, 181), (181, 136, 99)} <= board_pixels  # light and dark squares


def _occupied(page: object) -> set[str]:
    squares = page.eval_on_selector_all(  # type: ignore[attr-defined]
        "#board .square",
        "nodes => nodes.filter(n => n.querySelector('.piece')).map(n => n.dataset.square)",
    )
    return set(squares)
