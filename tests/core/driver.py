"""Drive the game service as a room full of people would, with a clock the test moves."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.core.model import Board, Button, Command, Effect, Hand, Person, Place, Say
from bot.core.posts import Posts
from bot.core.service import GameService
from bot.doors.timer_loop import TimerLoop
from storage.store import Store

PLACE = Place("console", "local", "mesa", "Casa", "en")


@dataclass
class Clock:
    now: datetime = datetime(2026, 11, 22, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def seeded(seed: int = 7) -> Callable[[], int]:
    """Deals that repeat from run to run."""
    rng = random.Random(seed)
    return lambda: rng.randrange(1 << 62)


@dataclass
class Room:
    service: GameService
    clock: Clock
    place: Place = PLACE
    log: list[Effect] = field(default_factory=list)

    @staticmethod
    async def open(store: Store, clock: Clock | None = None) -> Room:
        clock = clock or Clock()
        return Room(GameService(store, clock=clock, seeds=seeded()), clock)

    def person(self, name: str, admin: bool = False, locale: str | None = None) -> Person:
        return Person(name.lower(), name, locale, admin)

    async def say(
        self, name: str, text: str, admin: bool = False, locale: str | None = None, **extra
    ) -> list[Effect]:
        """``name`` (whose language is ``locale``) types ``text`` ("/play 6-4 on 6-6")."""
        words = text.lstrip("/").split()
        if words[0] == "number":  # a move's number typed alone: the room's talk, as read
            extra["talk"] = True
        person = self.person(name, admin, locale)
        command = Command(self.place, person, words[0], tuple(words[1:]), **extra)
        effects = await self.service.handle(command)
        self.log += effects
        return effects

    async def press(self, name: str, button: Button) -> list[Effect]:
        """``name`` presses ``button``, as a door sends it (a move's, whole)."""
        words = ["play"] if button.move is not None else button.command.split()
        command = Command(
            self.place,
            self.person(name),
            words[0],
            tuple(words[1:]),
            move_number=button.move_number,
            game_id=button.game_id,
            move=button.move,
        )
        effects = await self.service.handle(command)
        self.log += effects
        return effects

    async def room_id(self) -> int:
        """Storage's id of the room (what the doors' Posts find it by)."""
        return await Posts(self.service.store).room_id(self.place)

    async def tick(self) -> list[Effect]:
        """Fire the timers that are due."""
        delivered: list[Effect] = []

        async def deliver(_place: Place, effects: list[Effect]) -> None:
            delivered.extend(effects)

        await TimerLoop(self.service, deliver).tick()
        self.log += delivered
        return delivered


def private_to(effects: list[Effect], name: str) -> list[Say]:
    return [e for e in effects if isinstance(e, Say) and e.private and e.private.name == name]


def hands_for(effects: list[Effect], name: str) -> list[Hand]:
    return [e for e in effects if isinstance(e, Hand) and e.person.name == name]


def boards(effects: list[Effect]) -> list[Board]:
    return [e for e in effects if isinstance(e, Board)]
