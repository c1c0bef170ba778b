"""Every command with good input does what BOT.md says."""

from __future__ import annotations

import json

from bot.core.model import File, Hand, Picture, Say
from bot.doors.pictures import picture_png
from storage.store import Store
from tests.core.driver import Room, boards, private_to
from tests.core.test_service import play_out


def texts(effects) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, Say | Picture | File))


async def test_lobby_commands(store: Store) -> None:
    room = await Room.open(store)
    opened = await room.say("Ana", "/new partnership 200")
    assert "partnership" in texts(opened) and opened[0].buttons
    assert "Beto" in texts(await room.say("Beto", "/join 3"))
    assert "Computer" in texts(await room.say("Ana", "/add_ai easy"))
    kicked = await room.say("Ana", "/kick 2")
    assert "Computer" not in texts(kicked)
    left = await room.say("Beto", "/leave")
    assert "Beto" not in texts(left)
    # the creator leaving hands the lobby on; the last one out closes it
    await room.say("Carla", "/join")
    await room.say("Ana", "/leave")
    assert "Carla" in texts(await room.say("Carla", "/add_ai"))
    assert "closed" in texts(await room.say("Carla", "/leave"))
    assert await store.games.active_in(1) is None


async def test_looking_commands_during_a_game(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Ana", "/add_ai")
    await room.say("Ana", "/begin")
    hand = await room.say("Ana", "/hand")
    assert isinstance(hand[0], Hand) and hand[0].view.seat == 0 and hand[0].person.name == "Ana"
    board = await room.say("Beto", "/board")
    assert boards(board) and boards(board)[0].view.seat is None
    # posted anew, and still offering what the board offers (a hand is in play)
    assert boards(board)[0].repost
    assert [b.command for b in boards(board)[0].buttons] == ["hand", "board"]
    assert "Score" in texts(await room.say("Beto", "/score"))
    # mid-hand, the room gets what it has seen: no hand finished yet, so no deal at all
    exported = await room.say("Beto", "/export")
    record = json.loads(next(e for e in exported if isinstance(e, File)).data)
    assert record["format"] == "domino-record/1" and record["players"][0] == "Ana"
    assert record["hands"] == []
    assert "boneyard" in texts(await room.say("Beto", "/rules draw")).lower()
    assert private_to(await room.say("Beto", "/help"), "Beto")
    cancelled = await room.say("Ana", "/cancel")
    assert "cancelled" in texts(cancelled)
    assert await store.games.active_in(1) is None


async def test_settings_by_admins(store: Store) -> None:
    room = await Room.open(store)
    assert "defaults" in texts(await room.say("Ana", "/settings"))
    for name, value, told in [
        ("preset", "all_fives", "New games here are all fives now."),
        ("theme", "dark", "The pictures are drawn in the dark theme now."),
        ("turn_timeout", "60", "Each turn has 60 seconds now."),
        ("numerals", "on", "Tiles show numbers instead of pips now."),
    ]:
        changed = await room.say("Ana", f"/settings {name} {value}", admin=True)
        assert texts(changed) == told, name
    opened = await room.say("Ana", "/new")
    assert "all fives" in texts(opened)
    changed = await room.say("Ana", "/settings language es", admin=True)
    assert texts(changed) == "Esta sala habla español ahora."


async def test_leaderboard_stats_and_forget(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 10")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    await play_out(room, ["Ana", "Beto"])
    top = await room.say("Carla", "/top")
    picture = next(e for e in top if isinstance(e, Picture))
    png = await picture_png(picture)  # drawn at delivery
    assert png.startswith(b"\x89PNG") and "Ana" in picture.text and "Beto" in picture.text
    assert "Ana" in texts(await room.say("Carla", "/top draw week"))
    stats = texts(await room.say("Ana", "/stats"))
    assert "1 game," in stats and "Rating" in stats
    assert "Beto" in texts(await room.say("Ana", "/stats beto"))
    asked = await room.say("Ana", "/forget")
    assert asked[0].buttons
    await room.press("Ana", asked[0].buttons[0])
    top = await room.say("Carla", "/top")
    text = next(e for e in top if isinstance(e, Picture)).text
    assert "Ana" not in text and "Beto" in text and "(anonymous)" in text


async def test_a_number_after_mexican_train_is_its_rounds(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new mexican_train 2")
    game = await store.games.active_in(1)
    assert game.snapshot["record"]["rules"]["options"] == {"rounds": 2}
    await room.say("Ana", "/cancel")
    await room.say("Ana", "/new draw 150")
    game = await store.games.active_in(1)
    assert game.snapshot["record"]["rules"]["options"] == {"target": 150}


async def test_rules_describe_the_game_on_the_table(store: Store) -> None:
    room = await Room.open(store)
    assert "4 players" in texts(await room.say("Ana", "/rules"))  # the room's default
    await room.say("Ana", "/new draw")
    assert "boneyard" in texts(await room.say("Beto", "/rules")).lower()
    assert "4 players" in texts(await room.say("Beto", "/rules partnership"))


async def test_the_lobby_says_how_many_players_the_game_takes(store: Store) -> None:
    room = await Room.open(store)
    assert "It takes 4 players." in texts(await room.say("Ana", "/new partnership"))
    await room.say("Ana", "/cancel")
    assert "It takes 2 to 4 players." in texts(await room.say("Ana", "/new draw"))
