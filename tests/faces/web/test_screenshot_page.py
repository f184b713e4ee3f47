"""A screenshot of a Queens game read on the page (issue 52, players' asks): chosen as a
file, dropped or pasted, shrunk by the browser and read by ``POST /api/screenshot`` as
``--image`` reads it; an image without a grid is said in one line."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest

from tests.faces.shots import STRONG, lettered, shot
from tests.faces.web.browsing import DESKTOP, PHONE, browser, needs_chromium, ready, server

__all__ = ["browser", "server"]  # the fixtures, used by name

GRID = [
    "AACCCBBB",
    "ACCBBBEB",
    "ACCCEEEB",
    "ACDDDEEB",
    "ADDDDEEB",
    "AAGDHHHB",
    "AGGDHGHH",
    "FGGGGGHH",
]
"""``chessplace generate queens-game -n 8 --seed 1``, top row first."""


def test_the_api_reads_a_screenshot_and_says_why_not(server: str) -> None:
    read = httpx.post(f"{server}/api/screenshot", content=shot(GRID, scale=0.5), timeout=60)
    assert read.status_code == 200 and read.json() == {"grid": lettered(GRID), "n": 8}
    for body in (b"", b"AAB\nACB\nCCB", shot(GRID, palette=(STRONG[0], *STRONG[:11]))):
        refused = httpx.post(f"{server}/api/screenshot", content=body, timeout=60)
        assert refused.status_code == 400, refused.text
        assert "\n" not in refused.json()["detail"]
    too_big = httpx.post(f"{server}/api/screenshot", content=b"\0" * (2 << 20), timeout=60)
    assert too_big.status_code == 413


def _read(page: Any) -> list[str]:
    """The grid shown once the page says a screenshot was read."""
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('Screenshot: a')"
    )
    return str(page.input_value("#grid-text")).split("\n")


def _send(page: Any, kind: str, data: bytes) -> None:
    """Drop (``drop``) or paste (``paste``) a PNG of ``data`` on the page."""
    page.evaluate(
        """([kind, text]) => {
          const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
          const moved = new DataTransfer();
          moved.items.add(new File([bytes], 'shot.png', { type: 'image/png' }));
          const event = kind === 'drop'
            ? new DragEvent('drop', { dataTransfer: moved, bubbles: true, cancelable: true })
            : new ClipboardEvent('paste', { clipboardData: moved, bubbles: true });
          document.body.dispatchEvent(event);
        }""",
        [kind, base64.b64encode(data).decode()],
    )


@needs_chromium
@pytest.mark.browser
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_screenshot_chosen_dropped_or_pasted_becomes_the_grid(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    page = browser.new_page(viewport=viewport)
    ready(page, server)  # the queens puzzle: a screenshot makes it a Queens game
    _send(page, "drop", shot(GRID, cell=150))  # 1,360×1,600 pixels: shrunk before sending
    assert _read(page) == lettered(GRID)
    assert page.input_value("#puzzle") == "queens-game"
    page.wait_for_selector("#board rect.region")
    assert page.locator("#board rect.region").count() == 64

    other = ["AAAB", "ACBB", "CCDD", "CDDD"]
    picked = {"name": "shot.jpg", "mimeType": "image/jpeg", "buffer": shot(other, form="JPEG")}
    page.set_input_files("#grid-image", files=[picked])
    page.wait_for_function("document.getElementById('grid-text').value.length === 19")
    assert page.input_value("#grid-text").split("\n") == other

    _send(page, "paste", shot(GRID, palette=STRONG, page="#1b1b1b", scale=0.6))
    assert _read(page) == lettered(GRID)

    _send(page, "paste", shot(GRID, palette=(STRONG[0], *STRONG[:11])))
    page.wait_for_function("document.getElementById('status').classList.contains('bad')")
    assert page.text_content("#status") == (
        "Screenshot: found a grid of 8×8 squares, but their colours make 7 regions, not 8"
    )
    assert page.input_value("#grid-text").split("\n") == lettered(GRID)  # kept
    page.close()
