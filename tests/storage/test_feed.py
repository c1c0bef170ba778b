"""The change feed (issue 34): every save of a game, every change of a tournament and of a
community's pages is heard, once committed, by every process (on PostgreSQL another
store on the same database stands for another process); a write that fails is never
heard; a listening connection that drops costs one WARNING line and is opened again."""

from __future__ import annotations

import asyncio
import logging

import pytest
from sqlalchemy import text

from storage.errors import Conflict
from storage.feed import LOST, Change, parsed
from storage.store import Store
from tests.storage.conftest import NOW

SEATS = [{"user": None, "bot": "normal"}] * 2
RECORD = {"format": "domino-record/1", "players": ["a", "b"], "hands": []}
SECONDS = 5.0  # a change is heard well within this (the pages promise 2 s)


class Heard:
    """What a store's feed told, in order."""

    def __init__(self, store: Store) -> None:
        self.changes: list[Change] = []
        self.stop = store.database.feed.listen(self.changes.append)
        self.store = store

    async def ready(self) -> None:
        assert await self.store.database.feed.ready(SECONDS)

    async def until(self, change: Change, seconds: float = SECONDS) -> None:
        """Wait until ``change`` is heard (a deadline, never a fixed pause)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while change not in self.changes:
            assert loop.time() < deadline, f"{change} not heard: {self.changes}"
            await asyncio.sleep(0.01)


async def test_a_game_saved_is_heard_once_committed_and_a_lost_save_never(
    store: Store, room: int
) -> None:
    heard = Heard(store)
    await heard.ready()
    game = await store.games.create(room, "draw", SEATS, RECORD, NOW)
    await heard.until(("game", game.id))
    heard.changes.clear()
    with pytest.raises(Conflict):  # rolled back: nothing is said of it
        await store.games.save(game.id, 7, RECORD, [], NOW)
    # a mark to wait for: what was announced before it has been heard by then (on
    # PostgreSQL notifications come in the order of their commits)
    other = await store.games.create(room + 0, "draw", SEATS, RECORD, NOW, status="finished")
    await heard.until(("game", other.id))
    assert ("game", game.id) not in heard.changes
    heard.changes.clear()
    version = await store.games.save(game.id, 1, RECORD, [(0, "0: 6-6")], NOW, status="playing")
    await heard.until(("game", game.id))
    await store.games.save(game.id, version, RECORD, [], NOW, status="finished")
    await store.games.set_aside(game.id, NOW)
    await heard.until(("game", game.id))
    assert all(kind == "game" for kind, _ in heard.changes)
    heard.stop()


async def test_a_tournament_and_its_tables_games_are_heard(store: Store, room: int) -> None:
    community = await store.people.community("console", "local", NOW, "Casa")
    table_room = (await store.people.room(community.id, "mesa 1", NOW)).id
    heard = Heard(store)
    await heard.ready()
    event = await store.tournaments.create(community.id, room, "Copa", {}, None, NOW)
    tournament = ("tournament", event.id)
    await heard.until(tournament)
    entries = []
    for name in ("Ana", "Beto", "Carla"):
        heard.changes.clear()
        entries.append((await store.tournaments.add_entry(event.id, name, [], NOW)).id)
        await heard.until(tournament)
    a, b, c = entries
    steps = [
        lambda: store.tournaments.set_entry(event.id, a, status="checked_in"),
        lambda: store.tournaments.save(event, status="running", round=1),
        lambda: store.tournaments.put_tables(event.id, 1, [{"number": 1, "sides": [[a], [b]]}]),
        lambda: store.tournaments.log(event.id, "pause", NOW),
        lambda: store.tournaments.add_byes(event.id, 1, [c]),
    ]
    for step in steps:
        heard.changes.clear()
        await step()
        await heard.until(tournament)
    game = await store.games.create(table_room, "draw", SEATS, RECORD, NOW)
    heard.changes.clear()
    await store.tournaments.set_table(event.id, 1, 1, game_id=game.id, status="playing")
    await heard.until(tournament)
    heard.changes.clear()
    await store.games.save(game.id, 1, RECORD, [(0, "0: 6-6")], NOW, status="playing")
    await heard.until(("game", game.id))
    await heard.until(tournament)  # a table's move is its tournament's too


async def test_a_community_turning_its_pages_off_or_new_is_heard(store: Store, room: int) -> None:
    community = await store.people.community("console", "local", NOW, "Casa")
    heard = Heard(store)
    await heard.ready()
    for change in (
        lambda: store.web.set_open(community.id, False, NOW),
        lambda: store.web.set_open(community.id, True, NOW),
        lambda: store.web.renew(community.id, NOW),
    ):
        heard.changes.clear()
        await change()
        await heard.until(("community", community.id))


async def test_another_process_hears_a_change(database: str, room: int) -> None:
    if database.startswith("sqlite"):
        pytest.skip("SQLite serves one process: its feed is in memory")
    writer = await Store.open(database)
    listener = await Store.open(database)
    try:
        heard = Heard(listener)
        await heard.ready()
        game = await writer.games.create(room, "draw", SEATS, RECORD, NOW)
        await heard.until(("game", game.id))
    finally:
        await writer.close()
        await listener.close()


async def test_a_dropped_listener_warns_once_and_listens_again(
    database: str, room: int, caplog: pytest.LogCaptureFixture
) -> None:
    if database.startswith("sqlite"):
        pytest.skip("SQLite's feed has no connection to lose")
    caplog.set_level(logging.DEBUG)
    store = await Store.open(database)
    try:
        heard = Heard(store)
        await heard.ready()
        feed = store.database.feed
        pid = getattr(feed, "server_pid", None)
        assert pid is not None
        await store.database.run(
            lambda db: db.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        )
        await heard.until(LOST)
        assert await feed.ready(SECONDS)
        game = await store.games.create(room, "draw", SEATS, RECORD, NOW)
        await heard.until(("game", game.id))
    finally:
        await store.close()
    said = [r for r in caplog.records if r.name == "storage.feed"]
    dropped = [r for r in said if "not listening" in r.getMessage()]
    assert len(dropped) == 1 and dropped[0].levelname == "WARNING"
    assert not any(r.exc_info for r in said) and all(r.levelno < logging.ERROR for r in said)


def test_only_a_change_of_ours_is_understood() -> None:
    assert parsed("game:12") == ("game", 12)
    assert parsed("tournament:3") == ("tournament", 3)
    for payload in ("", "game:", "game:-1", "player:1", "game:1:2", "game:" + "9" * 40):
        assert parsed(payload) is None
