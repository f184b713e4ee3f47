"""The daily puzzles (issue 52, players' asks): a Queens game and a Star Battle each day,
the same for everyone, made from the day's seed and kept by the server; an archive of
past days to play, and a streak of days solved, kept by the browser."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import httpx
import pytest

from chessplace.faces.web.daily import DAILIES, Made, daily_request, seed_of
from tests.faces.web.browsing import (
    DESKTOP,
    PHONE,
    browser,
    crowns,
    needs_chromium,
    own_marks,
    ready,
    server,
    tap,
)

__all__ = ["browser", "server"]  # the fixtures, used by name

TODAY = date(2026, 11, 29)


def test_a_days_seed_is_its_digits_and_only_real_days_up_to_tomorrow_are_asked() -> None:
    request = daily_request("star-battle", "2026-11-27", TODAY)
    assert (request.puzzle, request.n, request.stars, request.seed) == (
        "star-battle",
        10,
        2,
        20261127,
    )
    assert daily_request("queens-game", "2026-11-30", TODAY).seed == seed_of(date(2026, 11, 30))
    bad = {
        ("queens", "2026-11-27"): "no daily 'queens': the dailies are queens-game, star-battle",
        ("queens-game", "20261127"): "the day is written YYYY-MM-DD, not '20261127'",
        ("queens-game", "2026-02-30"): "2026-02-30 is not a day of the calendar",
        (
            "queens-game",
            "2026-12-01",
        ): "the daily of 2026-12-01 is not out yet (the last one is 2026-11-30)",
    }
    for (puzzle, day), message in bad.items():
        with pytest.raises(ValueError) as raised:
            daily_request(puzzle, day, TODAY)
        assert str(raised.value) == message


def test_the_server_keeps_the_answers_it_asked_for_last() -> None:
    made = Made(most=2)
    days = [daily_request("queens-game", f"2026-11-2{day}", TODAY) for day in (1, 2, 3)]
    made.keep(days[0], b"1")
    made.keep(days[1], b"2")
    assert made.get(days[0]) == b"1"  # now the last asked
    made.keep(days[2], b"3")
    assert (made.get(days[0]), made.get(days[1]), made.get(days[2])) == (b"1", None, b"3")


def test_a_daily_is_the_generated_grid_of_its_seed_made_once(server: str) -> None:
    day = (date.today() - timedelta(days=3)).isoformat()
    first = httpx.get(f"{server}/api/daily/queens-game/{day}", timeout=120)
    again = httpx.get(f"{server}/api/daily/queens-game/{day}", timeout=120)
    assert first.status_code == 200 and again.content == first.content
    body = {"puzzle": "queens-game", "n": 8, "seed": int(day.replace("-", ""))}
    made = httpx.post(f"{server}/api/generate", json=body, timeout=120).json()
    answer = first.json()
    assert (answer["grid"], answer["seed"]) == (made["grid"], body["seed"])
    for path in ("queens/2026-11-01", "queens-game/2026-13-01", "star-battle/tomorrow"):
        refused = httpx.get(f"{server}/api/daily/{path}", timeout=30)
        assert refused.status_code == 400 and "\n" not in refused.json()["detail"]


def _today(page: Any) -> str:
    return str(page.evaluate("import('/static/days.js').then(m => m.today())"))


def _solve(page: Any, answer: dict[str, Any]) -> None:
    """Double-tap every piece of the answer's solution onto the board."""
    n = len(answer["grid"])
    for piece in answer["pieces"]:
        tap(page, piece["square"], n, times=2)
    page.wait_for_selector("#verdict.valid", timeout=30_000)


@needs_chromium
@pytest.mark.browser
def test_a_past_daily_is_played_from_the_archive(server: str, browser: Any) -> None:
    """The archive lists the last 14 days with both dailies; a past day's is ticked with
    its time once solved, and makes no streak (it was not solved on its day)."""
    page = browser.new_page(viewport=PHONE)
    ready(page, server)
    today = _today(page)
    assert page.text_content("#streak") == "Streak: 0 days"
    assert page.input_value("#daily-day") == today
    page.click("#archive summary")
    days = page.eval_on_selector_all("#archive-list li", "n => n.map(li => li.dataset.day)")
    day = (date.fromisoformat(today) - timedelta(days=3)).isoformat()
    assert len(days) == 14 and days[0] == today and days[3] == day
    row = f"#archive-list li[data-day='{day}']"
    page.click(f"{row} button[data-puzzle=queens-game]")
    page.wait_for_selector("#facts dd[data-fact=seed]", timeout=120_000)
    assert page.text_content("#facts dd[data-fact=seed]") == day.replace("-", "")
    answer = httpx.get(f"{server}/api/daily/queens-game/{day}", timeout=120).json()
    assert page.input_value("#grid-text").split("\n") == answer["grid"]
    _solve(page, answer)
    text = page.input_value("#daily-text")
    assert re.fullmatch(rf"chessplace daily {day} · 8×8 · \d+:\d\d · no hints", text), text
    page.wait_for_function(f"document.querySelector(\"{row} button\").classList.contains('solved')")
    assert re.fullmatch(r"Queens game ✓ \d+:\d\d", page.text_content(f"{row} button.solved"))
    assert page.text_content("#streak") == "Streak: 0 days"
    page.close()


@needs_chromium
@pytest.mark.browser
def test_todays_star_battle_survives_a_reload_and_extends_the_streak(
    server: str, browser: Any
) -> None:
    """With yesterday's and the day before's dailies solved on their days, today's Star
    Battle, half played, reloaded and finished, makes a streak of three; the Queens
    game left for it comes back as it was."""
    page = browser.new_page(viewport=DESKTOP)
    ready(page, server)
    today = _today(page)
    before = [(date.fromisoformat(today) - timedelta(days=back)).isoformat() for back in (1, 2)]
    solved = {f"queens-game {day}": {"seconds": 99, "hints": 0, "on": day} for day in before}
    page.evaluate("s => localStorage.setItem('chessplace.dailies', JSON.stringify(s))", solved)
    page.reload()
    page.wait_for_selector("#board svg")
    assert page.text_content("#streak") == "Streak: 2 days"

    page.click("#daily")
    page.wait_for_selector("#facts dd[data-fact=seed]", timeout=120_000)
    tap(page, "a1", 8)
    page.wait_for_function("document.querySelectorAll('#board path.mark').length === 1")
    page.click("#daily-stars")
    page.wait_for_function("document.querySelector('#grid-text').value.split('\\n').length === 10")
    stars = DAILIES["star-battle"].stars
    assert page.input_value("#puzzle") == "star-battle" and page.input_value("#stars") == str(stars)
    answer = httpx.get(f"{server}/api/daily/star-battle/{today}", timeout=120).json()
    assert page.input_value("#grid-text").split("\n") == answer["grid"]
    half = answer["pieces"][:10]
    for piece in half:
        tap(page, piece["square"], 10, times=2)
    page.wait_for_function("document.querySelectorAll('#board g.piece').length === 10")
    page.reload()
    page.wait_for_selector("#board rect.region")
    assert crowns(page) == {piece["square"] for piece in half}
    for piece in answer["pieces"][10:]:
        tap(page, piece["square"], 10, times=2)
    page.wait_for_selector("#verdict.valid", timeout=30_000)
    text = page.input_value("#daily-text")
    pattern = rf"chessplace daily {today} · Star Battle 10×10, 2★ · \d+:\d\d · no hints"
    assert re.fullmatch(pattern, text), text
    page.wait_for_function("document.querySelector('#streak').textContent === 'Streak: 3 days'")

    page.click("#daily")  # the Queens game as it was left
    page.wait_for_function("document.querySelector('#puzzle').value === 'queens-game'")
    assert own_marks(page) == {"a1"}
    assert "as you left it" in page.text_content("#status")
    page.close()


@needs_chromium
@pytest.mark.browser
def test_a_streak_counts_days_in_a_row_solved_on_their_day(server: str, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    ready(page, server)
    streaks = page.evaluate(
        """import('/static/streak.js').then(({ streak }) => {
          const on = (day, when = day) => [`queens-game ${day}`, { seconds: 6, on: when }];
          const of = (...pairs) => Object.fromEntries(pairs);
          const today = '2026-03-01';
          return [
            streak(of(), today),
            streak(of(on('2026-03-01'), on('2026-02-28'), on('2026-02-26')), today),
            streak(of(on('2026-02-28'), on('2026-02-27')), today),
            streak(of(on('2026-02-27'), on('2026-02-28', '2026-03-01')), today),
            streak(of(on('2025-12-30'), on('2025-12-31'), on('2026-01-01')), today),
          ];
        })"""
    )
    assert streaks == [
        {"current": 0, "longest": 0},
        {"current": 2, "longest": 2},  # 28 Feb, 1 Mar (2026 is no leap year)
        {"current": 2, "longest": 2},  # up to yesterday while today's is to solve
        {"current": 0, "longest": 1},  # 28 Feb's solved on 1 Mar: no day of its own
        {"current": 0, "longest": 3},  # across a new year
    ]
    page.close()
