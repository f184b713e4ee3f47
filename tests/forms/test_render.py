"""SVG and PNG boards for every classic puzzle, and the CLI's drawing options."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from chessplace import Board, Placement, optimize, piece_from_text, puzzles, solve
from chessplace.faces.cli import main
from chessplace.forms.drawing import marked_svg
from chessplace.forms.svg import render_svg, svg_to_png

SVG = "{http://www.w3.org/2000/svg}"
SQUARE = Board.square

CLASSIC = {
    "queens": lambda: solve(puzzles.queens(SQUARE(8))),
    "bishops": lambda: optimize(puzzles.bishops(SQUARE(6))),
    "amazons": lambda: solve(puzzles.amazons(SQUARE(10))),
    "peaceable-queens": lambda: optimize(puzzles.peaceable_queens(SQUARE(6))),
    "dominating-queens": lambda: optimize(puzzles.dominating_queens(SQUARE(6))),
    "nightriders": lambda: solve(
        puzzles.peaceable(SQUARE(6), piece_from_text("NN"), 3).with_counts(at_least=3)
    ),
}


def _pieces(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "piece"]


@pytest.mark.parametrize("name", list(CLASSIC))
def test_every_classic_puzzle_draws(name: str) -> None:
    placement = CLASSIC[name]().placement
    assert placement is not None
    svg = marked_svg(placement, show_attacks=True)
    assert len(_pieces(svg)) == len(placement)
    armies = {g.get("data-army") for g in _pieces(svg)}
    assert armies == {str(i) for i, squares in enumerate(placement.armies) if squares}
    image = Image.open(io.BytesIO(svg_to_png(svg)))
    assert image.size[0] > 300
    colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50  # a drawn board, not a blank page


def test_conflicts_are_marked() -> None:
    problem = puzzles.peaceable_queens(SQUARE(5)).with_counts(exactly=4)
    white = [(1, 4), (3, 4), (2, 3), (2, 1)]
    black = [(0, 2), (4, 2), (2, 0), (4, 0)]  # c1 is attacked by c2
    svg = marked_svg(Placement.from_squares(problem, [white, black]), conflicts=True)
    root = ET.fromstring(svg)
    lines = [e for e in root.iter(f"{SVG}line") if e.get("class") == "attack-line"]
    rings = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "conflict"]
    assert len(lines) == 1 and len(rings) == 2  # c1 and c2 attack each other: one line


def test_the_renderer_draws_only_what_it_is_given() -> None:
    problem = puzzles.peaceable_queens(SQUARE(5)).with_counts(exactly=1)
    placement = Placement.from_squares(problem, [[(0, 0)], [(1, 1)]])  # an attack
    root = ET.fromstring(render_svg(placement, tint=[(4, 4)], conflicts=[((3, 0), (3, 3))]))
    tinted = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "attacked"]
    lines = [e for e in root.iter(f"{SVG}line") if e.get("class") == "attack-line"]
    assert len(tinted) == 1 and len(lines) == 1  # not the real attack a1-b2
    assert not [e for e in ET.fromstring(render_svg(placement)).iter(f"{SVG}line")]


def test_jupyter_draws_placements() -> None:
    result = solve(puzzles.queens(SQUARE(6)))
    assert result._repr_svg_() is not None
    assert len(_pieces(result._repr_svg_() or "")) == 6


def test_huge_boards_are_refused() -> None:
    placement = solve(puzzles.queens(SQUARE(100))).placement
    assert placement is not None
    with pytest.raises(ValueError, match="too large"):
        render_svg(placement)


def test_cli_render_and_render_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg, png = tmp_path / "amazons.svg", tmp_path / "peace.png"
    assert main(["render", "amazons", "-n", "10", "-o", str(svg)]) == 0
    assert len(_pieces(svg.read_text())) == 10
    assert main(["optimize", "peaceable-queens", "-n", "5", "--render", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert main(["render", "queens", "-n", "8", "-o", str(tmp_path / "x.gif")]) == 2
    capsys.readouterr()


def test_a_drawing_says_which_file_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """render (and --render) names the file it wrote, one line on stderr; standard
    output keeps the answer, JSON included."""
    svg = tmp_path / "amazons.svg"
    assert main(["render", "amazons", "-n", "10", "-o", str(svg)]) == 0
    out, err = capsys.readouterr()
    assert svg.exists() and err.splitlines() == [f"chessplace: wrote {svg}"]
    assert "amazons on 10×10" in out
    png = tmp_path / "queens.png"
    assert main(["solve", "queens", "-n", "6", "--json", "--render", str(png)]) == 0
    out, err = capsys.readouterr()
    assert png.exists() and err.splitlines() == [f"chessplace: wrote {png}"]
    assert json.loads(out)["status"] == "feasible"


def test_show_attacks_on_two_armies_tints_what_the_other_army_attacks() -> None:
    """Peaceable armies attack every square between them; the tint shows the squares
    white may not stand on (attacked by black), not every square of the board."""
    result = optimize(puzzles.peaceable_queens(SQUARE(5)))
    assert result.placement is not None
    from chessplace.core.verification import attacked_squares

    svg = marked_svg(result.placement, show_attacks=True)
    tinted = [e for e in ET.fromstring(svg).iter(f"{SVG}rect") if e.get("class") == "attacked"]
    by_black = attacked_squares(result.placement, 1)
    assert len(tinted) == len(by_black) < 25
