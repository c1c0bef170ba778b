"""What a hand and a game come to, as values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

HandEndKind = Literal["domino", "blocked", "void"]
GameEndReason = Literal[
    "target", "single_hand", "instant_win", "time", "hands", "tiebreak", "rounds", "limit"
]


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of one hand. ``winner`` and ``points`` are by side (team or seat)."""

    end: HandEndKind
    pips: tuple[int, ...]
    winner: int | None
    points: tuple[int, ...]
    closer: int | None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class CountScore:
    """Divisor games: the last play made the open ends add up to ``count``, a multiple of
    ``divisor``, so its ``seat`` scored ``points`` (count / divisor)."""

    seat: int
    points: int
    count: int
    divisor: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning side (team index in partnership games, else seat)."""

    winner: int
    reason: GameEndReason
    scores: tuple[int, ...]
