"""Nothing lost on a restart (BOT.md, issue 22): a process stopped between writing a
table's result and telling it, or between a table's game ending and its result being
written, tells the result once when it starts again; the round goes on."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from bot.core.model import Command, Effect, Elsewhere, OpenTables, Person, Place, Say, TableTold
from bot.core.posts import Posts
from bot.core.service import GameService
from bot.core.tournament.state import Event, load
from storage.store import Store
from tests.core.driver import Clock, seeded

HALL = Place("console", "club", "hall", "Club", "en")
ORGANISER = Person("org", "Org", "en", admin=True)
RESULT = re.compile(r"^Table (\d+) \(round (\d+)\): ", re.M)


@dataclass
class Club:
    """Four pairs of computers; what the hall was told. While ``stopped``, nothing of the
    results reaches the hall (a process stopped before delivering them)."""

    service: GameService
    clock: Clock
    store: Store
    hall: list[Effect] = field(default_factory=list)
    stopped: bool = False
    tournament: int | None = None

    @property
    def posts(self) -> Posts:
        return Posts(self.store, clock=self.clock)

    async def organise(self, *words: str) -> None:
        command = Command(HALL, ORGANISER, "tournament", words)
        await self.deliver(HALL, await self.service.handle(command))

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, OpenTables):
                # a room per table, noted for the service (what a door's delivery does),
                # whose timers make the tables' games at once
                for table in effect.tables:
                    room = Place("console", "club", f"r{effect.round}t{table.number}", "Club")
                    await self.posts.table_opened(
                        room, effect.tournament_id, effect.round, table.number
                    )
                await self.tick(0)
            elif isinstance(effect, Elsewhere):
                if not self.stopped:
                    await self.deliver(effect.place, list(effect.effects))
            elif place.room == HALL.room:
                self.hall.append(effect)
                if isinstance(effect, TableTold):  # what a door's delivery does
                    await self.posts.table_told(effect)

    async def tick(self, seconds: float = 30) -> None:
        self.clock.advance(seconds)
        async for fired in self.service.fire_due():
            await self.deliver(*fired)

    async def restart(self) -> None:
        """A new process on the same database: what it tells at its start."""
        self.stopped = False
        self.service = GameService(self.store, clock=self.clock, seeds=seeded(5))
        for place, effects in await self.service.resume("console"):
            await self.deliver(place, effects)

    async def event(self) -> Event:
        if self.tournament is None:
            (row,) = await self.store.tournaments.running_on("console")
            self.tournament = row.id
        return await load(self.store, await self.store.tournaments.load(self.tournament))

    def told(self) -> Counter[tuple[int, int]]:
        text = "\n".join(e.text for e in self.hall if isinstance(e, Say))
        return Counter((int(r), int(t)) for t, r in RESULT.findall(text))

    def said(self) -> str:
        return "\n".join(e.text for e in self.hall if isinstance(e, Say))


async def started(store: Store, stopped: bool = False) -> Club:
    """The tournament's first round opened (computers play at once: their tables may be
    done already); while ``stopped``, none of their results reached the hall."""
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(3)), clock, store, stopped=stopped)
    await club.organise("new", "Copa", "rounds=2", "minutes=0", "target=1", "checkin=off")
    for n in range(1, 5):
        await club.organise("register", f"Bots {n}", "computer", "computer")
    await club.organise("close")
    await club.organise("start")
    await club.event()
    return club


async def until(club: Club, done: int) -> Event:
    """Time passes until ``done`` tables of round 1 are done."""
    for _ in range(400):
        event = await club.event()
        if sum(t.status == "done" for t in event.round_tables(1)) >= done:
            return event
        await club.tick()
    raise AssertionError("the tables never finished")


async def test_results_written_but_never_told_are_told_once_after_a_restart(
    store: Store,
) -> None:
    club = await started(store, stopped=True)
    event = await until(club, 2)
    assert club.told() == Counter()
    await club.restart()
    assert club.told() == {(1, 1): 1, (1, 2): 1}
    said = club.said()
    assert "Round 1 is over" in said and "Round 2 begins in 2 minutes" in said, said
    assert all(t.told for t in (await club.event()).round_tables(1))
    await club.restart()  # a second restart tells nothing again
    assert club.told() == {(1, 1): 1, (1, 2): 1}
    assert said == club.said()
    # and the tournament goes on to its end, each result told once
    for _ in range(400):
        await club.tick()
        if (await club.event()).row.status == "finished":
            break
    assert club.told() == {(1, 1): 1, (1, 2): 1, (2, 1): 1, (2, 2): 1}
    assert "Champions: " in club.said()
    assert event.id == (await club.event()).id


async def test_a_game_over_whose_table_was_never_written_is_written_after_a_restart(
    store: Store,
) -> None:
    """The process stopped after saving a table's last move and before writing the
    table's result: the table would wait for ever (its game is over, no clock runs)."""
    club = await started(store)
    event = await until(club, 2)
    last = max(event.round_tables(1), key=lambda t: t.number)
    # the table as it was before its result was written, the round not yet over
    await store.tournaments.set_table(event.id, 1, last.number, status="playing", told=False)
    await store.timers.cancel(event.row.room_id)
    club.hall.clear()
    await club.restart()
    assert club.told() == {(1, last.number): 1}
    assert "Round 1 is over" in club.said()
    table = (await club.event()).table(1, last.number)
    assert table.status == "done" and table.told and table.score == last.score
    for _ in range(20):  # the next round opens at its time
        await club.tick()
    assert (await club.event()).round == 2


async def test_a_cancelled_tournament_tells_nothing_after_a_restart(store: Store) -> None:
    """Results never told of a tournament called off since: a restart says nothing of
    them (no round over, no next round) and notes them, so the next restart does not
    look again."""
    club = await started(store, stopped=True)
    event = await until(club, 2)
    await club.organise("cancel")
    club.hall.clear()
    await club.restart()
    assert club.said() == ""
    assert all(t.told for t in (await load(store, await store.tournaments.load(event.id))).tables)
    assert await store.tournaments.running_on("console") == []
