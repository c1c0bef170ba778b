"""The plain values a picture is drawn from besides a view, defined once: the names and
clocks at a table and the room's look (:class:`Table`), a line of a leaderboard
(:class:`Standing`).

No Pillow here: the game service builds these (it draws nothing; an import-linter
contract keeps Pillow out of it, even through render/), the pictures read them.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.words import word

# The rows a table picture (a leaderboard, a tournament's standings) holds at most, its
# header aside. Telegram keeps a photo at most 2,560 pixels a side and scales a taller
# one down past reading (a picture over 10,000 pixels of width and height it refuses):
# 60 rows of 40 pixels stay within that. Who has more rows to show sends them as a file.
PICTURE_ROWS = 60


@dataclass(frozen=True)
class Table:
    """What a picture needs besides the view: the names at the table and the clocks (the
    engine never reads a clock; the service passes the seconds left), and the room's
    look."""

    names: tuple[str, ...]
    turn_seconds: float | None = None  # left to the player to move
    clock_seconds: float | None = None  # left on the tournament game clock
    lang: str = "es"
    theme: str = "classic"
    numerals: bool = False  # numbers as numerals on every set, not pips
    # what the table waits for, drawn across it: "Team Ana / Carla chooses who opens (20 s)"
    notice: str = ""
    # per seat, a small tag drawn apart from the name: a computer's strength ("difícil")
    tags: tuple[str, ...] = ()
    # per seat, what it did in its last turn besides playing: "pasa", "roba 3", "+15"
    notes: tuple[str, ...] = ()
    scored: str = ""  # what the last play scored by the count: "Ana +3 · cuenta 15"

    def name(self, seat: int) -> str:
        """The name at ``seat``, or "Player 3" for a seat the table does not name."""
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return f"{word('player', self.lang)} {seat + 1}"


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    name: str
    games: int
    wins: int
    rating: float | None = None
    points: int | None = None
