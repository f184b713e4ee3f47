"""Boards as SVG, built with ElementTree: squares, labels, pieces, attacks, conflicts."""

from __future__ import annotations

import colorsys
import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING

from chessplace.core.board import Square, file_name

if TYPE_CHECKING:
    from chessplace.core.placement import Placement
from chessplace.core.pieces import piece_letter

SQUARE = 48
MARGIN = 22
MAX_DRAWN = 64
LIGHT, DARK = "#f0d9b5", "#b58863"
ATTACKED = "#d9453b"
CONFLICT = "#e0201b"
INK = "#111111"
BLOCKED = "#4a4844"
GIVEN = "#1f7a3a"
PAWN = "#9a9a9a"
PALETTE_SIZE = 62
"""Region colours before they repeat (a grid has at most 62 regions)."""
FONT = "DejaVu Sans, Noto Sans Symbols2, Segoe UI Symbol, sans-serif"
ARMY_FILLS = (
    "#fbfbfb",
    "#1e1e1e",
    "#d8403a",
    "#2f6fd0",
    "#2e9d4a",
    "#e7b416",
    "#8a3fb8",
    "#ee7f22",
)
GLYPH_PIECES = frozenset({"queen", "rook", "bishop", "knight", "king", "crown", "star"})
CENTRED = {"text_anchor": "middle", "dominant_baseline": "central", "font_family": FONT}


def _add(
    parent: ET.Element, tag: str, text: str | None = None, **attributes: str | float
) -> ET.Element:
    """A child element; ``font_size`` becomes ``font-size`` and ``class_`` becomes ``class``."""
    attrib = {
        key.rstrip("_").replace("_", "-"): f"{value:g}" if isinstance(value, float) else str(value)
        for key, value in attributes.items()
    }
    element = ET.SubElement(parent, tag, attrib)
    element.text = text
    return element


def render_svg(
    placement: Placement,
    *,
    tint: Iterable[Square] = (),
    conflicts: Iterable[tuple[Square, Square]] = (),
    regions: Mapping[Square, int] | None = None,
    ringed: Iterable[Square] = (),
) -> str:
    """The placement drawn as an SVG document.

    ``tint`` lists squares to shade (attacked ones, say); ``conflicts`` lists
    (attacker, victim) pairs: both squares are ringed and joined by a line;
    ``regions`` gives each square a region number: squares take their region's
    colour instead of the checkering, with walls between regions; ``ringed``
    squares get a ring in the conflict colour (the reason a problem has no answer).
    The problem's position is drawn as it stands: blocked squares hatched, pawns
    as ♙, given pieces with a pin mark in their corner.
    The renderer draws what it is given and judges nothing itself.
    """
    board = placement.problem.board
    if max(board.rows, board.cols) > MAX_DRAWN:
        raise ValueError(f"a {board} board is too large to draw (at most {MAX_DRAWN} a side)")
    width = 2 * MARGIN + board.cols * SQUARE
    height = 2 * MARGIN + board.rows * SQUARE
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
        },
    )
    _add(svg, "title", f"{placement.problem.puzzle} on {board}")
    _add(svg, "rect", width=width, height=height, fill="#3b3a36")
    for square in board.squares():
        x, y = _corner(placement, square)
        if regions is not None:
            colour = region_colour(regions[square])
        else:
            colour = DARK if (square[0] + square[1]) % 2 == 0 else LIGHT
        _add(svg, "rect", x=x, y=y, width=SQUARE, height=SQUARE, fill=colour)
    if regions is not None:
        _walls(svg, placement, regions)
    for square in sorted(set(tint)):
        x, y = _corner(placement, square)
        _add(
            svg,
            "rect",
            x=x,
            y=y,
            width=SQUARE,
            height=SQUARE,
            fill=ATTACKED,
            fill_opacity="0.35",
            class_="attacked",
        )
    _labels(svg, placement)
    _position(svg, placement)
    for army, squares in enumerate(placement.armies):
        for square in sorted(squares):
            _piece(svg, placement, army, square)
    _pins(svg, placement)
    _conflicts(svg, placement, conflicts)
    for square in sorted(set(ringed)):
        cx, cy = _centre(placement, square)
        _add(
            svg,
            "circle",
            cx=cx,
            cy=cy,
            r=0.46 * SQUARE,
            fill="none",
            stroke=CONFLICT,
            stroke_width="4",
            class_="ringed",
        )
    return ET.tostring(svg, encoding="unicode")


def _position(svg: ET.Element, placement: Placement) -> None:
    """Blocked squares (dark, hatched) and pawns (given and placed)."""
    problem = placement.problem
    for square in sorted(problem.blocked):
        x, y = _corner(placement, square)
        group = _add(svg, "g", class_="blocked")
        _add(group, "rect", x=x, y=y, width=SQUARE, height=SQUARE, fill=BLOCKED)
        for k in range(1, 5):
            step = k * SQUARE / 4
            _add(
                group,
                "line",
                x1=x,
                y1=y + step,
                x2=x + step,
                y2=y,
                stroke=LIGHT,
                stroke_width="2",
                stroke_opacity="0.5",
            )
            _add(
                group,
                "line",
                x1=x + step,
                y1=y + SQUARE,
                x2=x + SQUARE,
                y2=y + step,
                stroke=LIGHT,
                stroke_width="2",
                stroke_opacity="0.5",
            )
    for square in sorted(problem.pawns | placement.pawns):
        cx, cy = _centre(placement, square)
        _add(
            svg,
            "text",
            "♙",
            x=cx,
            y=cy + 2,
            fill=PAWN,
            stroke=INK,
            stroke_width="0.8",
            font_size=0.7 * SQUARE,
            class_="pawn",
            **CENTRED,
        )


def _pins(svg: ET.Element, placement: Placement) -> None:
    """A green pin in the top-left corner of every given piece's square."""
    problem = placement.problem
    for army in range(len(problem.armies)):
        for square in sorted(problem.given_of(army)):
            x, y = _corner(placement, square)
            _add(
                svg,
                "circle",
                cx=x + 7,
                cy=y + 7,
                r=5,
                fill=GIVEN,
                stroke=INK,
                stroke_width="1",
                class_="given",
            )


def region_colour(region: int) -> str:
    """The colour of region number ``region`` (:func:`region_palette`, round again past
    its end)."""
    palette = region_palette()
    return palette[region % len(palette)]


@cache
def region_palette() -> tuple[str, ...]:
    """Soft colours for regions, each as far (in CIELAB) from those before it as the
    candidates allow, so that every prefix (the colours of a grid of n regions) is
    spread out; every one keeps dark ink readable (contrast at least 4.5:1)."""
    candidates = [
        colorsys.hls_to_rgb(hue / 36, lightness, saturation)
        for hue in range(36)
        for lightness in (0.66, 0.74, 0.82)
        for saturation in (0.45, 0.6, 0.75)
    ]
    ink = _luminance(_rgb(INK))
    candidates = [c for c in candidates if (_luminance(c) + 0.05) / (ink + 0.05) >= 4.5]
    points = [_lab(c) for c in candidates]
    first = colorsys.hls_to_rgb(0.0, 0.8, 0.65)
    chosen = [min(range(len(candidates)), key=lambda i: math.dist(candidates[i], first))]
    nearest = [math.dist(point, points[chosen[0]]) for point in points]
    while len(chosen) < PALETTE_SIZE:
        pick = max(range(len(candidates)), key=nearest.__getitem__)
        chosen.append(pick)
        nearest = [
            min(d, math.dist(point, points[pick])) for d, point in zip(nearest, points, strict=True)
        ]
    return tuple("#" + "".join(f"{round(255 * c):02x}" for c in candidates[i]) for i in chosen)


def _rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _luminance(rgb: tuple[float, float, float]) -> float:
    red, green, blue = map(_linear, rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    red, green, blue = map(_linear, rgb)
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _walls(svg: ET.Element, placement: Placement, regions: Mapping[Square, int]) -> None:
    """A dark line along every edge between two regions."""
    group = _add(svg, "g", class_="walls", stroke=INK, stroke_width="3", stroke_linecap="square")
    for (file, rank), region in sorted(regions.items()):
        x, y = _corner(placement, (file, rank))
        if regions.get((file + 1, rank), region) != region:
            _add(group, "line", x1=x + SQUARE, y1=y, x2=x + SQUARE, y2=y + SQUARE)
        if regions.get((file, rank + 1), region) != region:
            _add(group, "line", x1=x, y1=y, x2=x + SQUARE, y2=y)


def _corner(placement: Placement, square: Square) -> tuple[int, int]:
    rows = placement.problem.board.rows
    return MARGIN + square[0] * SQUARE, MARGIN + (rows - 1 - square[1]) * SQUARE


def _centre(placement: Placement, square: Square) -> tuple[float, float]:
    x, y = _corner(placement, square)
    return x + SQUARE / 2, y + SQUARE / 2


def _labels(svg: ET.Element, placement: Placement) -> None:
    board = placement.problem.board
    style = {**CENTRED, "font_size": "12", "fill": "#e8e6e3"}
    for file in range(board.cols):
        x = MARGIN + file * SQUARE + SQUARE / 2
        for y in (MARGIN / 2, 1.5 * MARGIN + board.rows * SQUARE):
            _add(svg, "text", file_name(file), x=x, y=y, **style)
    for rank in range(board.rows):
        y = MARGIN + (board.rows - 1 - rank) * SQUARE + SQUARE / 2
        for x in (MARGIN / 2, 1.5 * MARGIN + board.cols * SQUARE):
            _add(svg, "text", str(rank + 1), x=x, y=y, **style)


def _piece(svg: ET.Element, placement: Placement, army: int, square: Square) -> None:
    """Chess glyphs for chess pieces (a queen with a knight badge for the amazon),
    a lettered token for every other piece; the army decides the colour."""
    piece = placement.problem.armies[army].piece
    fill = ARMY_FILLS[army % len(ARMY_FILLS)]
    cx, cy = _centre(placement, square)
    group = _add(
        svg,
        "g",
        class_="piece",
        data_army=army,
        data_square=f"{file_name(square[0])}{square[1] + 1}",
        data_piece=piece_letter(piece),
    )
    if piece.name in GLYPH_PIECES or piece.name == "amazon":
        glyph = "♛" if piece.name == "amazon" else piece.glyph(white=False)
        _add(
            group,
            "text",
            glyph,
            x=cx,
            y=cy + 2,
            fill=fill,
            stroke=INK,
            stroke_width="0.8",
            font_size=0.78 * SQUARE,
            **CENTRED,
        )
        if piece.name == "amazon":
            _add(
                group,
                "text",
                "♞",
                x=cx + 0.3 * SQUARE,
                y=cy + 0.28 * SQUARE,
                fill=fill,
                stroke=INK,
                stroke_width="0.8",
                font_size=0.36 * SQUARE,
                **CENTRED,
            )
        return
    _add(group, "circle", cx=cx, cy=cy, r=0.38 * SQUARE, fill=fill, stroke=INK, stroke_width="2")
    _add(
        group,
        "text",
        piece_letter(piece),
        x=cx,
        y=cy,
        fill=INK if army != 1 else "#f4f4f4",
        font_size=0.4 * SQUARE,
        font_weight="bold",
        **CENTRED,
    )


def _conflicts(
    svg: ET.Element, placement: Placement, pairs: Iterable[tuple[Square, Square]]
) -> None:
    ringed: set[Square] = set()
    for attacker, victim in pairs:
        for square in (attacker, victim):
            if square not in ringed:
                ringed.add(square)
                x, y = _corner(placement, square)
                _add(
                    svg,
                    "rect",
                    x=x + 2,
                    y=y + 2,
                    width=SQUARE - 4,
                    height=SQUARE - 4,
                    fill="none",
                    stroke=CONFLICT,
                    stroke_width="4",
                    class_="conflict",
                )
        x1, y1 = _centre(placement, attacker)
        x2, y2 = _centre(placement, victim)
        _add(
            svg,
            "line",
            x1=x1,
            y1=y1,
            x2=x2,
            y2=y2,
            stroke=CONFLICT,
            stroke_width="3",
            stroke_opacity="0.8",
            class_="attack-line",
        )


def svg_to_png(svg: str, scale: float = 2.0) -> bytes:
    """PNG bytes of an SVG drawing (needs the ``png`` extra: cairosvg)."""
    try:
        import cairosvg
    except ImportError:
        raise ValueError("PNG output needs cairosvg: pip install 'chessplace[png]'") from None
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return png
