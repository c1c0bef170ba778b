"""Each table's clock runs from its own game's start (issue 31, 3; seed 001: «…o a los 40
minutos de haber comenzado»): a table seated late plays its 40 minutes too; the round
waits for its last table; pause, resume and extend move every table's clock at once, and
a table's turn timers keep working after its clock moved."""

from __future__ import annotations

from datetime import timedelta

from bot.core.service import GameService
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.core.tournament.test_tournament_flow import Club

PAIRS = (("Ana", "Beto"), ("Carla", "Dani"), ("Eva", "Fede"), ("Gabi", "Hugo"))


async def two_tables_of_people(
    store: Store, settings: str = ""
) -> tuple[Club, dict[int, list[str]]]:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(7)), clock, store)
    for pair in PAIRS:
        for name in pair:
            await club.say(name, "/help")
    await club.say(
        "Org", f"/tournament new Copa rounds=2 minutes=40 checkin=off {settings}", admin=True
    )
    for first, second in PAIRS:
        await club.say(first, f"/tournament register {first} y {second} @{second}")
        await club.say(second, "/tournament accept")
    await club.say("Org", "/tournament close", admin=True)
    await club.say("Org", "/tournament start", admin=True)
    event = await club.event()
    seated: dict[int, list[str]] = {}
    for table in event.round_tables():
        entries = [event.entry(e) for side in table.sides for e in side]
        seated[table.number] = [m.name for e in entries for m in e.members]
    return club, seated


async def clock_due(club: Club, number: int) -> float:
    """When table ``number``'s game clock runs out, in minutes from the club's start."""
    table = (await club.event()).table(1, number)
    room = await club.store.people.room_by_id(table.room_id)
    timers = [t for t in await club.store.timers.pending(room.id) if t.kind == "clock"]
    assert len(timers) == 1, timers
    return (timers[0].due_at - START).total_seconds() / 60


START = Clock().now


async def test_a_table_seated_late_plays_its_whole_forty_minutes(store: Store) -> None:
    club, seated = await two_tables_of_people(store)
    for name in seated[1]:
        await club.say(name, "/join", club.tables[(1, 1)])
    club.clock.advance(4 * 60)  # table 2 sits down four minutes later
    for name in seated[2]:
        await club.say(name, "/join", club.tables[(1, 2)])
    assert await clock_due(club, 1) == 40
    assert await clock_due(club, 2) == 44
    # a pause of 10 minutes, and 5 more given during it: both tables move by 15
    await club.say("Org", "/tournament pause", admin=True)
    club.clock.advance(10 * 60)
    await club.say("Org", "/tournament extend 5", admin=True)
    await club.say("Org", "/tournament resume", admin=True)
    assert await clock_due(club, 1) == 55
    assert await clock_due(club, 2) == 59
    # after the clock moved, a table's turn timer still plays for whoever does not move
    event = await club.event()
    before = {t.number: t.game_id for t in event.round_tables()}
    plies = {n: (await store.games.load(g)).plies for n, g in before.items() if g}
    await club.tick(5 * 60)
    for number, game_id in before.items():
        assert game_id is not None
        assert (await store.games.load(game_id)).plies > plies[number], number


async def test_a_table_begun_during_a_pause_starts_its_clock_on_resume(store: Store) -> None:
    club, seated = await two_tables_of_people(store)
    for name in seated[1]:
        await club.say(name, "/join", club.tables[(1, 1)])
    await club.say("Org", "/tournament pause", admin=True)
    club.clock.advance(3 * 60)
    for name in seated[2]:
        await club.say(name, "/join", club.tables[(1, 2)])
    table = (await club.event()).table(1, 2)
    room = await club.store.people.room_by_id(table.room_id)
    assert [t for t in await store.timers.pending(room.id) if t.kind == "clock"] == []
    club.clock.advance(7 * 60)
    await club.say("Org", "/tournament resume", admin=True)
    # table 1 began at 0 and was paused from 0 to 10; table 2 began during the pause
    assert await clock_due(club, 1) == 50
    assert await clock_due(club, 2) == 50
    assert club.clock.now - START == timedelta(minutes=10)
