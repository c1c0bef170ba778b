"""Who sits where in a game, as stored with it (games.seats): a person, a computer
player, or nobody yet (in the lobby). A person whose seat was taken over after repeated
timeouts keeps it: the computer plays for them until they join back."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Seat:
    user: int | None = None  # storage's user id
    pid: str | None = None  # the platform's id for that user
    name: str | None = None
    locale: str | None = None
    bot: str | None = None  # a computer player's strength; with a user: playing for them
    timeouts: int = 0  # turns in a row the clock ran out

    @property
    def empty(self) -> bool:
        return self.user is None and self.bot is None

    @property
    def human(self) -> bool:
        """A person plays this seat now (not away)."""
        return self.user is not None and self.bot is None

    @property
    def away(self) -> bool:
        return self.user is not None and self.bot is not None

    def to_json(self) -> dict:
        values = {name: getattr(self, name) for name in Seat.__dataclass_fields__}
        return {k: v for k, v in values.items() if v not in (None, 0)}

    @staticmethod
    def from_json(data: dict) -> Seat:
        return Seat(**{k: v for k, v in data.items() if k in Seat.__dataclass_fields__})


def seats_from(data: list[dict]) -> list[Seat]:
    return [Seat.from_json(d) for d in data]


def seats_json(seats: list[Seat]) -> list[dict]:
    return [s.to_json() for s in seats]


def seat_of(seats: list[Seat], user: int) -> int | None:
    return next((i for i, s in enumerate(seats) if s.user == user), None)
