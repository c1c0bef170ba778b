"""Games: versions that refuse a lost race, a move log that matches the snapshot, one
active game per room, finished hands stored once and a save that does not grow with the
game; and across processes: nothing lost, nothing doubled, nothing reported saved and
then missing after a SIGKILL."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from bot.core.model import Command
from bot.core.saving import save
from bot.core.session import Loaded, Session, game_of, open_session
from bot.core.showing import command_for
from engine.game import Game
from engine.players import make_player
from engine.record import export, load
from engine.views import view_of
from storage.database import rows
from storage.errors import Conflict, NotFound, StorageError
from storage.games import StoredHand, hands_stored, snapshot_moves
from storage.schema import hand_results
from storage.store import Store
from tests.core.driver import Room
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
    assert await store.games.plies(game.id) == 2 and await store.games.plies(game.id + 100) is None
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


def hand(n: int) -> dict:
    return {"seed": n, "moves": [f"0: {n}-{n}"]}


async def test_hands_leaving_the_snapshot_are_stored_once_and_complete_the_record(
    store: Store, room: int
) -> None:
    game = await store.games.create(room, "draw", SEATS, {"record": RECORD}, NOW)
    leaving = [StoredHand(0, hand(0), [12, 0], 0), StoredHand(1, hand(1), [0, 0], None)]
    snapshot = {"record": dict(RECORD, hands=[hand(2)]), "checkpoint": {"hands_before": 2}}
    await store.games.save(game.id, 1, snapshot, [], NOW, status="playing", hands=leaving)
    assert (await store.games.record(game.id))["hands"] == [hand(0), hand(1), hand(2)]
    assert await store.games.hands(game.id, before=2) == leaving
    assert await store.games.hands(game.id, before=0) == []
    with pytest.raises(IntegrityError):  # a stored hand is never written again
        await store.games.save(game.id, 2, snapshot, [(2, "x")], NOW, hands=leaving[1:])
    assert (await store.games.load(game.id)).version == 2  # nothing of that save is kept
    assert await store.games.log(game.id) == []
    with pytest.raises(StorageError):  # a snapshot past the hands stored: said, not guessed
        await store.games.hands(game.id, before=3)


async def test_a_snapshot_of_an_older_version_is_the_whole_record(store: Store, room: int) -> None:
    whole = {"record": dict(RECORD, hands=[hand(0), hand(1)]), "meta": {}}
    game = await store.games.create(room, "draw", SEATS, whole, NOW, status="playing")
    assert await store.games.record(game.id) == whole["record"]


# ----- through the service: what a save writes, and what a load replays ---------------


async def two_people(store: Store, target: int) -> tuple[Room, Loaded, Session]:
    """A draw game of Ana and Beto begun through the service, as it holds it."""
    room = await Room.open(store)
    await room.say("Ana", f"/new draw {target}")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    row = await store.games.active_in(1)
    assert row is not None
    desk = room.service.desk
    ana = Command(room.place, room.person("Ana"), "play")
    session = await open_session(ana, desk, room.clock())
    return room, desk.loaded(row), session


def play_moves(game: Game, count: int | None = None) -> None:
    """Computer players' moves: ``count`` of them, or to the end of the hand."""
    while game.hand is not None and (count is None or count > 0):
        seat = game.to_move
        assert seat is not None
        game.apply(
            game.forced_move() or make_player("greedy", game.ply).choose(view_of(game, seat))
        )
        count = None if count is None else count - 1


async def test_a_save_does_not_grow_with_the_hands_played(store: Store) -> None:
    _room, loaded, session = await two_people(store, 100_000)
    game = loaded.game
    assert game is not None
    sizes = {}
    while game.hand_number < 50:
        play_moves(game)
        await save(session, loaded)
        game.start_hand(seed=game.hand_number)
        play_moves(game, 3)
        await save(session, loaded)
        snapshot = (await store.games.load(loaded.row.id)).snapshot
        sizes[game.hand_number] = len(json.dumps(snapshot))
        assert len(snapshot["record"]["hands"]) == 2  # the last finished hand, the one in play
    whole = await store.games.record(loaded.row.id)
    assert sizes[50] < 2 * sizes[2] and 10 * sizes[50] < len(json.dumps(whole))
    # the whole record, the move log and a restarted service all agree with the game
    assert snapshot_moves(whole) == [(m.hand, m.move) for m in await store.games.log(1)]
    replayed = load(whole)
    restarted = game_of(await store.games.load(1))
    for other in (replayed, restarted):
        assert other is not None
        assert (other.scores, other.ply, other.hand_number) == (game.scores, game.ply, 50)
        assert view_of(other) == view_of(game) and view_of(other, 0) == view_of(game, 0)


async def test_a_finished_game_writes_every_hands_result(store: Store) -> None:
    room, _, _ = await two_people(store, 120)
    for _ in range(3_000):
        row = await store.games.load(1)
        if row.status == "finished":
            break
        game = game_of(row)
        assert game is not None
        if game.hand is None:  # both ready: the next hand (issue 33, 10)
            room.clock.advance(10)
            await room.say("Ana", "/next")
            await room.say("Beto", "/next")
            continue
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves()[0]
        words = command_for(move).split()
        person = room.person(("Ana", "Beto")[seat])
        await room.service.handle(
            Command(room.place, person, words[0], tuple(words[1:]), game.ply, 1)
        )
    whole = await store.games.record(1)
    assert row.status == "finished" and hands_stored(row.snapshot) > 0
    results = await store.database.run(
        rows, select(hand_results.c.hand).where(hand_results.c.game_id == 1)
    )
    assert sorted({r.hand for r in results}) == list(range(len(whole["hands"])))
    assert load(whole).outcome is not None


async def test_a_game_saved_whole_by_an_older_version_plays_on(store: Store) -> None:
    room, loaded, _ = await two_people(store, 100_000)
    game = loaded.game
    assert game is not None
    for _ in range(3):
        play_moves(game)
        game.start_hand(seed=game.hand_number)
    play_moves(game, 2)
    older = {
        "record": export(game, ["Ana", "Beto"]),
        "meta": loaded.notes.to_json(),
    }  # no checkpoint
    logged = snapshot_moves(older["record"])[loaded.row.plies :]
    await store.games.save(1, loaded.row.version, older, logged, NOW)
    room.service.desk.games.clear()  # as after an upgrade: read from storage
    seat = game.to_move
    assert seat is not None
    move = game.legal_moves()[0]
    game.apply(move)
    words = command_for(move).split()
    person = room.person(("Ana", "Beto")[seat])
    await room.service.handle(
        Command(room.place, person, words[0], tuple(words[1:]), game.ply - 1, 1)
    )
    row = await store.games.load(1)
    assert hands_stored(row.snapshot) == 2  # the hands before the last finished one left
    whole = await store.games.record(1)
    assert whole["hands"][:3] == older["record"]["hands"][:3]
    assert load(whole).ply == game.ply
    assert snapshot_moves(whole) == [(m.hand, m.move) for m in await store.games.log(1)]
