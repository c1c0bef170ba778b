"""The web pages' data (issue 34): the room's audience and no more. The JSON of a game
never holds a tile of a hand in play nor the boneyard's, at any moment of random games
of every preset; keys are long and random, serve their own community's things only, and
``settings web off|on|new`` close, open and renew them."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.model import Board, Hand, Place
from bot.core.service import GameService
from bot.core.session import game_of
from engine.presets import preset_names
from engine.tiles import Tile
from storage.store import Store
from storage.web import KEY_BYTES, well_formed
from tests.core.driver import Clock, Room, seeded

TILE = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")
PEOPLE = ("Ana", "Beto")


def tiles_named(data: Any) -> set[frozenset[int]]:
    """Every tile written anywhere in ``data``'s strings, as an unordered pair."""
    text = json.dumps(data)
    return {frozenset((int(a), int(b))) for a, b in TILE.findall(text)}


def pair(tile: Tile) -> frozenset[int]:
    return frozenset((tile.hi, tile.lo))


async def open_game(room: Room, preset: str, humans: int = 2) -> None:
    await room.say("Ana", f"/new {preset}")
    for name in PEOPLE[1:humans]:
        await room.say(name, "/join")
    await room.say("Ana", "/begin fill")


async def step(room: Room, rng: random.Random) -> bool:
    """One press by a person: a legal move from their latest hand, or the next hand;
    False when there is nothing left to press (the game over)."""
    hands = [e for e in room.log if isinstance(e, Hand) and e.buttons]
    boards = [e for e in room.log if isinstance(e, Board)]
    room.log.clear()
    if hands:
        hand = hands[-1]
        return bool(await room.press(hand.person.name, rng.choice(hand.buttons))) or True
    nexts = [b for board in boards[-1:] for b in board.buttons if b.command == "next"]
    if nexts:
        await room.press("Ana", nexts[0])
        return True
    return False


async def check_hidden(room: Room, store: Store, key: str) -> dict[str, Any]:
    """The game's JSON now, checked: no tile of a hand in play or of the boneyard
    anywhere but in the replays of hands already over, and those are over."""
    page = await room.service.pages.game(key)
    assert page is not None
    row = await store.games.load(1)
    game = game_of(row)
    assert game is not None
    hand = game.hand
    if hand is not None:  # a hand in play: its unplayed tiles are hidden
        hidden = {pair(t) for seat in range(game.players) for t in hand.hand(seat)}
        undrawn = hand.boneyard[len(hand.boneyard) - hand.boneyard_left :]
        hidden |= {pair(t) for t in undrawn}
        # the tiles drawn face up for the opener are the room's to see
        hidden -= {pair(t) for t in game.logs[-1].opening_draw or ()}
        assert not tiles_named(page) & hidden, "a hidden tile is on the page"
        for past in page["hands"]:
            assert past["hand"] < game.hand_number, "the hand in play is replayed"
        # the board picture is drawn from the room's view, and nothing else
        board = await room.service.pages.board(key)
        assert board is not None and board.view.seat is None and not board.view.hand
        shown = {
            f.name: getattr(board.view, f.name)
            for f in fields(board.view)
            if f.name not in ("rules", "hand")
        }
        assert not tiles_named(repr(shown)) & hidden, "a hidden tile is in the picture's view"
        assert not tiles_named(board.text) & hidden
        # the hand in play has no replay, no step of it is drawn
        assert await room.service.pages.hand(key, game.hand_number) is None
        assert await room.service.pages.step(key, game.hand_number, 0) is None
    assert len(page["hands"]) == game.hands_finished
    for past in page["hands"][-1:]:
        replayed = await room.service.pages.hand(key, past["hand"])
        assert replayed is not None and replayed["revealed"] is not None
    return page


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    preset=st.sampled_from(sorted(preset_names())),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 60),
)
async def test_a_game_page_never_shows_a_hidden_tile(
    preset: str, seed: int, steps: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    store = await Store.open(f"sqlite:///{tmp_path_factory.mktemp('pages') / 'bot.sqlite3'}")
    try:
        room = await Room.open(store)
        rng = random.Random(seed)
        await open_game(room, preset)
        key = await room.service.pages.key("game", 1)
        assert key is not None
        await check_hidden(room, store, key)
        for _ in range(steps):
            if not await step(room, rng):
                break
            await check_hidden(room, store, key)
    finally:
        await store.close()


OTHER = Place("console", "other", "sala", "Otra", "en")


async def test_keys_are_long_random_and_made_once(any_store: Store) -> None:
    room = await Room.open(any_store)
    await open_game(room, "draw")
    assert KEY_BYTES * 8 >= 80
    key = await room.service.pages.key("game", 1)
    assert key is not None and well_formed(key) and len(key) * 6 >= 128
    assert await room.service.pages.key("game", 1) == key  # one live key a game
    community = await room.service.pages.key_of(room.place)
    assert community is not None and community != key
    assert await room.service.pages.key("game", 999) is None  # no such game: no key
    lobby = Room(room.service, room.clock, Place("console", "local", "otra", "Casa", "en"))
    await lobby.say("Ana", "/new block")
    shown = await room.service.pages.game(await room.service.pages.key("game", 2) or "")
    assert shown is not None and shown["status"] == "lobby" and shown["table"] is None
    assert [p["name"] for p in shown["players"]][:1] == ["Ana"]


async def test_a_key_asked_for_at_once_is_made_once(any_store: Store) -> None:
    room = await Room.open(any_store)
    await open_game(room, "draw")
    made = await asyncio.gather(*(room.service.pages.key("game", 1) for _ in range(8)))
    assert len(set(made)) == 1 and made[0] is not None


async def test_another_communitys_key_never_serves(any_store: Store) -> None:
    room = await Room.open(any_store)
    await open_game(room, "draw")
    other = Room(room.service, room.clock, OTHER)
    await other.say("Zoe", "/new block")
    await other.say("Yan", "/join")
    await other.say("Zoe", "/begin fill")
    mine = await room.service.pages.key_of(room.place)
    theirs = await room.service.pages.key_of(OTHER)
    assert mine and theirs
    page = await room.service.pages.community(mine)
    assert page is not None
    listed = [g["key"] for g in page["games"]]
    their_game = await room.service.pages.key("game", 2)
    assert their_game not in listed and len(listed) == 1
    their_page = await room.service.pages.community(theirs)
    assert their_page is not None and [g["key"] for g in their_page["games"]] == [their_game]
    # a key serves as its own kind of page only
    assert await room.service.pages.tournament(mine) is None
    assert await room.service.pages.game(mine) is None
    assert await room.service.pages.community(listed[0]) is None
    # off here: the other community's pages go on
    await room.say("Ana", "/settings web off", admin=True)
    assert await room.service.pages.community(mine) is None
    assert await room.service.pages.game(listed[0]) is None
    assert await room.service.pages.community(theirs) is not None
    assert await room.service.pages.game(their_game or "") is not None


async def test_web_off_on_and_new(any_store: Store) -> None:
    room = await Room.open(any_store)
    await open_game(room, "draw")
    service = room.service
    game, community = await service.pages.key("game", 1), await service.pages.key_of(room.place)
    assert game and community
    refused = await room.say("Beto", "/settings web off")  # not an admin: nothing changes
    assert await service.pages.game(game) is not None, refused
    said = await room.say("Ana", "/settings web off", admin=True)
    assert "off" in " ".join(getattr(e, "text", "") for e in said)
    assert await service.pages.game(game) is None
    assert await service.pages.community(community) is None
    assert await service.pages.key("game", 1) is None  # no link is made while off
    listed = await room.say("Ana", "/settings", admin=True)
    assert "web=off" in " ".join(getattr(e, "text", "") for e in listed)
    await room.say("Ana", "/settings web on", admin=True)
    assert await service.pages.game(game) is not None
    assert await service.pages.community(community) is not None
    await room.say("Ana", "/settings web new", admin=True)
    assert await service.pages.game(game) is None
    assert await service.pages.community(community) is None
    fresh_game, fresh_community = (
        await service.pages.key("game", 1),
        await service.pages.key_of(room.place),
    )
    assert fresh_game and fresh_game != game and fresh_community != community
    assert await service.pages.game(fresh_game) is not None
    assert await service.pages.community(fresh_community or "") is not None
    wrong = await room.say("Ana", "/settings web maybe", admin=True)
    assert "/settings web on" in " ".join(getattr(e, "text", "") for e in wrong)


async def test_no_key_in_the_log_at_debug(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    room = await Room.open(store)
    await open_game(room, "draw")
    game = await room.service.pages.key("game", 1)
    community = await room.service.pages.key_of(room.place)
    assert game and community
    await room.service.pages.game(game)
    await room.service.pages.community(community)
    await room.say("Ana", "/settings web new", admin=True)
    await room.service.pages.game(game)
    logged = "\n".join(r.getMessage() for r in caplog.records) + caplog.text
    assert game not in logged and community not in logged


@pytest.mark.parametrize("preset", ["partnership", "draw", "all_fives", "mexican_train"])
async def test_a_finished_games_page_replays_every_hand_as_the_record_has_it(
    store: Store, preset: str
) -> None:
    if preset not in preset_names():
        pytest.skip(f"no preset {preset}")
    room = await Room.open(store)
    await open_game(room, f"{preset} 1")
    key = await room.service.pages.key("game", 1)
    assert key is not None
    rng = random.Random(3)
    for _ in range(3000):
        if not await step(room, rng):
            break
    row = await store.games.load(1)
    assert row.status == "finished"
    page = await room.service.pages.game(key)
    assert page is not None and page["outcome"] is not None
    record = await store.games.record(1)
    assert len(page["hands"]) == len(record["hands"])
    replays = []
    for line in page["hands"]:
        assert line["address"] == f"/g/{key}/hands/{line['hand']}.json"
        replayed = await room.service.pages.hand(key, line["hand"])
        assert replayed is not None and line["moves"] == len(replayed["moves"])
        assert replayed["said"] and len(replayed["said"]) == len(replayed["moves"])
        replays.append(replayed)
    assert await room.service.pages.hand(key, len(page["hands"]) + 1) is None
    for shown, kept in zip(replays, record["hands"], strict=True):
        assert shown["moves"] == kept["moves"]
        assert len(shown["positions"]) == len(kept["moves"]) + 1
        assert [p["ply"] for p in shown["positions"]] == list(
            range(
                shown["positions"][0]["ply"], shown["positions"][0]["ply"] + len(kept["moves"]) + 1
            )
        )
        assert all(p["revealed"] is None for p in shown["positions"][:-1])
        # each position is a beginning of the hand's line and trains (docs/web.md)
        assert all("placed" in p and "train_lengths" in p for p in shown["positions"])
        assert shown["positions"][-1]["placed"] == len(shown["placements"])
        assert shown["revealed"] is not None
        assert shown["revealed"] == shown["positions"][-1]["revealed"]
        assert shown["result"] is not None
    assert page["scores"] == page["hands"][-1]["scores"] == replays[-1]["scores"]


async def test_a_games_page_says_its_turns_timer_as_its_room_has_it(store: Store) -> None:
    """The page's rules say what ``/rules`` says of the turn timer: a console room (whose
    rooms wait for their people) has none, and a room's ``turn_timeout off`` neither;
    another room has the preset's."""
    untimed = "each turn waits for its player"
    cases = ((True, None, False), (False, "off", False), (False, None, True))
    for number, (patient, setting, timed) in enumerate(cases, 1):
        clock = Clock()
        room = Room(GameService(store, clock=clock, seeds=seeded(), patient=patient), clock)
        room.place = Place("console", f"club{number}", "mesa", "Club", "en")
        if setting is not None:
            await room.say("Ana", f"/settings turn_timeout {setting}", admin=True)
        await open_game(room, "draw")
        said = " ".join(getattr(e, "text", "") for e in await room.say("Ana", "/rules"))
        key = await room.service.pages.key("game", number)
        page = await room.service.pages.game(key or "", "en")
        assert page is not None
        summary = page["rules"]["summary"]
        assert (untimed in summary) == (untimed in said) == (not timed), (summary, said)
