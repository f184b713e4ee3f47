"""What a problem asks beyond placing pieces that do not attack each other, by name:
engines declare the features they support, the registry chooses by them, and every
refusal is worded from :data:`REFUSALS`."""

from __future__ import annotations

from enum import StrEnum

from chessplace.core.board import Shape


class Feature(StrEnum):
    """A part of a problem that not every engine models; every board shape but the plane
    is one, of the shape's name (:func:`shape_features`)."""

    REGIONS = "regions"
    TORUS = "torus"
    CYLINDER = "cylinder"
    POSITION = "position"
    DOMINATED = "dominated"
    COUNTS = "counts"
    ONE_WAY = "one-way"
    COVER_COUNT = "cover-count"


REFUSALS: dict[Feature, str] = {
    Feature.REGIONS: "model regions",
    Feature.TORUS: "know torus boards",
    Feature.CYLINDER: "know cylinder boards",
    Feature.POSITION: "model blocked squares, pawns or given pieces",
    Feature.DOMINATED: "dominate listed squares only",
    Feature.COUNTS: "take count rules on sets of squares",
    Feature.ONE_WAY: "take attack rules between chosen pairs of armies",
    Feature.COVER_COUNT: "dominate a number of times other than at least once",
}
"""What an engine that lacks a feature does not do, in the words of its refusal; the
order is the order refusals are looked for."""


def shape_features(shape: Shape) -> frozenset[Feature]:
    """What a board of ``shape`` asks of an engine: nothing for the plane, which every
    engine knows; for any other shape, the feature of the same name."""
    return frozenset() if shape is Shape.PLANE else frozenset({Feature(shape.value)})


def refusal(engine: str, missing: frozenset[Feature]) -> str | None:
    """``"ENGINE does not …"`` for the first feature of ``missing`` in table order."""
    for feature, words in REFUSALS.items():
        if feature in missing:
            return f"{engine} does not {words}"
    return None
