"""One damaged row never locks a room (issue 33, 7): a game whose stored snapshot, seats or
notes cannot be read is set aside (kept, logged once with its id) and the room is free
again, told so in its language; damaged room settings fall back to the defaults, kept
beside them, and the room is told. Every path that loads a game (a command, a timer, a
restart's resume, the hourly settle, /export, the questions of the doors) survives one."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from bot.core.model import Effect, Place, Popup, Reply, Say
from bot.core.service import GameService
from storage.games import SET_ASIDE
from storage.store import Store
from tests.core.driver import PLACE, Clock, Room, seeded
from tests.core.test_service import play_out

Corrupt = Callable[[str], str]  # the stored JSON text -> the damaged text


def _with(change: Callable[[dict[str, Any]], None]) -> Corrupt:
    def corrupt(stored: str) -> str:
        value = json.loads(stored)
        change(value)
        return json.dumps(value)

    return corrupt


def _unplayable(snapshot: dict[str, Any]) -> None:
    """The hand's first move plays a tile nobody holds (it lies in the boneyard)."""
    hand = snapshot["record"]["hands"][-1]
    hand["moves"] = [f"1: {hand['boneyard'][0]}", *hand["moves"][1:]]


# (column of games, how it is damaged, valid JSON: PostgreSQL can hold it too)
GAME_DAMAGE: dict[str, tuple[str, Corrupt, bool]] = {
    "truncated": ("snapshot", lambda s: s[: len(s) // 2], False),
    "not_json": ("snapshot", lambda s: "a snapshot, once", False),
    "null": ("snapshot", lambda s: "null", True),
    "a_list": ("snapshot", lambda s: "[1, 2]", True),
    "record_a_number": ("snapshot", _with(lambda v: v.update(record=5)), True),
    "no_record": ("snapshot", _with(lambda v: v.pop("record")), True),
    "moves_do_not_replay": ("snapshot", _with(_unplayable), True),
    "checkpoint_text": ("snapshot", _with(lambda v: v.update(checkpoint="x")), True),
    "notes_wrong": ("snapshot", _with(lambda v: v["meta"].update(creator="nobody")), True),
    "seats_text": ("seats", lambda s: '"Ana"', True),
    "seats_numbers": ("seats", lambda s: "[1, 2]", True),
    "seats_truncated": ("seats", lambda s: s[:-3], False),
}
SETTINGS_DAMAGE: dict[str, tuple[str, bool]] = {
    "truncated": ('{"language": "en", "the', False),
    "a_list": ("[1, 2]", True),
    "timeout_words": ('{"turn_timeout": "soon"}', True),
    "options_text": ('{"language": 5, "numerals": [], "options": "x"}', True),
}
# every command a room may type at a damaged game, and what each reads
COMMANDS = [
    "/cancel", "/new draw", "/board", "/hand", "/score", "/play 6-6", "/pass", "/draw",
    "/join", "/leave", "/begin", "/add_ai", "/help", "/rules", "/rule", "/export",
    "/top", "/settings", "/next", "/stats", "/kick 2", "/end", "/open",
]  # fmt: skip


async def write_raw(store: Store, table: str, column: str, row_id: int, value: str) -> None:
    """Store ``value`` as the column's text, as a disk or a hand at the database might."""

    def work(db: Any) -> None:
        placed = "CAST(:v AS json)" if db.dialect.name == "postgresql" else ":v"
        statement = text(f"UPDATE {table} SET {column} = {placed} WHERE id = :id")
        db.execute(statement, {"v": value, "id": row_id})

    await store.database.run(work)


async def read_raw(store: Store, table: str, column: str, row_id: int) -> str:
    def work(db: Any) -> str:
        query = text(f"SELECT CAST({column} AS TEXT) FROM {table} WHERE id = :id")
        return str(db.execute(query, {"id": row_id}).scalar())

    return await store.database.run(work)


async def status_of(store: Store, game_id: int) -> str:
    def work(db: Any) -> str:
        return str(
            db.execute(text("SELECT status FROM games WHERE id = :id"), {"id": game_id}).scalar()
        )

    return await store.database.run(work)


async def a_game(store: Store, place_room: str = "mesa", clock: Clock | None = None) -> Room:
    """Ana against a computer at draw, dealt, with a turn timer running."""
    room = await Room.open(store, clock)
    room.place = Place(PLACE.platform, PLACE.community, place_room, "Casa", "en")
    await room.say("Ana", "/new draw")
    await room.say("Ana", "/add_ai easy")
    await room.say("Ana", "/begin")
    return room


async def damage(store: Store, game_id: int, how: str, room: Room) -> None:
    """Damage the stored game, and start the room's service again: a process that holds
    the game in memory plays on from there (its next save writes it whole again)."""
    column, corrupt, _valid = GAME_DAMAGE[how]
    stored = await read_raw(store, "games", column, game_id)
    await write_raw(store, "games", column, game_id, corrupt(stored))
    room.service = GameService(store, clock=room.clock, seeds=seeded())


def went_wrong(effects: list[Effect]) -> list[Effect]:
    """What says "Something went wrong", or that the table is stuck."""
    wrong = ("Something went wrong", "The table is busy")
    return [e for e in effects if isinstance(e, Popup | Say) and e.text.startswith(wrong)]


def told_set_aside(effects: list[Effect], game_id: int) -> bool:
    return any(
        isinstance(e, Say) and not e.private and f"#{game_id}" in e.text and "set aside" in e.text
        for e in effects
    )


def one_line_warnings(caplog: pytest.LogCaptureFixture, word: str) -> list[logging.LogRecord]:
    found = [r for r in caplog.records if word in r.getMessage()]
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in found), found
    assert all("\n" not in r.getMessage() for r in found)
    return found


def _valid_only(request: pytest.FixtureRequest, valid: bool) -> None:
    if not valid and "postgresql" in request.node.callspec.id:
        pytest.skip("PostgreSQL refuses to store what is not JSON")


@pytest.mark.parametrize("how", list(GAME_DAMAGE))
async def test_a_damaged_game_is_set_aside_and_the_room_is_free(
    any_store: Store, how: str, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    _valid_only(request, GAME_DAMAGE[how][2])
    room = await a_game(any_store)
    await damage(any_store, 1, how, room)
    caplog.set_level(logging.WARNING)
    effects = await room.say("Ana", "/cancel")
    assert not went_wrong(effects), effects
    assert told_set_aside(effects, 1), effects
    assert await status_of(any_store, 1) == SET_ASIDE
    assert await any_store.timers.pending(1) == []  # none of its timers fires again
    assert len(one_line_warnings(caplog, "game 1 ")) == 1  # logged once, with its id
    # the room is free: a new game opens and plays; the old one is told of no more
    effects = await room.say("Ana", "/new draw")
    assert not went_wrong(effects) and not told_set_aside(effects, 1)
    assert (await any_store.games.active_in(1)).id == 2
    await room.say("Ana", "/add_ai")
    effects = await room.say("Ana", "/begin")
    assert not went_wrong(effects) and not told_set_aside(effects, 1)
    assert len(one_line_warnings(caplog, "game 1 ")) == 1


@pytest.mark.parametrize("command", COMMANDS)
async def test_every_command_at_a_damaged_game_frees_the_room(store: Store, command: str) -> None:
    room = await a_game(store)
    await damage(store, 1, "truncated", room)
    effects = await room.say("Ana", command, admin=True)
    assert not went_wrong(effects), effects
    # told by the first command that reads the game (/top and /settings do not)
    effects += await room.say("Ana", "/new draw")
    assert not went_wrong(effects) and (await store.games.active_in(1)).id == 2
    assert told_set_aside(effects, 1), effects


async def test_a_damaged_lobby_is_set_aside_too(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await write_raw(store, "games", "snapshot", 1, '{"record": {"rules": 5}, "meta": {}}')
    effects = await room.say("Beto", "/join")
    assert not went_wrong(effects) and told_set_aside(effects, 1)
    assert await status_of(store, 1) == SET_ASIDE


async def test_the_room_is_told_in_its_language(store: Store) -> None:
    room = await a_game(store)
    await room.say("Ana", "/settings language es", admin=True)
    await damage(store, 1, "not_json", room)
    effects = await room.say("Ana", "/board")
    said = [e.text for e in effects if isinstance(e, Say) and not e.private]
    assert any("#1" in t and "aparte" in t for t in said), said


async def test_timers_of_a_damaged_game_fire_once_and_no_more(
    any_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    room = await a_game(any_store)
    await damage(any_store, 1, "record_a_number", room)
    caplog.set_level(logging.WARNING)
    for _ in range(3):
        room.clock.advance(600)  # every turn timer, warning and idle time due
        effects = await room.tick()
        assert not went_wrong(effects), effects
    assert told_set_aside(room.log, 1)
    assert await any_store.timers.pending(1) == []
    assert await any_store.timers.due(room.clock.now) == []
    assert len(one_line_warnings(caplog, "game 1 ")) == 1


async def test_a_restart_resumes_past_a_damaged_game(store: Store) -> None:
    good = await a_game(store, "otra")  # another room's game, in play
    room = await a_game(store)
    await damage(store, 2, "truncated", room)
    fresh = GameService(store, clock=good.clock, seeds=seeded())
    found = await fresh.resume("console")
    by_room = {place.room: effects for place, effects in found}
    assert told_set_aside(by_room["mesa"], 2), found
    assert by_room["otra"] and not went_wrong(by_room["otra"])  # the good game shows again
    assert await status_of(store, 2) == SET_ASIDE
    again = await fresh.resume("console")  # a second restart: told once, and no more
    assert not any(told_set_aside(effects, 2) for _place, effects in again), again


async def test_settling_results_passes_a_damaged_game_by(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")

    def finish(db: Any) -> None:  # a process stopped before the results were written
        db.execute(text("UPDATE games SET status = 'finished' WHERE id = 1"))

    await store.database.run(finish)
    await damage(store, 1, "moves_do_not_replay", room)
    caplog.set_level(logging.WARNING)
    assert await room.service.settle() == 0
    assert await room.service.settle() == 0
    assert await status_of(store, 1) == SET_ASIDE
    assert await store.results.unrecorded() == []
    assert len(one_line_warnings(caplog, "game 1 ")) == 1


async def test_export_and_the_doors_questions_pass_a_damaged_game_by(store: Store) -> None:
    room = await a_game(store)
    await damage(store, 1, "truncated", room)
    service = room.service
    ana = room.person("Ana")
    assert await service.offers(room.place, ana) == ()
    offered = await service.rule_offers(room.place, "option", "tar", {}, "en")
    assert offered is not None
    assert (await service.place_of_game(1, "console")).room == room.place.room
    effects = await room.say("Ana", "/export 1")
    assert not went_wrong(effects) and told_set_aside(effects, 1)
    # asked again: the game is set aside, said so, and nothing else goes wrong
    effects = await room.say("Ana", "/export 1")
    assert not went_wrong(effects)
    assert any(isinstance(e, Popup) and "#1" in e.text for e in effects), effects


async def test_a_damaged_finished_game_is_set_aside_at_export(store: Store) -> None:
    room = await a_game(store)
    await room.say("Ana", "/cancel")
    await damage(store, 1, "no_record", room)
    effects = await room.say("Ana", "/export")
    assert not went_wrong(effects), effects
    assert told_set_aside(effects, 1)


@pytest.mark.parametrize("how", list(SETTINGS_DAMAGE))
async def test_damaged_room_settings_fall_back_to_the_defaults(
    any_store: Store, how: str, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    damaged, valid = SETTINGS_DAMAGE[how]
    _valid_only(request, valid)
    room = await Room.open(any_store)
    await room.say("Ana", "/settings theme dark", admin=True)
    await write_raw(any_store, "rooms", "settings", 1, damaged)
    caplog.set_level(logging.WARNING)
    fresh = Room(GameService(any_store, clock=room.clock, seeds=seeded()), room.clock)
    effects = await fresh.say("Ana", "/new draw")
    assert not went_wrong(effects), effects
    told = [e.text for e in effects if isinstance(e, Say) and not e.private]
    assert any("settings" in t and "default" in t for t in told), told
    assert (await any_store.games.active_in(1)) is not None
    again = await fresh.say("Ana", "/top")  # told once
    assert not went_wrong(again)
    assert not any(isinstance(e, Say) and "default" in e.text for e in again), again
    effects = await fresh.say("Ana", "/settings", admin=True)
    assert not went_wrong(effects)
    # kept for the operator beside the defaults, and a setting changed keeps it still
    await fresh.say("Ana", "/settings theme dark", admin=True)
    kept = json.loads(await read_raw(any_store, "rooms", "settings", 1))
    assert kept["set_aside"] == damaged and kept["theme"] == "dark"
    assert len(one_line_warnings(caplog, "room 1:")) == 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    part=st.sampled_from(["snapshot", "record", "checkpoint", "meta", "seats", "cut"]),
    value=JSON,
    cut=st.integers(min_value=0, max_value=400),
)
async def test_whatever_the_damage_the_room_is_free_again(
    tmp_path: Path, part: str, value: Any, cut: int
) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / f'{uuid4().hex}.sqlite3'}")  # each its own
    try:
        room = await a_game(store)
        stored = json.loads(await read_raw(store, "games", "snapshot", 1))
        if part in ("record", "checkpoint", "meta"):
            stored[part] = value
            await write_raw(store, "games", "snapshot", 1, json.dumps(stored))
        elif part == "cut":
            await write_raw(store, "games", "snapshot", 1, json.dumps(stored)[:cut])
        else:
            await write_raw(store, "games", part, 1, json.dumps(value))
        room.service = GameService(store, clock=room.clock, seeds=seeded())  # a restart
        for command in ("/board", "/cancel", "/new draw", "/add_ai", "/begin", "/board"):
            effects = await room.say("Ana", command)
            assert not went_wrong(effects), (command, effects)
        assert (await store.games.active_in(1)) is not None
    finally:
        await store.close()


async def test_a_damaged_finished_hand_sets_its_game_aside_at_export(store: Store) -> None:
    """A hand stored apart (game_hands) that does not decode: /export sets the game aside
    instead of failing, and the room may export its other games."""
    room = await Room.open(store)
    await room.say("Ana", "/new draw 100")
    await room.say("Ana", "/add_ai")
    await room.say("Ana", "/begin")
    await play_out(room, ["Ana"])

    def stored(db: Any) -> int:
        return int(db.execute(text("SELECT COUNT(*) FROM game_hands WHERE game_id = 1")).scalar())

    assert await store.database.run(stored) >= 1

    def damage_hand(db: Any) -> None:
        db.execute(text("UPDATE game_hands SET record = '{\"deal\": [[' WHERE hand = 0"))

    await store.database.run(damage_hand)
    room.service = GameService(store, clock=room.clock, seeds=seeded())
    effects = await room.say("Ana", "/export")
    assert not went_wrong(effects), effects
    assert told_set_aside(effects, 1), effects
    assert await status_of(store, 1) == SET_ASIDE


@pytest.mark.parametrize("payload", ['{"args": [', "[1, 2]", '{"args": 5}'])
async def test_a_damaged_timer_is_dropped_once_and_stops_no_other(
    any_store: Store, payload: str, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    """Every due timer is read at once: one that cannot be read stopped every room's."""
    _valid_only(request, payload != '{"args": [')
    good = await a_game(any_store, "otra")
    quiet = await Room.open(any_store, good.clock)
    await quiet.say("Ana", "/help")  # a second room, with no game
    timer = await any_store.timers.set(2, "clock", good.clock.now, payload={"args": []})
    await write_raw(any_store, "timers", "payload", timer, payload)
    caplog.set_level(logging.WARNING)
    before = len(good.log)
    for _ in range(2):
        good.clock.advance(600)  # the good game's turn runs out: its timer fires
        await good.tick()
    assert len(good.log) > before  # the other room's timers went on
    assert [t.id for t in await any_store.timers.pending(2)] == []
    assert len(one_line_warnings(caplog, f"timer {timer} ")) == 1


@pytest.mark.parametrize("how", ["truncated", "a_list", "seats_text"])
async def test_forget_me_scrubs_a_damaged_game_instead_of_failing(
    any_store: Store, how: str, request: pytest.FixtureRequest
) -> None:
    _valid_only(request, GAME_DAMAGE[how][2])
    room = await a_game(any_store)
    await room.say("Ana", "/cancel")  # over: its players may be forgotten
    await damage(any_store, 1, how, room)
    stored = await read_raw(any_store, "games", "snapshot", 1)
    effects = await room.say("Ana", "/forget confirm")
    assert not went_wrong(effects), effects
    assert any(isinstance(e, Reply) and "your name is gone" in e.text for e in effects), effects
    after = await read_raw(any_store, "games", "snapshot", 1)
    assert '"Ana"' not in after and '"Ana"' not in await read_raw(any_store, "games", "seats", 1)
    if '"Ana"' not in stored:  # nothing of her in it: kept as it was, for the operator
        assert after == stored
