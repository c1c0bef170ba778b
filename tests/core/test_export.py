"""/export (RECORD.md, issue 18): any member exports a game of their room; of a game in
play only what the room has seen (the hands already finished, whole), of a game over the
whole record, which replays."""

from __future__ import annotations

import json

from bot.core.model import File, Place, Popup
from engine.record import load
from storage.store import Store
from tests.core.driver import Room, boards, hands_for
from tests.core.test_service import play_out


def exported(effects: list) -> dict:
    files = [e for e in effects if isinstance(e, File)]
    assert len(files) == 1 and files[0].private is None, effects
    return json.loads(files[0].data)


def refusal(effects: list) -> str:
    assert [type(e) for e in effects] == [Popup] and effects[0].private, effects
    return effects[0].text


async def test_export_during_a_game_holds_only_finished_hands(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 500")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    for _ in range(400):  # to the second hand
        if any(b.view.hand_number == 2 for b in boards(room.log)):
            break
        latest = boards(room.log)[-1]
        offered = [
            (n, h) for n in ("Ana", "Beto") for h in hands_for(room.log, n)
            if h.buttons and h.move_number == latest.move_number
        ]  # fmt: skip
        if offered:
            name, hand = offered[-1]
            await room.press(name, hand.buttons[0])
        else:
            room.clock.advance(10)
            await room.tick()
    full = await store.games.record(1)
    assert len(full["hands"]) == 2 and load(full).hand is not None
    for who in ("Beto", "Carla"):  # seated or not
        record = exported(await room.say(who, "/export"))
        # the finished hand whole, as at a table; nothing of the deal in play
        assert set(record) == {"format", "rules", "players", "hands"}
        assert record["hands"] == full["hands"][:1]
        assert load(record).hand is None


async def test_export_after_the_game_is_the_whole_record(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 10")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    final = await play_out(room, ["Ana", "Beto"])
    record = exported(await room.say("Carla", "/export"))
    game = load(record)
    assert game.outcome is not None and tuple(game.scores) == final.view.scores
    assert exported(await room.say("Carla", "/export 1")) == record
    assert exported(await room.say("Carla", "/export #1")) == record


async def test_export_refuses_other_rooms_and_unbegun_games(store: Store) -> None:
    room = await Room.open(store)
    assert "no game" in refusal(await room.say("Ana", "/export"))
    await room.say("Ana", "/new draw")
    assert "nothing to export" in refusal(await room.say("Ana", "/export"))
    patio = Room(room.service, room.clock, Place("console", "local", "patio", "Casa", "en"))
    assert "no game 1 in this room" in refusal(await patio.say("Carla", "/export 1"))
    assert "no game 99" in refusal(await patio.say("Carla", "/export 99"))
    assert "not a game number" in refusal(await patio.say("Carla", "/export uno"))
