"""A tournament's plain values (issue 22): who is in, who met whom at which table, what
each table ended with, and what the judges did. Pure data: pairing (pairing.py) and
standings (standings.py) are functions of these; storage (storage/tournaments.py) keeps
them; the service (bot/tournament/service parts) moves them on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Format = Literal["swiss", "round_robin", "rotating"]  # rotating: individual events
Status = Literal["registration", "checkin", "running", "finished", "cancelled"]
EntryStatus = Literal["invited", "registered", "checked_in", "dropped", "expelled"]
TableStatus = Literal["waiting", "playing", "done"]
EndedBy = Literal["target", "clock", "forfeit", "judge"]
FORMATS: tuple[Format, ...] = ("swiss", "round_robin", "rotating")
# The standings' order after games won unless the organiser chooses (standings.TIEBREAKS)
DEFAULT_TIEBREAKS = ("buchholz", "head_to_head", "difference", "points_for")


@dataclass(frozen=True)
class Member:
    """One player of an entry: a person (``user``, storage's user id) or, where the
    organiser allows substitutes or in the simulator, a computer (``bot``: a strength)."""

    name: str
    user: int | None = None
    bot: str | None = None
    pending: bool = False  # named as a partner, not yet accepted


@dataclass(frozen=True)
class Entry:
    """A pair (two members) or, in an individual event, one player (one member)."""

    id: int
    name: str
    members: tuple[Member, ...]
    status: EntryStatus = "registered"
    late: bool = False  # entered by the organiser after registration closed

    @property
    def playing(self) -> bool:
        """Still paired in coming rounds."""
        return self.status in ("registered", "checked_in")


@dataclass(frozen=True)
class Settings:
    """What the organiser chose (``tournament new`` / ``tournament set``)."""

    preset: str = "tournament_pr"
    target: int = 200
    minutes: int = 40  # the round clock; 0: no clock
    rounds: int = 3
    format: Format = "swiss"
    grace_minutes: int = 5  # a seat empty this long after a table opens: a forfeit
    substitutes: bool = False  # computers may sit for absent players
    forfeit_points: int = 200  # a forfeit is won target-0 (documented in docs/bot.md)
    penalty: int = 20  # a judge's default penalty
    checkin: bool = True  # round 1 pairs only checked-in entries
    closes_at: float | None = None  # registration closes then (epoch seconds), or by command
    # the order after games won (standings.TIEBREAKS; docs/tournaments.md)
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS


@dataclass(frozen=True)
class Table:
    """One table of one round. ``sides`` holds the entry ids of each side: one entry a
    side when pairs play (``((a,), (b,))``); two entries a side (the partners of the
    round) in an individual event. ``score``/``winner`` once done (``winner``: 0 or 1, the
    side; None: no winner, e.g. a tie at the clock or a voided table)."""

    round: int
    number: int  # numbered by standing: table 1 holds the leaders
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    status: TableStatus = "waiting"
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    ended_by: EndedBy | None = None
    hands: int = 0
    room_id: int | None = None  # storage's room where it plays
    game_id: int | None = None
    told: bool = False  # its result went out to the tournament's room


@dataclass(frozen=True)
class Bye:
    """An entry that sits a round out; it counts as a game won (docs/bot.md)."""

    round: int
    entry: int


@dataclass(frozen=True)
class Penalty:
    """Points a judge took from (or, negative, gave back to) an entry, with the reason."""

    round: int
    entry: int
    points: int
    reason: str


@dataclass(frozen=True)
class Standing:
    """One line of the standings after the rounds played."""

    entry: int
    played: int  # tables played (byes not counted)
    won: int  # tables won, byes included
    points_for: int
    points_against: int
    penalties: int  # points taken by judges (positive)
    byes: int
    # every tie-break's figure by name (standings.TIEBREAKS), chosen for the order or not
    tiebreaks: dict[str, float] = field(default_factory=dict)

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against - self.penalties
