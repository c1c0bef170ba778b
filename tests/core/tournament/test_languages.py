"""Issue 33, 4: a tournament speaks its room's language everywhere it speaks: the rooms
it opens for its tables, what a table's game tells the tournament's room (the results,
the standings and their picture, the champions), whatever the community's language."""

from __future__ import annotations

from bot.core.model import Command, Effect, Elsewhere, OpenTables, Person, Picture, Place, Say
from bot.core.posts import Posts
from bot.core.service import GameService
from lang import tr
from storage.store import Store
from tests.core.driver import Clock, seeded

# a community first seen in Spanish; its tournament's room then chooses English
HALL = Place("console", "casa", "hall", "Casa", "es")
SPANISH = ("Ronda", "Mesa ", "Clasificación", "Buena suerte", "gana", "Campeones", "ronda")


class Hall:
    def __init__(self, store: Store) -> None:
        self.clock = Clock()
        self.store = store
        self.service = GameService(store, clock=self.clock, seeds=seeded(7))
        self.seen: dict[str, list[Effect]] = {}

    async def say(self, text: str) -> None:
        words = text.lstrip("/").split()
        person = Person("org", "Org", None, admin=True)
        command = Command(HALL, person, words[0], tuple(words[1:]))
        await self.deliver(HALL, await self.service.handle(command))

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        self.seen.setdefault(place.room, []).extend(effects)
        for effect in effects:
            if isinstance(effect, OpenTables):  # the table's rooms, as a door opens them
                posts = Posts(self.store, clock=self.clock)
                for table in effect.tables:
                    room = Place("console", "casa", f"r{effect.round}t{table.number}", "Casa", "es")
                    await posts.table_opened(room, effect.tournament_id, effect.round, table.number)
                await self.tick(0)
            elif isinstance(effect, Elsewhere):
                await self.deliver(effect.place, list(effect.effects))

    async def tick(self, seconds: float) -> None:
        self.clock.advance(seconds)
        async for fired in self.service.fire_due():
            await self.deliver(*fired)

    def texts(self, room: str) -> list[str]:
        return [e.text for e in self.seen.get(room, []) if isinstance(e, Say | Picture)]


async def test_a_tournament_in_an_english_room_of_a_spanish_community(store: Store) -> None:
    hall = Hall(store)
    await hall.say("/settings language en")
    await hall.say("/tournament new Copa rounds=2 checkin=off")
    for team in ("Uno", "Dos", "Tres", "Cuatro"):
        await hall.say(f"/tournament register {team} computer computer")
    await hall.say("/tournament close")
    await hall.say("/tournament start")
    for _ in range(40):  # the rounds' breaks, until the champions
        if any("Champions" in t or "champion" in t.lower() for t in hall.texts("hall")):
            break
        await hall.tick(600)
    said = hall.texts("hall")
    assert any(tr("en", "Standings") in t or "standings" in t.lower() for t in said), said
    tables = [room for room in hall.seen if room != "hall"]
    assert tables, hall.seen.keys()
    for room in ["hall", *tables]:
        for text in hall.texts(room):
            assert not any(word in text for word in SPANISH), (room, text)
    pictures = [e for e in hall.seen["hall"] if isinstance(e, Picture)]
    assert pictures and all(p.lang == "en" for p in pictures)
    for room in tables:
        assert any("Good luck" in t for t in hall.texts(room)), hall.texts(room)
