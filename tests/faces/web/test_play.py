"""A region puzzle played on the page as players ask (issue 52): the game survives a
reload, and a drag marks X's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.faces.web.browsing import (
    DESKTOP,
    PHONE,
    browser,
    crowns,
    drag,
    needs_chromium,
    on_page,
    own_marks,
    ready,
    server,
    tap,
)

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, used by name

GRID = "AAAB.ACBB.CCDD.CDDD"
SOLUTION = ["b4", "d3", "a2", "c1"]
"""The grid's only solution (``chessplace count queens-game --grid … --limit 2``)."""


def _seconds(page: Any) -> int:
    minutes, seconds = page.text_content("#clock").split(":")
    return 60 * int(minutes) + int(seconds)


@needs_chromium
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_game_in_progress_survives_a_reload(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """Crowns, X marks and the running clock come back on a reload and when the page is
    opened again without a link; a link to another grid opens that grid and keeps the
    game until the other is played; a solved game reloads solved."""
    page = browser.new_page(viewport=viewport)
    ready(page, f"{server}/#puzzle=queens-game&grid={GRID}")
    tap(page, "b2", 4)
    tap(page, "d4", 4, times=2)
    tap(page, "a1", 4)
    page.wait_for_function("document.querySelectorAll('#board g.piece').length === 1")
    assert (crowns(page), own_marks(page)) == ({"d4"}, {"a1", "b2"})
    assert page.get_attribute("#clock", "data-state") == "running"
    before = _seconds(page)
    page.reload()
    page.wait_for_selector("#board rect.region")
    assert (crowns(page), own_marks(page)) == ({"d4"}, {"a1", "b2"})
    assert page.get_attribute("#clock", "data-state") == "running"
    assert _seconds(page) >= before
    assert page.input_value("#grid-text") == GRID.replace(".", "\n")

    ready(page, f"{server}/")  # no link: the game in progress
    page.wait_for_selector("#board rect.region")
    assert page.input_value("#puzzle") == "queens-game"
    assert (crowns(page), own_marks(page)) == ({"d4"}, {"a1", "b2"})

    ready(page, f"{server}/#puzzle=queens-game&grid=ABBB.AABB.CCCD.CCDD")
    page.wait_for_selector("#board rect.region")
    page.wait_for_selector("#clock[data-state=idle]")
    assert (crowns(page), own_marks(page)) == (set(), set())
    ready(page, f"{server}/")  # the other grid was only looked at
    page.wait_for_selector("#board rect.region")
    assert page.input_value("#grid-text") == GRID.replace(".", "\n")

    tap(page, "d4", 4)  # the crown off
    for square in SOLUTION:
        tap(page, square, 4, times=2)
    page.wait_for_selector("#verdict.valid")
    note = page.text_content("#play-note")
    assert note.startswith("Solved in ")
    page.reload()
    page.wait_for_selector("#verdict.valid")
    assert page.get_attribute("#clock", "data-state") == "stopped"
    assert page.text_content("#play-note") == note
    ready(page, f"{server}/")  # a solved game is not brought back without its link
    assert page.input_value("#puzzle") != "queens-game"
    page.close()


@needs_chromium
def test_a_drag_marks_every_square_it_passes(server: str, browser: Any) -> None:
    """A press on an empty square dragged over others marks each X, skipped ones too;
    crowns and marks stay; a press on a mark drags nothing; Undo takes the drag back;
    taps and double taps still cycle."""
    page = browser.new_page(viewport=DESKTOP)
    ready(page, f"{server}/#puzzle=queens-game&grid={GRID}")
    page.wait_for_selector("#board rect.region")
    drag(page, ["a1", "b1", "c1", "d1"], 4)
    assert own_marks(page) == {"a1", "b1", "c1", "d1"}
    assert crowns(page) == set()
    assert page.get_attribute("#clock", "data-state") == "running"
    tap(page, "c3", 4, times=2)
    page.wait_for_function("document.querySelectorAll('#board g.piece').length === 1")
    drag(page, ["c2", "c4"], 4)  # over the crown on c3
    assert crowns(page) == {"c3"}
    assert own_marks(page) == {"a1", "b1", "c1", "d1", "c2", "c4"}
    page.click("#undo")
    assert own_marks(page) == {"a1", "b1", "c1", "d1"}
    drag(page, ["a1", "a3"], 4)  # from a mark: no drag, no tap
    assert own_marks(page) == {"a1", "b1", "c1", "d1"}
    page.mouse.move(*on_page(page, "a2", 4))  # one jump to the far corner
    page.mouse.down()
    page.mouse.move(*on_page(page, "d4", 4))  # no steps between: b3 and c3 are on the way
    page.mouse.up()
    assert own_marks(page) - {"a1", "b1", "c1", "d1"} == {"a2", "b3", "d4"}  # c3 keeps its crown
    tap(page, "a1", 4)  # a tap: X → crown
    page.wait_for_function("document.querySelectorAll('#board g.piece').length === 2")
    assert crowns(page) == {"a1", "c3"}
    page.close()


@needs_chromium
def test_a_finger_drag_marks_on_a_phone(server: str, browser: Any) -> None:
    """On a touch screen the board takes the drag (it does not scroll the page)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    ready(page, f"{server}/#puzzle=queens-game&grid={GRID}")
    page.wait_for_selector("#board rect.region")
    page.locator("#board").scroll_into_view_if_needed()
    touch = context.new_cdp_session(page)
    way = [on_page(page, square, 4) for square in ("d4", "d3", "d2", "c2")]

    def send(kind: str, point: tuple[float, float] | None) -> None:
        points = [] if point is None else [{"x": point[0], "y": point[1]}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    send("touchStart", way[0])
    for point in way[1:]:
        send("touchMove", point)
    send("touchEnd", None)
    page.wait_for_function("document.querySelectorAll('#board path.mark').length === 4")
    assert own_marks(page) == {"d4", "d3", "d2", "c2"}
    scrolled = page.evaluate("window.scrollY")
    tap(page, "a4", 4, times=2)
    page.wait_for_function("document.querySelectorAll('#board g.piece').length === 1")
    assert page.evaluate("window.scrollY") == scrolled
    context.close()
