"""``POST /api/screenshot``: a region puzzle's grid read from a screenshot of it (see
:mod:`chessplace.notation.screenshot`), for the page's drop, paste and file picker."""

from __future__ import annotations

import json

from chessplace.faces.web.work import JSON, Answer
from chessplace.notation.screenshot import grid_from_image
from chessplace.runtime.control import Control


def read_screenshot(data: bytes, control: Control) -> Answer:
    """``{"grid": rows, "n": n}`` from the image's bytes, run in a worker (a few tenths
    of a second); an image with no grid is a ``ValueError``, answered 400 in one line."""
    rows = grid_from_image(data)
    return Answer(JSON, json.dumps({"grid": rows, "n": len(rows)}).encode())
