"""``--image FILE``: a region puzzle's grid read from a screenshot of it (see
:mod:`chessplace.notation.screenshot`), as the grid text ``--grid`` takes."""

from __future__ import annotations

from chessplace.faces.cli.exits import UsageError
from chessplace.faces.cli.inputs import read_bytes
from chessplace.notation.screenshot import MAX_BYTES, ScreenshotError, grid_from_image


def read_image_grid(name: str) -> str:
    """The grid in the image file ``name`` (``-``: standard input), one row per line; a
    :class:`UsageError` in one line when it holds none or cannot be read."""
    data = read_bytes(name, "the image", MAX_BYTES)
    try:
        return "\n".join(grid_from_image(data))
    except ScreenshotError as error:
        raise UsageError(f"{name}: {error}") from None
