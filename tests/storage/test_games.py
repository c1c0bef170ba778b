"""Games: versions that refuse a lost race, a move log that matches the snapshot, one
active game per room; and across processes: nothing lost, nothing doubled, nothing
reported saved and then missing after a SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

import pytest
from sqlalchemy import text

from storage.errors import Conflict, NotFound
from storage.games import snapshot_moves
from storage.store import Store
from tests.storage.conftest import NOW

SEATS = [{"user": None, "bot": "normal"}] * 4
RECORD = {"format": "domino-record/1", "players": ["a", "b", "c", "d"], "hands": []}


async def test_a_save_names_its_version_and_appends_to_the_log(store: Store, room: int) -> None:
    game = await store.games.create(room, "partnership", SEATS, RECORD, NOW)
    assert (game.version, game.plies, game.status) == (1, 0, "lobby")
    snapshot = dict(RECORD, hands=[{"seed": 1, "moves": ["0: 6-6", "1: 6-5 on 6-6"]}])
    version = await store.games.save(
        game.id, 1, snapshot, snapshot_moves(snapshot), NOW, status="playing"
    )
    assert version == 2
    loaded = await store.games.load(game.id)
    assert (loaded.version, loaded.plies, loaded.status) == (2, 2, "playing")
    assert loaded.snapshot == snapshot
    log = await store.games.log(game.id)
    assert [(m.ply, m.hand, m.move) for m in log] == [(0, 0, "0: 6-6"), (1, 0, "1: 6-5 on 6-6")]
    with pytest.raises(Conflict):
        await store.games.save(game.id, 1, RECORD, [(0, "x")], NOW)
    assert len(await store.games.log(game.id)) == 2  # the lost save wrote nothing
    with pytest.raises(NotFound):
        await store.games.load(game.id + 100)


async def test_a_room_holds_one_active_game(store: Store, room: int) -> None:
    game = await store.games.create(room, "draw", SEATS, RECORD, NOW)
    with pytest.raises(Conflict):
        await store.games.create(room, "draw", SEATS, RECORD, NOW)
    assert (await store.games.active_in(room)).id == game.id
    await store.games.save(game.id, 1, RECORD, [], NOW, status="finished")
    assert await store.games.active_in(room) is None
    finished = await store.games.load(game.id)
    assert finished.finished_at == NOW
    again = await store.games.create(room, "draw", SEATS, RECORD, NOW)
    assert again.id != game.id


async def test_a_communitys_active_rooms(store: Store) -> None:
    community = await store.people.community("discord", "g1", NOW)
    other = await store.people.community("discord", "g2", NOW)
    found = {}
    for name, where in (("a", community), ("b", community), ("c", community), ("d", other)):
        found[name] = (await store.people.room(where.id, name, NOW)).id
    playing = await store.games.create(found["a"], "draw", SEATS, RECORD, NOW)
    await store.games.save(playing.id, 1, RECORD, [], NOW, status="playing")
    await store.games.create(found["b"], "draw", SEATS, RECORD, NOW)  # a lobby
    done = await store.games.create(found["c"], "draw", SEATS, RECORD, NOW)
    await store.games.save(done.id, 1, RECORD, [], NOW, status="finished")
    await store.games.create(found["d"], "draw", SEATS, RECORD, NOW)
    assert sorted(await store.games.active_rooms("discord", "g1")) == ["a", "b"]
    assert await store.games.active_rooms("telegram", "g1") == []


async def test_two_writers_on_one_version_one_wins(database: str, room: int) -> None:
    """Many rounds of two connections saving the same version at once."""
    first, second = await Store.open(database), await Store.open(database)
    try:
        game = await first.games.create(room, "draw", SEATS, RECORD, NOW)
        version = game.version
        for k in range(25):
            outcomes = await asyncio.gather(
                attempt(first, game.id, version, f"a{k}"),
                attempt(second, game.id, version, f"b{k}"),
            )
            assert sorted(outcomes) == ["lost", "won"], outcomes
            version += 1
        log = await first.games.log(game.id)
        assert [m.ply for m in log] == list(range(25))
        assert (await first.games.load(game.id)).version == 26
    finally:
        await first.close()
        await second.close()


async def attempt(store: Store, game_id: int, version: int, move: str) -> str:
    try:
        await store.games.save(game_id, version, RECORD, [(0, move)], NOW)
        return "won"
    except Conflict:
        return "lost"


def writer(url: str, game: int, name: str, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.writer", url, str(game), name, str(count)],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=os.getcwd()),
    )


async def test_two_processes_lose_and_double_nothing(
    database: str, store: Store, room: int
) -> None:
    game = await store.games.create(room, "draw", SEATS, RECORD, NOW)
    processes = [writer(database, game.id, name, 30) for name in ("a", "b")]
    outputs = [p.communicate(timeout=120)[0] for p in processes]
    assert [p.returncode for p in processes] == [0, 0]
    reported = [line.split()[2] for out in outputs for line in out.splitlines()]
    log = await store.games.log(game.id)
    assert [m.ply for m in log] == list(range(60))
    assert sorted(m.move for m in log) == sorted(reported)
    loaded = await store.games.load(game.id)
    assert loaded.snapshot["hands"][0]["moves"] == [m.move for m in log]
    assert loaded.version == 61


async def test_a_killed_writer_loses_nothing_it_reported(
    database: str, store: Store, room: int
) -> None:
    game = await store.games.create(room, "draw", SEATS, RECORD, NOW)
    process = writer(database, game.id, "k", 100_000)
    reported: list[str] = []
    assert process.stdout is not None
    for line in process.stdout:
        reported.append(line.split()[2])
        if len(reported) >= 40:
            break
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    for line in process.stdout:  # a line already written before the kill still counts
        reported.append(line.split()[2])
    reopened = await Store.open(database)
    try:
        log = [m.move for m in await reopened.games.log(game.id)]
        assert log[: len(reported)] == reported  # every reported save is there, in order
        loaded = await reopened.games.load(game.id)
        assert loaded.snapshot["hands"][0]["moves"] == log  # snapshot and log agree
        if reopened.database.dialect == "sqlite":
            check = await reopened.database.run(
                lambda db: db.execute(text("PRAGMA integrity_check")).scalar()
            )
            assert check == "ok"
    finally:
        await reopened.close()
