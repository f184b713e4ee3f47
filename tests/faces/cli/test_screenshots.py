"""``solve queens-game --image shot.png``: grids read from screenshots (issue 52, what
players ask for). The screenshots are drawn here, from generated grids: several
palettes, sizes and scales, light and dark pages with a title and a button around the
grid, borders, thin lines and walls or none, noise, JPEG and anti-aliasing, crowns
and X marks of a game under way, and the project's own drawing of a grid; each must
read back as the same regions. Images that
hold no grid, or whose colours make too few regions, or that are too big, are refused
in one line with exit code 2."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from chessplace.faces.cli import main
from chessplace.forms import svg as svgboard
from chessplace.making import new_puzzle
from chessplace.notation.puzzles import region_puzzle
from chessplace.notation.screenshot import MAX_PIXELS, ScreenshotError, grid_from_image
from tests.faces.shots import LINKEDIN, STRONG, lettered, shot

OWN = svgboard.region_palette()[:12]
"""The colours of the project's own drawing."""


def _grid(puzzle: str, n: int, seed: int, stars: int | None = None) -> list[str]:
    result = new_puzzle.generate(puzzle, n, stars=stars, seed=seed, time_limit=60)
    assert result.placement is not None and result.placement.problem.regions is not None
    return list(result.placement.problem.regions.rows)


@pytest.fixture(scope="module")
def grids() -> dict[int, list[str]]:
    """Generated Queens game grids by size, and a 10×10 two-star Star Battle's (as 10)."""
    made = {n: _grid("queens-game", n, seed=n) for n in (5, 7, 8, 9, 11)}
    return made | {10: _grid("star-battle", 10, seed=3, stars=2)}


CASES: dict[str, tuple[int, dict[str, Any]]] = {
    "5, as drawn": (5, {}),
    "7, half size, noise": (7, {"scale": 0.5, "noise": 3.0}),
    "8, strong colours, dark page": (8, {"palette": STRONG, "page": "#1b1b1b"}),
    "8, JPEG, enlarged": (8, {"form": "JPEG", "scale": 1.7}),
    "9, own colours, no thin lines": (9, {"palette": OWN, "thin": 0}),
    "9, small cells, JPEG, noise": (9, {"cell": 26, "form": "JPEG", "noise": 2.0}),
    "11, a third, no border": (11, {"scale": 0.37, "border": 0, "wall": 4}),
    "11, twice, thick lines, WebP": (11, {"scale": 2.0, "thin": 3, "form": "WEBP"}),
    "star battle 10, dark page, JPEG": (10, {"page": "#262522", "form": "JPEG", "scale": 0.8}),
    "8, a game under way": (8, {"crowns": ((0, 0), (3, 3), (6, 1)), "crosses": ((1, 5), (7, 7))}),
    "9, a game under way, JPEG": (9, {"crowns": ((2, 2), (4, 6)), "form": "JPEG", "scale": 0.6}),
}


@pytest.mark.parametrize("case", CASES)
def test_a_drawn_grid_reads_back_as_its_regions(grids: dict[int, list[str]], case: str) -> None:
    n, drawing = CASES[case]
    rows = grids[n]
    assert grid_from_image(shot(rows, **drawing)) == lettered(rows)


def test_a_grid_cut_off_is_not_read_as_a_smaller_one() -> None:
    """A screenshot that shows part of a grid: a 5×5 block of it has five colours, but
    the coloured squares go on past its sides, so it is not taken for the grid."""
    rows = _grid("queens-game", 10, seed=310)
    picture = Image.open(io.BytesIO(shot(rows)))
    cut = io.BytesIO()
    picture.crop((80 + 174, 200 + 7, 80 + 485, 200 + 402)).save(cut, "PNG")
    with pytest.raises(ScreenshotError) as refused:
        grid_from_image(cut.getvalue())
    assert str(refused.value) == (
        "found 5×5 squares of 5 colours, but coloured squares go on past them: "
        "is the whole grid in the picture?"
    )


@pytest.mark.parametrize("scale", [0.6, 1.0, 2.5])
def test_the_projects_own_drawing_of_a_grid_reads_back(
    grids: dict[int, list[str]], scale: float
) -> None:
    """The SVG export's grid (a dark frame with labels, walls, no thin lines) as PNG."""
    pytest.importorskip("cairosvg")
    from chessplace.forms.drawing import problem_svg

    rows = grids[8]
    png = svgboard.svg_to_png(problem_svg(region_puzzle("queens-game", "\n".join(rows))), scale)
    assert grid_from_image(png) == lettered(rows)


def test_solve_reads_the_grid_from_an_image_as_from_its_text(
    grids: dict[int, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = grids[8]
    picture = tmp_path / "shot.jpg"
    picture.write_bytes(shot(rows, form="JPEG", scale=0.7, noise=2.0))
    text = tmp_path / "grid.txt"
    text.write_text("\n".join(rows) + "\n")
    assert main(["solve", "queens-game", "--grid", str(text), "--json"]) == 0
    from_text = capsys.readouterr().out
    assert main(["solve", "queens-game", "--image", str(picture), "--json"]) == 0
    from_image = capsys.readouterr().out
    assert _pieces(from_image) == _pieces(from_text)
    assert main(["solve", "queens-game", "--image", str(picture), "--print-problem", "toml"]) == 0
    assert f"grid = {lettered(rows)!r}".replace("'", '"') in capsys.readouterr().out
    assert main(["hint", "queens-game", "--image", str(picture)]) == 0
    assert capsys.readouterr().out.startswith("[")  # [grade] rule …


def _pieces(output: str) -> list[str]:
    return [piece["square"] for piece in json.loads(output)["pieces"]]


def _png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header says ``width``×``height``, with almost no pixels behind it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _flat(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (640, 480), colour).save(out, "PNG")
    return out.getvalue()


def _noise() -> bytes:
    values = np.random.default_rng(3).integers(0, 256, (400, 400, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(values).save(out, "PNG")
    return out.getvalue()


def test_images_without_a_grid_are_refused_in_one_line(
    grids: dict[int, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = grids[8]
    twins = shot(rows, palette=(LINKEDIN[0], *LINKEDIN[:11]))  # regions 1 and 2 alike
    close = shot(rows, palette=("#96beff", "#9cc2ff", *LINKEDIN[3:]))  # too close to tell
    good = shot(rows)
    most = f"the {MAX_PIXELS // 1_000_000} million read"
    refused = {
        "blank.png": (_flat("white"), "no grid of coloured squares found in the image"),
        "noise.png": (_noise(), "no grid of coloured squares found in the image"),
        "twins.png": (
            twins,
            "found a grid of 8×8 squares, but their colours make 7 regions, not 8",
        ),
        "close.png": (
            close,
            "found a grid of 8×8 squares, but their colours make 7 regions, not 8",
        ),
        "huge.png": (_png_claiming(8000, 6000), f"the image is 8000×6000 pixels, more than {most}"),
        "bomb.png": (_png_claiming(100_000, 100_000), f"the image has more pixels than {most}"),
        "text.png": (b"AAB\nACB\nCCB\n", "not an image read here (PNG, JPEG, WEBP, GIF, BMP)"),
        "cut.png": (good[: len(good) // 3], "the image cannot be decoded: "),
    }
    for name, (data, message) in refused.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert main(["solve", "queens-game", "--image", str(path)]) == 2, name
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1, (name, err)
        assert err.startswith(f"chessplace: error: {path}: {message}"), (name, err)
        with pytest.raises(ScreenshotError):
            grid_from_image(data)
    path = tmp_path / "good.png"
    path.write_bytes(good)
    text = tmp_path / "grid.txt"
    text.write_text("\n".join(rows))
    assert main(["solve", "queens-game", "--image", str(path), "--grid", str(text)]) == 2
    assert "--grid and --image both give the grid" in capsys.readouterr().err


def test_without_pillow_the_image_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "shot.png"
    path.write_bytes(_flat("white"))
    script = (
        "import sys; sys.modules['PIL'] = None\n"
        "from chessplace.faces.cli import main\n"
        f"sys.exit(main(['solve', 'queens-game', '--image', {str(path)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        f"chessplace: error: {path}: reading a screenshot needs Pillow: "
        "pip install 'chessplace[image]'"
    )
