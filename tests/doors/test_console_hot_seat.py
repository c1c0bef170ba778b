"""A hot seat at the console (issue 33, 1): several people at one screen, each acting in
turn with ``/as``. After every step the screen shows no hand (nor anything private) of a
person other than the one acting now: the one the console is now, with moves to make
or asking for their hand; when the turn passes to another person it says whose turn it
is, and their hand shows when they ask for it (``/hand``)."""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.core import Command, Effect, GameService, Hand, Posts
from bot.doors.console import Console
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.doors.test_console import MOVE

# "Beto's turn: the others look away, and Beto types /as Beto and then /hand."
CALLED = re.compile(r"^(.+?)'s turn: the others look away", re.M)
ONLY = re.compile(r"\[only (.+?) sees this\]")
OVER = "Game over"


class Recording(GameService):
    """The service as the console builds it (``patient``), noting every hand it deals out."""

    def __init__(self, store: Store, clock: Clock) -> None:
        super().__init__(store, clock=clock, seeds=seeded(3), patient=True)
        self.hands: list[Hand] = []

    async def handle(self, command: Command) -> list[Effect]:
        effects = await super().handle(command)
        self.hands += [e for e in effects if isinstance(e, Hand)]
        return effects


@dataclass
class HotSeat:
    console: Console
    service: Recording
    clock: Clock
    out: io.StringIO
    shown: dict[str, int] = field(default_factory=dict)  # person: their hands shown
    called: list[str] = field(default_factory=list)

    async def step(self, line: str | None) -> str:
        """Type ``line`` (None: the clock goes on two minutes and the timers fire), and
        check what the screen showed meanwhile."""
        start, dealt = len(self.out.getvalue()), len(self.service.hands)
        if line is None:
            self.clock.advance(120)
            await self.console.timers.tick()
            await self.console.delivery.idle()
        else:
            await self.console.line(line)
        chunk = self.out.getvalue()[start:]
        me = self.console.screen.name
        assert set(ONLY.findall(chunk)) <= {me}, (line, chunk)
        for hand in self.service.hands[dealt:]:
            tiles = hand.text.splitlines()[0]  # "Your tiles: 6-4 5-5 ..."
            if hand.person.name == me and (hand.buttons or hand.asked):  # theirs to act on
                self.shown[me] = self.shown.get(me, 0) + (tiles in chunk)
            else:  # another's, or theirs while another acts (the deal)
                assert tiles not in chunk, (me, hand.person.name, chunk)
        self.called += CALLED.findall(chunk)
        return chunk


# (preset, how the table is set: each person's /join, then the computers)
TABLES = {
    "partnership": ("/new partnership 50", ["Beto 3"], ["/add_ai hard", "/add_ai easy"]),
    "tournament_pr": ("/new tournament_pr", ["Beto 3"], ["/add_ai hard", "/add_ai easy"]),
    "draw": ("/new draw 30", ["Beto", "Caro"], []),
    "mexican_train": ("/new mexican_train 1", ["Beto", "Caro"], []),
}


@pytest.mark.parametrize("preset", sorted(TABLES))
async def test_the_screen_never_shows_another_persons_hand(tmp_path: Path, preset: str) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        clock = Clock()
        service = Recording(store, clock)
        out = io.StringIO()
        (tmp_path / "pics").mkdir()
        console = Console(service, Posts(store), out, tmp_path / "pics", "Ana", "en")
        seat = HotSeat(console, service, clock, out)
        opening, people, computers = TABLES[preset]
        await seat.step(opening)
        for person in people:
            name, *where = person.split()
            await seat.step(f"/as {name}")
            await seat.step(" ".join(["/join", *where]))
        await seat.step("/as Ana")
        for line in computers:
            await seat.step(line)
        chunk = await seat.step("/begin")
        rng = random.Random(preset)
        for _ in range(150):
            if OVER in chunk:
                break
            called = CALLED.findall(chunk)
            moves = [m.group(1) for m in map(MOVE.search, chunk.splitlines()) if m]
            if called:  # another person's turn: they come to the screen and ask
                await seat.step(f"/as {called[-1]}")
                chunk = await seat.step("/hand")
                assert f"[only {called[-1]} sees this]" in chunk, chunk
            elif moves:
                chunk = await seat.step(rng.choice(moves))
            else:  # between hands, or a choice of who opens: the timers go on
                chunk = await seat.step(None)
        everyone = {"Ana", *(p.split()[0] for p in people)}
        assert set(seat.called) == everyone, seat.called  # the turn went round the screen
        assert all(seat.shown.get(name) for name in everyone), seat.shown
    finally:
        await store.close()
