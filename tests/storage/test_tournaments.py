"""Tournaments in the database (issue 22): a save names its version, one tournament is
open per community, a person is in one entry of a tournament, a round is paired once,
tables are found by their game and room, the judges' log keeps everything in order, and
what is kept as JSON comes back as it went in; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.errors import Conflict, NotFound
from storage.store import Store
from storage.tournaments import AlreadyEntered, TournamentRow, forget_in_entries, without_nul
from tests.storage.conftest import NOW

SETTINGS = {"preset": "tournament_pr", "target": 200, "minutes": 40, "rounds": 3}


@pytest.fixture
async def place(store: Store) -> tuple[int, int]:
    """A community and the tournament's room in it."""
    community = await store.people.community("console", "local", NOW, "Casa")
    room = await store.people.room(community.id, "torneo", NOW)
    return community.id, room.id


async def users(store: Store, *names: str) -> list[int]:
    return [(await store.people.user("console", n, n, NOW)).id for n in names]


async def new(store: Store, place: tuple[int, int], name: str = "Copa") -> TournamentRow:
    (organiser,) = await users(store, "org")
    return await store.tournaments.create(*place, name, SETTINGS, organiser, NOW)


def pair(a: str, ua: int | None, b: str, ub: int | None) -> list[dict[str, Any]]:
    return [{"name": a, "user": ua}, {"name": b, "user": ub}]


async def test_a_tournament_is_created_loaded_and_saved_at_its_version(
    store: Store, place: tuple[int, int]
) -> None:
    repo = store.tournaments
    made = await new(store, place)
    assert (made.status, made.round, made.version, made.judges) == ("registration", 0, 1, ())
    assert made.clock == {"started_at": None, "ends_at": None, "paused_at": None}
    assert made.settings == SETTINGS and made.room_id == place[1]
    assert await repo.load(made.id) == made

    judge, other = await users(store, "judge", "other")
    clock = {"started_at": 1_800_000_000.5, "ends_at": 1_800_002_400.5, "paused_at": None}
    saved = await repo.save(
        replace(made, status="running", round=1, clock=clock, judges=(judge,)), made.version
    )
    assert (saved.status, saved.round, saved.clock, saved.judges) == ("running", 1, clock, (judge,))
    assert saved.version == 2
    assert await repo.load(made.id) == saved

    # a save from the row read before (version 1) lost the race: nothing written
    with pytest.raises(Conflict):
        await repo.save(made, judges=(other,))
    with pytest.raises(Conflict):
        await repo.save(saved, expected_version=1, round=2)
    assert await repo.load(made.id) == saved

    # changes named as keywords, the version taken from the row
    finished = await repo.save(saved, status="finished", finished_at=NOW + timedelta(hours=3))
    assert (finished.version, finished.finished_at) == (3, NOW + timedelta(hours=3))
    assert not finished.open
    with pytest.raises(NotFound):
        await repo.load(made.id + 100)
    with pytest.raises(NotFound):
        await repo.save(replace(finished, id=made.id + 100))
    with pytest.raises(ValueError):
        await repo.save(finished, status="paused")
    with pytest.raises(TypeError):
        await repo.save(finished, organiser=judge)


async def test_a_zone_aware_time_is_kept_as_utc(store: Store, place: tuple[int, int]) -> None:
    made = await new(store, place)
    aware = datetime(2026, 11, 22, 8, 0, tzinfo=UTC) + timedelta(hours=1)
    saved = await store.tournaments.save(made, status="finished", finished_at=aware)
    assert saved.finished_at == datetime(2026, 11, 22, 9, 0)


async def test_a_community_has_one_open_tournament(store: Store, place: tuple[int, int]) -> None:
    repo = store.tournaments
    community, room = place
    assert await repo.active_in_community(community) is None
    assert await repo.by_room(room) is None
    first = await new(store, place)
    assert await repo.active_in_community(community) == first
    assert await repo.by_room(room) == first
    with pytest.raises(Conflict):
        await new(store, place, "Otra")
    for status in ("checkin", "running"):
        first = await repo.save(first, status=status)
        assert await repo.active_in_community(community) == first
    await repo.save(first, status="cancelled")
    assert await repo.active_in_community(community) is None
    second = await new(store, place, "Copa II")  # the same room, a later tournament
    assert await repo.active_in_community(community) == second
    assert await repo.by_room(room) == second
    elsewhere = await store.people.community("console", "other", NOW, "Club")
    other_room = await store.people.room(elsewhere.id, "sala", NOW)
    third = await repo.create(elsewhere.id, other_room.id, "Abierto", {}, None, NOW)
    assert await repo.active_in_community(elsewhere.id) == third


async def test_entries_are_kept_in_order_and_changed(store: Store, place: tuple[int, int]) -> None:
    repo = store.tournaments
    t = await new(store, place)
    ana, beto, carla, dani = await users(store, "ana", "beto", "carla", "dani")
    first = await repo.add_entry(t.id, "Los Primos", pair("Ana", ana, "Beto", beto), NOW)
    later = NOW + timedelta(minutes=1)
    second = await repo.add_entry(
        t.id, "Carla y compu", [{"name": "Carla", "user": carla}, {"name": "CPU", "bot": "hard"}],
        later, late=True,
    )  # fmt: skip
    assert first.members == [
        {"name": "Ana", "user": ana, "bot": None},
        {"name": "Beto", "user": beto, "bot": None},
    ]
    assert (first.status, first.late, first.users) == ("registered", False, [ana, beto])
    assert second.members[1] == {"name": "CPU", "user": None, "bot": "hard"}
    assert (second.late, second.created_at) == (True, later)
    assert await repo.entries(t.id) == [first, second]

    checked = await repo.set_entry(t.id, first.id, status="checked_in")
    assert checked == replace(first, status="checked_in")
    renamed = await repo.set_entry(
        t.id, second.id, name="Carla y Dani", members=pair("Carla", carla, "Dani", dani)
    )
    assert renamed.name == "Carla y Dani" and renamed.users == [carla, dani]
    assert await repo.entries(t.id) == [checked, renamed]
    with pytest.raises(NotFound):
        await repo.set_entry(t.id, second.id + 100, status="dropped")
    with pytest.raises(ValueError):
        await repo.set_entry(t.id, first.id, status="gone")

    await repo.remove_entry(t.id, second.id)
    assert await repo.entries(t.id) == [checked]
    with pytest.raises(NotFound):
        await repo.remove_entry(t.id, second.id)


async def test_an_invited_partner_holds_no_place_until_they_accept(
    store: Store, place: tuple[int, int]
) -> None:
    """A member ``pending`` (named as a partner, not yet accepting) blocks nobody: two
    pairs may ask the same person, who may register elsewhere; once they accept (the
    pending mark taken away) they are in one entry only, as any member."""
    repo = store.tournaments
    t = await new(store, place)
    ana, beto, carla, troll = await users(store, "ana", "beto", "carla", "troll")

    def asked(a: str, ua: int, b: str, ub: int) -> list[dict[str, Any]]:
        return [{"name": a, "user": ua}, {"name": b, "user": ub, "pending": True}]

    primas = await repo.add_entry(t.id, "Las Primas", asked("Ana", ana, "Beto", beto), NOW)
    trolls = await repo.add_entry(t.id, "Trolls", asked("Troll", troll, "Beto", beto), NOW)
    assert [m.get("pending") for m in primas.members] == [None, True]
    with pytest.raises(AlreadyEntered):  # the inviter is in their pair, though
        await repo.add_entry(t.id, "Otra", asked("Ana", ana, "Carla", carla), NOW)
    await repo.remove_entry(t.id, trolls.id)
    await repo.set_entry(t.id, primas.id, members=pair("Ana", ana, "Beto", beto))
    with pytest.raises(AlreadyEntered):  # accepted: in one pair only
        await repo.add_entry(t.id, "Trolls", asked("Troll", troll, "Beto", beto), NOW)


async def test_a_person_is_in_one_entry_of_a_tournament(
    store: Store, place: tuple[int, int]
) -> None:
    repo = store.tournaments
    t = await new(store, place)
    ana, beto, carla, dani = await users(store, "ana", "beto", "carla", "dani")
    team = await repo.add_entry(t.id, "Los Primos", pair("Ana", ana, "Beto", beto), NOW)
    with pytest.raises(AlreadyEntered) as refused:
        await repo.add_entry(t.id, "Otra", pair("Carla", carla, "Beto", beto), NOW)
    assert (refused.value.user, refused.value.entry_id) == (beto, team.id)
    assert "Los Primos" in str(refused.value)
    with pytest.raises(AlreadyEntered):  # twice in the same entry
        await repo.add_entry(t.id, "Sola", pair("Carla", carla, "Carla", carla), NOW)
    other = await repo.add_entry(t.id, "Otra", pair("Carla", carla, "Dani", dani), NOW)
    with pytest.raises(AlreadyEntered):  # moved into another entry by a change
        await repo.set_entry(t.id, other.id, members=pair("Carla", carla, "Ana", ana))
    # the same people again in their own entry, and computers in several: allowed
    await repo.set_entry(t.id, team.id, members=pair("Beto", beto, "Ana", ana))
    await repo.add_entry(t.id, "CPU 1", pair("A", None, "B", None), NOW)
    await repo.add_entry(t.id, "CPU 2", pair("A", None, "B", None), NOW)
    assert [e.name for e in await repo.entries(t.id)] == ["Los Primos", "Otra", "CPU 1", "CPU 2"]
    # a later tournament of the community takes them again
    await repo.save(t, status="finished")
    again = await new(store, place, "Copa II")
    await repo.add_entry(again.id, "Los Primos", pair("Ana", ana, "Beto", beto), NOW)
    with pytest.raises(NotFound):
        await repo.add_entry(again.id + 100, "X", pair("Ana", ana, "Beto", beto), NOW)


async def test_a_person_racing_into_two_entries_gets_one(
    database: str, store: Store, place: tuple[int, int]
) -> None:
    """Two processes registering the same person at once: one entry has them."""
    t = await new(store, place)
    people = await users(store, *(f"p{i}" for i in range(21)))
    shared = people[0]
    other = await Store.open(database)
    try:
        for i in range(10):
            one = pair("S", shared, "X", people[1 + i])
            two = pair("S", shared, "Y", people[11 + i])
            results = await asyncio.gather(
                store.tournaments.add_entry(t.id, f"a{i}", one, NOW),
                other.tournaments.add_entry(t.id, f"b{i}", two, NOW),
                return_exceptions=True,
            )
            assert sum(isinstance(r, AlreadyEntered) for r in results) == len(results) - (i == 0)
            assert all(not isinstance(r, BaseException) or isinstance(r, AlreadyEntered)
                       for r in results)  # fmt: skip
    finally:
        await other.close()
    entered = [e for e in await store.tournaments.entries(t.id) if shared in e.users]
    assert len(entered) == 1


def tables_of_round(first_room: int | None = None) -> list[dict[str, Any]]:
    return [
        {"number": 1, "sides": [[1], [2]]},
        {"number": 2, "sides": [[3], [4]], "status": "playing", "room_id": first_room},
        {"number": 3, "sides": [(5, 6), (7, 8)], "hands": 2, "score_a": 10, "score_b": 4},
    ]


async def test_tables_are_kept_and_changed(store: Store, place: tuple[int, int]) -> None:
    repo = store.tournaments
    t = await new(store, place)
    table_room = (await store.people.room(place[0], "mesa-2", NOW)).id
    put = await repo.put_tables(t.id, 1, tables_of_round(table_room), now=NOW)
    assert [(x.round, x.number, x.sides) for x in put] == [
        (1, 1, ((1,), (2,))),
        (1, 2, ((3,), (4,))),
        (1, 3, ((5, 6), (7, 8))),
    ]
    one, two, three = put
    assert (one.status, one.score, one.winner, one.ended_by, one.hands) == (
        "waiting", (0, 0), None, None, 0,
    )  # fmt: skip
    assert (two.status, two.room_id, two.game_id) == ("playing", table_room, None)
    assert (three.score, three.hands, three.updated_at) == ((10, 4), 2, NOW)
    with pytest.raises(Conflict):  # a round is paired once
        await repo.put_tables(t.id, 1, [{"number": 9, "sides": [[1], [3]]}])
    assert await repo.tables(t.id, 1) == put

    later = NOW + timedelta(minutes=40)
    done = await repo.set_table(
        t.id, 1, 3, now=later, status="done", score_a=200, score_b=96, winner=0,
        ended_by="clock", hands=9,
    )  # fmt: skip
    assert done == replace(
        three, status="done", score_a=200, score_b=96, winner=0, ended_by="clock", hands=9,
        updated_at=later,
    )  # fmt: skip
    await repo.put_tables(t.id, 2, [{"number": 1, "sides": [[2], [1]]}])
    assert [(x.round, x.number) for x in await repo.tables(t.id)] == [
        (1, 1), (1, 2), (1, 3), (2, 1),
    ]  # fmt: skip
    assert await repo.tables(t.id, 1) == [one, two, done]
    with pytest.raises(NotFound):
        await repo.set_table(t.id, 1, 7, status="done")
    with pytest.raises(TypeError):
        await repo.set_table(t.id, 1, 1, score=(1, 2))
    with pytest.raises(ValueError):
        await repo.set_table(t.id, 1, 1, status="lost")
    with pytest.raises(ValueError):
        await repo.put_tables(t.id, 3, [{"number": 1, "sides": [[1], [2], [3]]}])
    with pytest.raises(ValueError):
        await repo.put_tables(t.id, 0, [])


async def test_a_table_is_found_by_its_game_and_its_room(
    store: Store, place: tuple[int, int]
) -> None:
    repo = store.tournaments
    t = await new(store, place)
    table_room = (await store.people.room(place[0], "mesa-1", NOW)).id
    game = await store.games.create(table_room, "tournament_pr", [], {}, NOW)
    assert await repo.table_of_game(game.id) is None
    assert await repo.table_of_room(table_room) is None
    await repo.put_tables(t.id, 1, tables_of_round())
    playing = await repo.set_table(
        t.id, 1, 1, status="playing", room_id=table_room, game_id=game.id
    )
    assert await repo.table_of_game(game.id) == (t, playing)
    assert await repo.table_of_room(table_room) == (t, playing)
    # the next round plays in the same room: the room's table is the latest
    await repo.put_tables(t.id, 2, [{"number": 2, "sides": [[1], [3]], "room_id": table_room}])
    found = await repo.table_of_room(table_room)
    assert found is not None and (found[1].round, found[1].number) == (2, 2)
    assert await repo.table_of_game(game.id) == (t, playing)
    assert await repo.table_of_game(game.id + 100) is None


async def test_byes_are_kept_once_a_round(store: Store, place: tuple[int, int]) -> None:
    repo = store.tournaments
    t = await new(store, place)
    ids = [
        (await repo.add_entry(t.id, f"e{i}", pair("A", None, "B", None), NOW)).id for i in range(4)
    ]
    assert await repo.byes(t.id) == []
    await repo.add_byes(t.id, 2, [ids[3]])
    await repo.add_byes(t.id, 1, [ids[2], ids[0]])
    await repo.add_byes(t.id, 1, [])
    assert [(b.round, b.entry_id) for b in await repo.byes(t.id)] == [
        (1, ids[0]), (1, ids[2]), (2, ids[3]),
    ]  # fmt: skip
    with pytest.raises(Conflict):
        await repo.add_byes(t.id, 1, [ids[1], ids[2]])
    assert len(await repo.byes(t.id)) == 3  # nothing of the refused call written
    with pytest.raises(Conflict):  # an entry that had a bye stays (drop it instead)
        await repo.remove_entry(t.id, ids[3])


async def test_an_entry_that_has_played_is_not_removed(
    store: Store, place: tuple[int, int]
) -> None:
    repo = store.tournaments
    t = await new(store, place)
    a, b, c = [
        (await repo.add_entry(t.id, f"e{i}", pair("A", None, "B", None), NOW)).id for i in range(3)
    ]
    await repo.put_tables(t.id, 1, [{"number": 1, "sides": [[a], [b]]}])
    for played in (a, b):
        with pytest.raises(Conflict):
            await repo.remove_entry(t.id, played)
    await repo.remove_entry(t.id, c)
    assert [e.id for e in await repo.entries(t.id)] == [a, b]


async def test_a_round_racing_to_be_paired_twice_is_paired_once(
    database: str, store: Store, place: tuple[int, int]
) -> None:
    t = await new(store, place)
    other = await Store.open(database)
    try:
        for number in range(1, 6):
            results = await asyncio.gather(
                store.tournaments.put_tables(t.id, number, [{"number": 1, "sides": [[1], [2]]}]),
                other.tournaments.put_tables(t.id, number, [{"number": 1, "sides": [[2], [1]]}]),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["Conflict", "list"]
    finally:
        await other.close()
    assert len(await store.tournaments.tables(t.id)) == 5


async def test_the_log_keeps_everything_in_order(store: Store, place: tuple[int, int]) -> None:
    repo = store.tournaments
    t = await new(store, place)
    (judge,) = await users(store, "judge")
    entry = await repo.add_entry(t.id, "Los Primos", pair("A", None, "B", None), NOW)
    penalty = {"by_user": judge, "round": 1, "table": 2, "entry": entry.id, "points": 20}
    steps: list[tuple[str, dict[str, Any]]] = [
        ("penalty", {**penalty, "reason": "ficha mostrada"}),
        ("pause", {"by_user": judge, "round": 1, "data": {"remaining": 1234.5}}),
        ("extend", {"round": 1, "data": {"minutes": 5}}),
        ("penalty", {"by_user": judge, "round": 1, "entry": entry.id, "points": -20}),
        ("expel", {"entry": entry.id, "reason": "conducta"}),
    ]
    for i, (action, values) in enumerate(steps):
        # the same moment for several: the order is the order they were logged in
        await repo.log(t.id, action, NOW + timedelta(seconds=i // 2), **values)
    logged = await repo.logs(t.id)
    assert [x.action for x in logged] == [a for a, _ in steps]
    first = logged[0]
    assert (first.by_user, first.round, first.table_number, first.entry_id) == (
        judge, 1, 2, entry.id,
    )  # fmt: skip
    assert (first.points, first.reason, first.data, first.at) == (20, "ficha mostrada", {}, NOW)
    assert logged[1].data == {"remaining": 1234.5} and logged[1].points is None
    assert logged[3].points == -20
    assert logged[4].by_user is None and logged[4].table_number is None
    assert len({x.id for x in logged}) == len(steps)
    # the log outlives an entry taken out during registration
    await repo.remove_entry(t.id, entry.id)
    assert await repo.logs(t.id) == logged
    with pytest.raises(NotFound):
        await repo.log(t.id + 100, "pause", NOW)
    with pytest.raises(ValueError):
        await repo.log(t.id, "", NOW)


# JSON as kept by both databases: nested values, text in any script, floats and big ints
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OBJECTS = st.dictionaries(st.text(max_size=8), JSON, max_size=5)


def examples(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """``count`` values hypothesis draws from ``strategy`` (edge cases first)."""
    drawn: list[Any] = []

    @settings(max_examples=count, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(value: Any) -> None:
        drawn.append(value)

    draw()
    return drawn


async def test_what_is_kept_as_json_comes_back_the_same(
    store: Store, place: tuple[int, int]
) -> None:
    repo = store.tournaments
    values = examples(st.tuples(OBJECTS, OBJECTS, st.text(max_size=30), OBJECTS), 40)
    t = await new(store, place)
    for i, (chosen, clock, name, data) in enumerate(values):
        # kept as typed, but for NUL characters (PostgreSQL keeps none; SQLite the same)
        t = await repo.save(t, settings=chosen, clock=clock, judges=(i, i + 1))
        assert (await repo.load(t.id)).settings == without_nul(chosen)
        assert (await repo.load(t.id)).clock == without_nul(clock)
        assert (await repo.load(t.id)).judges == (i, i + 1)
        member = {"name": name, "user": None, "bot": name or None}
        kept = without_nul(member)
        entry = await repo.add_entry(t.id, f"{i}{name}", [member, member], NOW)
        assert (await repo.entries(t.id))[-1].members == [kept, kept] == entry.members
        logged = await repo.log(t.id, "correct", NOW, reason=name, data=data)
        assert (await repo.logs(t.id))[-1] == logged
        assert (logged.data, logged.reason) == (without_nul(data), without_nul(name))


async def test_a_forgotten_person_is_renamed_in_their_entries(
    store: Store, place: tuple[int, int]
) -> None:
    repo = store.tournaments
    t = await new(store, place)
    ana, beto = await users(store, "ana", "beto")
    team = await repo.add_entry(t.id, "Los Primos", pair("Ana", ana, "Beto", beto), NOW)
    changed = await store.database.run(forget_in_entries, ana, "—")
    assert changed == 1
    (kept,) = await repo.entries(t.id)
    assert kept.members == [{"name": "—", "user": ana, "bot": None}, team.members[1]]


async def test_a_restart_finds_a_tournament_with_a_result_never_told(
    store: Store, place: tuple[int, int]
) -> None:
    """running_on: the tournaments playing a round, and those (finished too) with a
    table done whose result never went out."""
    repo = store.tournaments
    t = await new(store, place)
    assert await repo.running_on("console") == []
    await repo.put_tables(t.id, 1, [{"number": 1, "sides": [[1], [2]]}], now=NOW)
    t = await repo.save(t, status="finished", finished_at=NOW)
    assert await repo.running_on("console") == []  # its table is not done
    await repo.set_table(t.id, 1, 1, status="done", score_a=5, winner=0, ended_by="target")
    assert [r.id for r in await repo.running_on("console")] == [t.id]
    assert await repo.running_on("discord") == []
    told = await repo.set_table(t.id, 1, 1, told=True)
    assert told.told
    assert await repo.running_on("console") == []
