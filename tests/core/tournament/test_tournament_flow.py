"""A tournament through the service, as a club runs one (issue 22): pairs register, check
in, the round's tables open in rooms of their own, players take their seats, a judge
penalises and awards a forfeit, the organiser pauses and extends the clock, a player who
never comes forfeits, and the standings add up. Computer pairs play the other tables."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.model import Command, Effect, Elsewhere, OpenTables, Person, Picture, Place, Say
from bot.core.posts import Posts
from bot.core.service import GameService
from bot.core.tournament.rounds import current
from bot.core.tournament.state import Event, load
from engine import record as records
from storage.store import Store
from tests.core.driver import Clock, seeded

HALL = Place("console", "club", "hall", "Club", "en")


@dataclass
class Club:
    service: GameService
    clock: Clock
    store: Store
    rooms: dict[str, list[Effect]] = field(default_factory=dict)
    tables: dict[tuple[int, int], Place] = field(default_factory=dict)
    tournament: int | None = None

    async def say(
        self, name: str, text: str, place: Place = HALL, admin: bool = False
    ) -> list[Effect]:
        words = text.lstrip("/").split()
        person = Person(name.lower(), name, "en", admin)
        effects = await self.service.handle(Command(place, person, words[0], tuple(words[1:])))
        await self.deliver(place, effects)
        return effects

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        self.rooms.setdefault(place.room, []).extend(effects)
        for effect in effects:
            if isinstance(effect, OpenTables):
                # a room per table, noted for the service (what a door's delivery does),
                # whose timers make the tables' games at once
                posts = Posts(self.store, clock=self.clock)
                for table in effect.tables:
                    room = Place("console", "club", f"r{effect.round}t{table.number}", "Club", "en")
                    self.tables[(effect.round, table.number)] = room
                    await posts.table_opened(room, effect.tournament_id, effect.round, table.number)
                await self.tick(0)
            elif isinstance(effect, Elsewhere):
                await self.deliver(effect.place, list(effect.effects))

    async def tick(self, seconds: float) -> None:
        self.clock.advance(seconds)
        async for fired in self.service.fire_due():
            await self.deliver(*fired)

    async def event(self) -> Event:
        community = await self.store.people.community(
            "console", "club", self.clock.now, "Club", "en"
        )
        if self.tournament is None:
            row = await self.store.tournaments.active_in_community(community.id)
            assert row is not None
            self.tournament = row.id
        return await load(self.store, await self.store.tournaments.load(self.tournament))

    def said(self, room: str = "hall") -> str:
        return "\n".join(e.text for e in self.rooms.get(room, []) if isinstance(e, Say))

    @staticmethod
    async def started(store: Store, settings: str, bots: tuple[str, ...]) -> Club:
        """A tournament of ``settings`` begun: Ana and Beto's pair Primos (Beto accepted)
        and the organiser's computer pairs ``bots``."""
        clock = Clock()
        club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
        for name in ("Ana", "Beto"):  # known in the group before being named a partner
            await club.say(name, "/help")
        await club.say("Org", f"/tournament new Copa checkin=off {settings}", admin=True)
        await club.say("Ana", "/tournament register Primos @Beto")
        await club.say("Beto", "/tournament accept")
        for name in bots:
            await club.say("Org", f"/tournament register {name} computer computer", admin=True)
        await club.say("Org", "/tournament close", admin=True)
        await club.say("Org", "/tournament start", admin=True)
        return club


async def test_a_club_runs_three_rounds_with_a_penalty_a_forfeit_and_a_no_show(
    store: Store,
) -> None:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(3)), clock, store)
    # people write in the group before they can be named as partners
    for name in ("Ana", "Beto", "Carla", "Dani", "Eva"):
        await club.say(name, "/help")
    await club.say("Org", "/tournament new Copa rounds=3 minutes=40 grace=5", admin=True)
    assert "Copa" in club.said()
    await club.say("Ana", "/tournament register Las Primas @Beto")
    await club.say("Carla", "/tournament register Los Dos @Dani")
    for partner in ("Beto", "Dani"):  # a named partner accepts before the pair counts
        await club.say(partner, "/tournament accept")
    for n in range(1, 7):
        await club.say("Org", f"/tournament register Bots {n} computer computer", admin=True)
    event = await club.event()
    assert len(event.entries) == 8
    # a person already in a pair cannot register again
    refused = await club.say("Beto", "/tournament register Otra @Carla")
    assert any("already" in e.text for e in refused if isinstance(e, Say))
    assert len((await club.event()).entries) == 8
    await club.say("Org", "/tournament close", admin=True)
    for name in ("Ana", "Carla"):
        await club.say(name, "/tournament checkin")
    for n in range(1, 7):
        await club.say("Org", f"/tournament checkin Bots {n}", admin=True)
    await club.say("Org", "/tournament start", admin=True)
    event = await club.event()
    assert event.round == 1 and len(event.round_tables()) == 4
    # Ana and Beto come to their table; Carla and Dani's table: only Carla comes
    ana = next(
        t
        for t in event.round_tables()
        if event.entry_named("Las Primas").id in (t.sides[0] + t.sides[1])
    )
    dos = next(
        t
        for t in event.round_tables()
        if event.entry_named("Los Dos").id in (t.sides[0] + t.sides[1])
    )
    await club.say("Ana", "/join", club.tables[(1, ana.number)])
    await club.say("Beto", "/join", club.tables[(1, ana.number)])
    # someone else cannot take a seat at their table
    refused = await club.say("Eva", "/join", club.tables[(1, ana.number)])
    assert any(isinstance(e, Say) and e.private for e in refused)
    if dos.number != ana.number:
        await club.say("Carla", "/join", club.tables[(1, dos.number)])
    # a judge's penalty goes on a table's sheet once its game is dealt: Las Primas' table
    # still waits for Dani (refused, nothing changes); a table of computers plays
    refused = await club.say("Org", "/tournament penalty Las Primas 20 talking", admin=True)
    assert any("has not begun" in e.text for e in refused if isinstance(e, Say))
    playing = next(t for t in event.round_tables() if t.number not in (ana.number, dos.number))
    bots = event.entry(playing.sides[0][0]).name
    await club.say("Org", f"/tournament penalty {bots} 20 talking during play", admin=True)
    # the organiser pauses and extends the round
    await club.say("Org", "/tournament pause", admin=True)
    await club.say("Org", "/tournament resume", admin=True)
    await club.say("Org", "/tournament extend 5", admin=True)
    # the people play by timers (their turns time out: a computer move is made for them)
    seated: set[tuple[int, int]] = {(1, ana.number), (1, dos.number)}
    for _ in range(2000):
        await club.tick(30)
        for key, room in club.tables.items():  # a new round: the people go to their tables
            if key not in seated:
                seated.add(key)
                for name in ("Ana", "Beto", "Carla", "Dani"):
                    await club.say(name, "/join", room)
        if (await club.event()).row.status == "finished":
            break
    event = await club.event()
    assert event.row.status == "finished", club.said()[-2000:]
    logs = await store.tournaments.logs(event.id)
    assert any(
        g.action == "penalty" and g.points == 20 and "talking" in (g.reason or "") for g in logs
    )
    # Dani never came in round 1: Los Dos forfeited that table
    first = {t.number: t for t in event.round_tables(1)}
    assert first[dos.number].ended_by == "forfeit"
    # the standings add up
    table = current(event)
    assert sum(s.points_for for s in table) == sum(s.points_against for s in table)
    decided = sum(1 for t in event.tables if t.status == "done" and t.winner is not None)
    assert sum(s.won for s in table) == decided + len(event.byes)
    # the penalty went on the sheet of that table's game (seed 001: «se restarán veinte
    # (-20) puntos»), not apart in the standings: the table's score holds it
    assert all(s.penalties == 0 for s in table)
    ruled = event.table(1, playing.number)
    record = await store.games.record(ruled.game_id)
    written = [a for hand in record["hands"] for a in hand.get("adjustments", [])]
    assert [(a["side"], a["points"]) for a in written] == [(0, -20)]
    assert "talking" in written[0]["reason"]
    assert "score sheet" in club.said(club.tables[(1, playing.number)].room)
    assert (
        tuple(records.summary(records.load(record))["scores"]) == ruled.score
    )  # the sheet's sum is the result
    # no two pairs met twice (Swiss, 8 pairs, 3 rounds)
    met = [frozenset((t.sides[0][0], t.sides[1][0])) for t in event.tables]
    assert len(met) == len(set(met))
    # the final standings were posted as text and as a picture
    hall = club.rooms["hall"]
    assert any(isinstance(e, Picture) and e.rows for e in hall)
    assert "Champions" in club.said()
    # the people played their tables of rounds 2 and 3 (no forfeit there)
    ours = {event.entry_named("Las Primas").id, event.entry_named("Los Dos").id}
    later = [t for t in event.tables if t.round > 1 and ours & {*t.sides[0], *t.sides[1]}]
    assert later and all(t.ended_by in ("target", "clock") and t.hands > 0 for t in later)
