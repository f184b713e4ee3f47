"""The daily puzzles: each day one grid of each kind, the same for everyone, made by the
generator from the date's seed (2026-11-27 → 20261127), so that ``chessplace generate
queens-game -n 8 --seed 20261127`` makes that day's Queens game too. The page plays
today's and those of past days; the server keeps the answers it made, so that a day's
grid is made once."""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date, timedelta

from chessplace.faces.web.requests import GenerateRequest


@dataclass(frozen=True)
class Daily:
    """One kind of daily puzzle: its size (and stars per line)."""

    puzzle: str
    n: int
    stars: int | None = None


DAILIES = {daily.puzzle: daily for daily in (Daily("queens-game", 8), Daily("star-battle", 10, 2))}
"""The dailies offered: an 8×8 Queens game (0.1 s of CPU to make, median of 60 days)
and a 10×10 Star Battle with two stars per line (2 s, 12 s at worst), as
``benchmarks/daily.py`` measures them."""

KEPT = 512
"""How many daily answers the server keeps (a year and more of both kinds)."""


def seed_of(day: date) -> int:
    """The generator's seed for ``day``: its digits (2026-11-27 → 20261127)."""
    return int(day.strftime("%Y%m%d"))


def daily_request(puzzle: str, day: str, today: date) -> GenerateRequest:
    """What to generate for the daily ``puzzle`` of ``day`` (YYYY-MM-DD); ``ValueError``
    in one line for an unknown puzzle, a malformed date or a day after tomorrow (the
    page's today may be a day ahead of the server's)."""
    daily = DAILIES.get(puzzle)
    if daily is None:
        raise ValueError(f"no daily {puzzle[:64]!r}: the dailies are {', '.join(DAILIES)}")
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", day):
        raise ValueError(f"the day is written YYYY-MM-DD, not {day[:64]!r}")
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise ValueError(f"{day} is not a day of the calendar") from None
    last = today + timedelta(days=1)
    if when > last:
        raise ValueError(f"the daily of {day} is not out yet (the last one is {last})")
    seed = seed_of(when)
    return GenerateRequest(
        puzzle=daily.puzzle,
        n=daily.n,
        stars=daily.stars,
        seed=seed,
        difficulty=None,
        time_limit=None,
    )


class Made:
    """The daily answers made so far, the least recently asked dropped past ``most``."""

    def __init__(self, most: int = KEPT) -> None:
        self.most = most
        self.answers: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def get(self, request: GenerateRequest) -> bytes | None:
        key = (request.puzzle, request.seed or 0)
        if key in self.answers:
            self.answers.move_to_end(key)
        return self.answers.get(key)

    def keep(self, request: GenerateRequest, answer: bytes) -> None:
        self.answers[(request.puzzle, request.seed or 0)] = answer
        while len(self.answers) > self.most:
            self.answers.popitem(last=False)
