"""The game service end to end, with no network: whole games of every preset, every
kind of bad input, races, stale buttons, restarts and timers."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.model import Board, Button, Hand, Say
from bot.core.service import GameService
from engine.tiles import set_tiles
from storage.games import snapshot_moves
from storage.store import Store
from tests.core.driver import Clock, Room, boards, hands_for, private_to, seeded

GAMES = [
    ("partnership", ["Ana"], "30"),
    ("tournament_pr", ["Ana", "Beto"], "30"),
    ("cuban", ["Ana", "Beto"], "30"),
    ("block", ["Ana", "Beto"], "30"),
    ("draw", ["Ana"], "30"),
    ("all_fives", ["Ana", "Beto"], "20"),
    ("fido12", ["Ana"], "30"),
    ("fido18", ["Ana", "Beto"], "30 hands=2"),  # (the first to 30, or two hands)
    ("mexican_train", ["Ana", "Beto"], ""),
]


async def play_out(room: Room, people: list[str], limit: int = 3000) -> Board:
    """Everyone presses the first move button offered, hands follow each other, until
    the game ends; the final board."""
    for _ in range(limit):
        final = [b for b in boards(room.log) if b.final]
        if final:
            return final[-1]
        latest = boards(room.log)[-1]
        offered = [
            (name, h)
            for name in people
            for h in hands_for(room.log, name)
            if h.buttons and h.move_number == latest.move_number
        ]
        if offered:
            name, hand = offered[-1]
            effects = await room.press(name, hand.buttons[0])
            assert not private_to(effects, name), private_to(effects, name)
        else:
            room.clock.advance(10)
            await room.tick()  # the pause between hands ends
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset, people, target", GAMES, ids=[g[0] for g in GAMES])
async def test_a_whole_game_with_people_and_computers(
    store: Store, preset: str, people: list[str], target: str
) -> None:
    room = await Room.open(store)
    await room.say(people[0], f"/new {preset} {target}".strip())
    for name in people[1:]:
        await room.say(name, "/join")
    # a hard player at the table (Mexican Train's 13 rounds with one take a minute, and all
    # fives' many hands to 20 half of one: its 0.2 s a decision adds up)
    slow = preset in ("mexican_train", "all_fives")
    await room.say(people[0], "/add_ai " + ("normal" if slow else "hard"))
    await room.say(people[0], "/begin fill")
    final = await play_out(room, people)
    assert final.view.outcome is not None
    said = [e.text for e in room.log if isinstance(e, Say) and e.private is None]
    assert any("Game over" in t for t in said)
    # nothing the room sees carries a hand, until hands are shown at the end of a hand
    for effect in room.log:
        if isinstance(effect, Board):
            assert effect.view.seat is None and effect.view.hand == ()
            assert effect.view.legal_moves == ()
    community = (await store.people.room_by_id(1)).community_id
    record = await store.stats.player(community, 1)
    # the creator's result is written when two people or more played (BOT.md)
    assert record.games == (1 if len(people) >= 2 else 0)
    assert bool(record.ratings) == (len(people) >= 2)  # rated only with two people


async def test_bad_input_gets_a_clear_private_answer_and_changes_nothing(store: Store) -> None:
    room = await Room.open(store)
    assert private_to(await room.say("Ana", "/play 6-4"), "Ana")  # no game yet
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    cases = [
        ("Ana", "/new"),  # a game is open
        ("Ana", "/join"),  # already seated
        ("Carla", "/join 9"),
        ("Carla", "/join x"),
        ("Carla", "/join 2"),  # taken
        ("Beto", "/begin"),  # not the creator
        ("Ana", "/add_ai genius"),
        ("Ana", "/kick 2"),  # a person, not a computer
        ("Ana", "/kick"),
        ("Ana", "/play 6-4"),  # not begun
        ("Ana", "/fly"),
        ("Ana", "/settings language en"),  # not an admin
        ("Ana", "/new nonsense"),
        ("Ana", "/top forever"),
        ("Ana", "/rules chess"),
    ]
    game = await store.games.active_in(1)
    assert game is not None
    for who, text in cases:
        effects = await room.say(who, text)
        assert len(effects) == 1 and private_to(effects, who), (text, effects)
        assert (await store.games.load(game.id)).version == game.version, text
    await room.say("Ana", "/begin")
    game = await store.games.active_in(1)
    assert game is not None
    hand = [h for h in room.log if isinstance(h, Hand)][-1]
    mover = hand.person.name
    other = "Beto" if mover == "Ana" else "Ana"
    playing_cases = [
        (other, "/play " + hand.view.legal_moves[0].action_text()),  # not their turn
        ("Carla", "/play 6-6"),  # no seat
        (mover, "/play"),
        (mover, "/play banana"),
        (mover, "/play 9-9"),  # not a tile of the set in their hand
        (mover, "/pass") if hand.view.legal_moves[0].tile is not None else (mover, "/fly"),
    ]
    not_mine = next(t for t in set_tiles(6) if t not in hand.view.hand)
    playing_cases.append((mover, f"/play {not_mine}"))
    for who, text in playing_cases:
        effects = await room.say(who, text)
        assert private_to(effects, who), (text, effects)
        assert not boards(effects), text
        assert (await store.games.load(game.id)).version == game.version, text


async def test_nobody_but_the_service_fires_a_timer(store: Store) -> None:
    """A forged button that says "timer" (it would close the game) is an unknown command,
    even from an admin and naming the game."""
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    game = await store.games.active_in(await room.room_id())
    assert game is not None
    for args in (("idle", ""), ("lobby", ""), ("turn", str(game.version)), ()):
        forged = Button("x", " ".join(("timer", *args)), game.id, None)
        effects = await room.press("Ana", forged)
        assert private_to(effects, "Ana"), effects
        assert (await store.games.load(game.id)).version == game.version
    assert (await store.games.load(game.id)).status == "playing"


async def test_a_stale_button_is_refused(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    first = [h for h in room.log if isinstance(h, Hand) and h.buttons][-1]
    await room.press(first.person.name, first.buttons[0])
    again = await room.press(first.person.name, first.buttons[0])
    assert private_to(again, first.person.name) and not boards(again)


async def test_two_presses_at_once_apply_one_move(store: Store) -> None:
    """Two processes (two services on one database) get the same press at once."""
    clock = Clock()
    one = Room(GameService(store, clock=clock, seeds=seeded()), clock)
    two = Room(GameService(store, clock=clock, seeds=seeded()), clock)
    await one.say("Ana", "/new draw")
    await one.say("Beto", "/join")
    await one.say("Ana", "/begin")
    hand = [h for h in one.log if isinstance(h, Hand) and h.buttons][-1]
    name, button = hand.person.name, hand.buttons[0]
    results = await asyncio.gather(one.press(name, button), two.press(name, button))
    applied = [r for r in results if boards(r)]
    assert len(applied) == 1
    game = await store.games.active_in(1)
    log = await store.games.log(game.id)
    assert [m.move for m in log].count(str(hand.view.legal_moves[0])) == 1


async def test_two_processes_taking_turns_with_one_game_lose_nothing(store: Store) -> None:
    """Each service remembers the game as it last saved it; the other one's moves make
    that memory stale, and every move must still apply, once, on the real game."""
    clock = Clock()
    rooms = [Room(GameService(store, clock=clock, seeds=seeded()), clock) for _ in range(2)]
    await rooms[0].say("Ana", "/new draw")
    await rooms[1].say("Beto", "/join")
    await rooms[0].say("Ana", "/begin")
    log = rooms[0].log + rooms[1].log
    pressed = 0
    for turn in range(12):
        room = rooms[turn % 2]
        latest = boards(log)[-1]
        offered = [
            (name, h)
            for name in ("Ana", "Beto")
            for h in hands_for(log, name)
            if h.buttons and h.move_number == latest.move_number
        ]
        if not offered:
            break  # the hand is over
        name, hand = offered[-1]
        effects = await room.press(name, hand.buttons[0])
        assert boards(effects), effects  # applied, though this process's memory was old
        log += effects
        pressed += 1
    # a button already used, pressed in the process that has not seen it used: refused
    refused = await rooms[pressed % 2].press(name, hand.buttons[0])
    assert private_to(refused, name) and not boards(refused)
    game = await store.games.active_in(1)
    logged = [(m.hand, m.move) for m in await store.games.log(game.id)]
    assert pressed >= 4 and len(logged) == game.plies
    assert (
        snapshot_moves(await store.games.record(game.id)) == logged
    )  # the record and the log agree


async def test_a_restarted_service_continues_with_its_timers(store: Store) -> None:
    clock = Clock()
    room = Room(GameService(store, clock=clock, seeds=seeded()), clock)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/settings turn_timeout 30", admin=True)
    await room.say("Ana", "/begin")
    before = await store.games.active_in(1)
    # the process restarts: a new service on the same database, nothing in memory
    room = Room(GameService(store, clock=clock, seeds=seeded()), clock)
    clock.advance(21)
    warned = await room.tick()
    assert any(isinstance(e, Say) and e.mention for e in warned)
    clock.advance(10)
    moved = await room.tick()
    assert boards(moved), moved
    after = await store.games.active_in(1)
    assert after.plies > before.plies
    # three timeouts in a row: a computer player takes the seat
    for _ in range(8):
        clock.advance(31)
        await room.tick()
    said = " ".join(e.text for e in room.log if isinstance(e, Say))
    assert "computer player takes the seat" in said


async def test_an_unbegun_lobby_closes_itself(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new")
    room.clock.advance(16 * 60)
    said = await room.tick()
    assert any(isinstance(e, Say) and "closed" in e.text for e in said)
    assert await store.games.active_in(1) is None


async def test_moves_typed_in_spanish_or_portuguese(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Ana", "/add_ai difícil")
    await room.say("Ana", "/begin")
    hand = [h for h in room.log if isinstance(h, Hand) and h.buttons][-1]
    for _ in range(40):  # to a turn where a tile goes on another
        hand = [h for h in room.log if isinstance(h, Hand) and h.buttons][-1]
        move = next((m for m in hand.view.legal_moves if m.on is not None), None)
        if move is not None:
            break
        await room.press("Ana", hand.buttons[0])
    assert move is not None
    typed = move.action_text().replace(" on ", " sobre ")
    effects = await room.say("Ana", f"/play {typed}")
    assert boards(effects), effects
