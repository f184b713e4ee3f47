"""What the page's play tests share: a real ``chessplace serve``, Debian's headless
Chromium, and the moves of a player (a tap, a double tap, a drag) on the page's board."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from chessplace.forms import svg as svgboard
from tests.processes import start_server

CHROMIUM = shutil.which("chromium")
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    url, process = start_server()
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield launched
        launched.close()


def ready(page: Any, url: str) -> None:
    """Open ``url`` and wait for the catalog and the board."""
    page.goto(url)
    page.wait_for_function("document.querySelectorAll('#puzzle option').length > 0")
    page.wait_for_selector("#board svg")


def centre(page: Any, square: str, n: int) -> dict[str, float]:
    """Where ``square``'s centre is inside the n×n board (the SVG fills ``#board``)."""
    box = page.locator("#board").bounding_box()
    scale = box["width"] / (2 * svgboard.MARGIN + n * svgboard.SQUARE)
    file, rank = ord(square[0]) - ord("a"), int(square[1:]) - 1
    x = svgboard.MARGIN + (file + 0.5) * svgboard.SQUARE
    y = svgboard.MARGIN + (n - rank - 0.5) * svgboard.SQUARE
    return {"x": x * scale, "y": y * scale}


def on_page(page: Any, square: str, n: int) -> tuple[float, float]:
    """``square``'s centre in the page's coordinates (for the mouse and touches)."""
    box = page.locator("#board").bounding_box()
    where = centre(page, square, n)
    return box["x"] + where["x"], box["y"] + where["y"]


def tap(page: Any, square: str, n: int, times: int = 1) -> None:
    """Tap a square once (a region puzzle's X) or twice, as a double tap (its crown)."""
    where = centre(page, square, n)
    if times == 2:
        page.dblclick("#board", position=where)
    else:
        page.click("#board", position=where)


def drag(page: Any, squares: list[str], n: int) -> None:
    """Press on the first square, move the mouse through the others, release."""
    page.mouse.move(*on_page(page, squares[0], n))
    page.mouse.down()
    for square in squares[1:]:
        page.mouse.move(*on_page(page, square, n), steps=4)
    page.mouse.up()


def squares_of(page: Any, selector: str) -> set[str]:
    """The squares of the board's elements that ``selector`` picks (pieces, marks)."""
    found = page.eval_on_selector_all(f"#board {selector}", "n => n.map(e => e.dataset.square)")
    return set(found)


def crowns(page: Any) -> set[str]:
    return squares_of(page, "g.piece")


def own_marks(page: Any) -> set[str]:
    """The X marks the player made (auto X aside)."""
    return squares_of(page, "path.mark:not(.auto)")
