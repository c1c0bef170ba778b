"""Every action bound to its place (issue 18): from a private chat only a seated
person's own seat actions for their own game; a button's data never picks the room;
after a restart the room sees the latest move once; handle never raises whatever the
database does."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy.exc import DataError, IntegrityError, OperationalError

from bot.core.model import Command, Hand, Place, Popup, Say
from bot.core.posts import Posts
from bot.core.progress import NEXT_HAND_SECONDS
from bot.core.registry import COMMANDS
from bot.core.service import GameService
from bot.doors.delivery import Delivery
from storage.errors import StorageError
from storage.store import Store
from tests.core.driver import Room, boards, hands_for, seeded
from tests.doors.test_delivery import Fake

OTHER = Place("console", "local", "patio", "Casa", "en")
ROOM_ACTIONS = [
    "new draw", "join", "join 2", "leave", "add_ai hard", "kick 2", "begin fill", "cancel",
    "settings language en", "export", "board", "score", "rules", "top", "stats", "next",
    "help", "forget confirm",
]  # fmt: skip


async def state(store: Store) -> list[tuple]:
    rows = []
    for room_id in (1, 2):
        row = await store.games.active_in(room_id)
        if row is not None:
            rows.append((row.id, row.status, row.version, row.seats))
        rows.append(tuple((t.kind, t.due_at) for t in await store.timers.pending(room_id)))
    return rows


async def a_game(store: Store) -> Room:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    return room


@pytest.mark.parametrize("action", ROOM_ACTIONS)
async def test_a_private_chat_cannot_act_on_a_room(store: Store, action: str) -> None:
    room = await a_game(store)
    before = await state(store)
    words = action.split()
    for who in ("Ana", "Carla"):  # seated or not
        forged = Command(
            room.place, room.person(who), words[0], tuple(words[1:]), game_id=1, private=True
        )
        effects = await room.service.handle(forged)
        assert [type(e) for e in effects] == [Popup], effects
        assert effects[0].private is not None and "room where the game" in effects[0].text
    assert await state(store) == before


async def test_a_private_chat_plays_only_its_own_seat(store: Store) -> None:
    room = await a_game(store)
    latest = boards(room.log)[-1]
    mover = next(n for n in ("Ana", "Beto") for h in hands_for(room.log, n) if h.buttons)
    other = "Beto" if mover == "Ana" else "Ana"
    hand = [h for h in hands_for(room.log, mover) if h.buttons][-1]
    words = hand.buttons[0].command.split()
    before = await state(store)
    for who in (other, "Carla"):
        forged = Command(
            room.place, room.person(who), words[0], tuple(words[1:]),
            move_number=latest.move_number, game_id=1, private=True,
        )  # fmt: skip
        effects = await room.service.handle(forged)
        assert all(isinstance(e, Say) and e.private for e in effects), effects
    assert await state(store) == before
    mine = Command(
        room.place, room.person(mover), words[0], tuple(words[1:]),
        move_number=latest.move_number, game_id=1, private=True,
    )  # fmt: skip
    assert boards(await room.service.handle(mine))
    # a private command with no game named acts nowhere
    bare = Command(room.place, room.person(mover), "hand", private=True)
    assert [type(e) for e in await room.service.handle(bare)] == [Popup]


async def test_a_button_of_another_rooms_game_acts_in_neither(store: Store) -> None:
    room = await a_game(store)
    patio = Room(room.service, room.clock, OTHER)
    await patio.say("Carla", "/new draw")
    before = await state(store)
    for action in ("join", "cancel", "begin fill", "next", "draw", "pass"):
        effects = await patio.service.handle(
            Command(OTHER, patio.person("Dani"), action, game_id=1)
        )
        effects += await room.service.handle(
            Command(room.place, room.person("Dani"), action, game_id=2)
        )
        assert all(isinstance(e, Say) and e.private for e in effects), (action, effects)
    assert await state(store) == before


async def test_after_a_restart_the_room_sees_the_latest_move_once(store: Store) -> None:
    room = await a_game(store)
    # the board went out and the platform noted it, but not the hand of the person to
    # move (stopped between the two): the hand alone goes, once
    latest = boards(room.log)[-1]
    await store.posts.keep(1, "board", 1, "m1", room.clock.now, latest.move_number)
    fresh = GameService(store, clock=room.clock, seeds=seeded())
    [(_, effects)] = await fresh.resume("console")
    assert not boards(effects) and [type(e) for e in effects] == [Hand]
    assert effects[0].buttons and effects[0].move_number == latest.move_number
    await Posts(store).hand_shown(room.place, 1, latest.move_number)  # as the delivery notes it
    # both went out: nothing to send again
    assert await GameService(store, clock=room.clock, seeds=seeded()).resume("console") == []
    # a move saved, then the process died before its board went out
    mover = next(n for n in ("Ana", "Beto") for h in hands_for(room.log, n) if h.buttons)
    hand = [h for h in hands_for(room.log, mover) if h.buttons][-1]
    await room.press(mover, hand.buttons[0])
    fresh = GameService(store, clock=room.clock, seeds=seeded())
    (place, effects), *more = await fresh.resume("console")
    assert not more and place.room == room.place.room
    board = boards(effects)[0]
    row = await store.games.active_in(1)
    assert board.move_number == row.plies and board.view.seat is None
    to_move = board.view.to_move
    assert [e.person.name for e in effects if isinstance(e, Hand)] == [["Ana", "Beto"][to_move]]
    await store.posts.shown(1, "board", board.move_number)
    await Posts(store).hand_shown(room.place, 1, board.move_number)
    assert await GameService(store, clock=room.clock).resume("console") == []
    assert await fresh.resume("telegram") == []


async def test_a_hand_dealt_but_never_shown_is_shown_after_a_restart(store: Store) -> None:
    """The next hand was dealt (its timer fired, or "Next hand" pressed) and the process
    died before the new board went out: the room still shows the last hand's end, kept
    as its picture, with no move made since. The restart posts the new hand's board and
    the hand of the person to move; a second restart sends nothing."""
    room = await a_game(store)
    fake, posts = Fake(), Posts(store)
    delivery = Delivery(fake, posts)

    async def delivered(effects: list) -> None:
        await delivery.deliver(room.place, effects)
        await delivery.idle()

    await delivered(room.log)
    while not boards(room.log)[-1].hand_end:
        hand = [e for e in room.log if isinstance(e, Hand) and e.buttons][-1]
        await delivered(await room.press(hand.person.name, hand.buttons[0]))
    ended = boards(room.log)[-1]
    assert (await posts.board_post(room.place)).move_number == ended.move_number
    room.clock.advance(NEXT_HAND_SECONDS + 1)
    dealt = await room.tick()  # the timer deals; the process dies before delivering it
    assert boards(dealt) and not boards(dealt)[0].hand_end
    fresh = GameService(store, clock=room.clock, seeds=seeded())
    [(place, effects)] = await fresh.resume("console")
    [board] = boards(effects)
    assert not board.hand_end and board.view.hand_number == ended.view.hand_number + 1
    assert [type(e) for e in effects if isinstance(e, Hand)] == [Hand]
    await delivery.deliver(place, effects)
    await delivery.idle()
    assert [entry[0] for entry in fake.log].count("post") >= 2  # a new message
    await Posts(store).hand_shown(room.place, 1, board.move_number)
    assert await GameService(store, clock=room.clock).resume("console") == []


async def test_a_restarts_hand_overtaken_by_a_press_does_not_go_out(store: Store) -> None:
    """The restart made the hand of the person to move (its board was shown, the hand
    not), and before it went out that person pressed the hand they already had: the
    restart's hand, with buttons that no longer play and a tile already on the table, is
    not sent; the hands of the moment now are."""
    room = await a_game(store)
    latest = boards(room.log)[-1]
    await store.posts.keep(1, "board", 1, "m1", room.clock.now, latest.move_number)
    fresh = GameService(store, clock=room.clock, seeds=seeded())
    [(place, [made])] = await fresh.resume("console")
    assert isinstance(made, Hand) and made.buttons
    again = Room(fresh, room.clock)
    pressed = await again.press(made.person.name, made.buttons[0])
    assert boards(pressed)[0].move_number > made.move_number
    fake, posts = Fake(), Posts(store)
    delivery = Delivery(fake, posts)
    await delivery.deliver(place, [made, *pressed])
    await delivery.idle()
    sent = [entry for entry in fake.log if entry[0] == "hand"]
    now = [e for e in pressed if isinstance(e, Hand) and e.buttons]
    assert now and [entry[2] for entry in sent] == [e.text for e in now]
    assert await posts.hand_current(place, 1, now[0].move_number)
    assert not await posts.hand_current(place, 1, made.move_number)


FAILURES = [
    StorageError("disk full"),
    OperationalError("UPDATE games SET snapshot=?", {"snapshot": "6-6 5-5"}, Exception()),
    IntegrityError("INSERT", {}, Exception()),
    DataError("value too long for type character varying(8)", {}, Exception()),
    RuntimeError("anything else"),
]


@pytest.mark.parametrize("failure", FAILURES, ids=lambda f: type(f).__name__)
async def test_handle_never_raises_whatever_storage_does(
    store: Store, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    room = await a_game(store)
    before = await state(store)
    mover = next(n for n in ("Ana", "Beto") for h in hands_for(room.log, n) if h.buttons)
    hand = [h for h in hands_for(room.log, mover) if h.buttons][-1]

    async def broken(*_args: object, **_kwargs: object) -> None:
        raise failure

    monkeypatch.setattr("bot.core.service.STRICT", False)  # production: nothing escapes
    for name in ("save", "active_in", "load"):
        monkeypatch.setattr(store.games, name, broken)
    monkeypatch.setattr(store.people, "user", broken)
    fresh = Room(GameService(store, clock=room.clock), room.clock)
    for effects in (
        await fresh.press(mover, hand.buttons[0]),
        await fresh.say("Carla", "/new draw"),
        await fresh.say("Carla", "/export"),
    ):
        assert [type(e) for e in effects] == [Popup] and effects[0].private, effects
        assert "Nothing was changed" in effects[0].text
    monkeypatch.undo()
    assert await state(store) == before


async def test_strict_mode_lets_a_bug_fail_the_test(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = await a_game(store)

    async def bug(*_args: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setitem(COMMANDS, "score", replace(COMMANDS["score"], handler=bug))
    with pytest.raises(KeyError):
        await room.say("Ana", "/score")
    monkeypatch.setattr("bot.core.service.STRICT", False)
    assert "Nothing was changed" in (await room.say("Ana", "/score"))[0].text
