"""A rating as people read it. The rating library's conservative estimate (mu - 3 sigma)
is 0 for a newcomer and goes below it after early losses ("0.0", "-2.3" on a leaderboard
read as nothing and as debt): shown, it starts at 1,000 and moves 40 points a unit."""

from __future__ import annotations

RATING_START = 1000
RATING_STEP = 40


def shown_rating(conservative: float) -> int:
    """The rating people see (the leaderboard, /stats, the game's end)."""
    return round(RATING_START + RATING_STEP * conservative)
