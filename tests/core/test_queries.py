"""The service's queries for the doors: no command, no room lock, plain answers; and what
the doors keep in storage beside it (bot/core/posts.py)."""

from __future__ import annotations

from dataclasses import replace

from bot.core.model import Hand, Offer, Post
from bot.core.posts import Posts
from bot.core.service import GameService
from storage.store import Store
from tests.core.driver import Room


async def test_offers_are_the_hands_buttons_of_the_person_to_move(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    hand = [e for e in room.log if isinstance(e, Hand)][-1]
    mover = hand.person
    offers = await room.service.offers(room.place, room.person(mover.name))
    assert [(o.label, o.command) for o in offers] == [(b.label, b.command) for b in hand.buttons]
    assert all(isinstance(o, Offer) for o in offers)
    for offer in offers:
        if offer.command.startswith("play "):
            typed = offer.tile + (f" on {offer.on}" if offer.on else "")
            assert offer.command == f"play {typed}"
    other = "Beto" if mover.name == "Ana" else "Ana"
    assert await room.service.offers(room.place, room.person(other)) == ()
    assert await room.service.offers(room.place, room.person("Carla")) == ()


async def test_no_game_no_offers_and_no_rooms(store: Store) -> None:
    room = await Room.open(store)
    assert await room.service.offers(room.place, room.person("Ana")) == ()
    assert await room.service.rooms_in(room.place.platform, room.place.community) == []


async def test_board_posts_and_a_room_gone(store: Store) -> None:
    room = await Room.open(store)
    service, posts = room.service, Posts(store, clock=room.clock)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    row = await store.games.active_in(await posts.room_id(room.place))
    assert row is not None
    assert await service.rooms_in(room.place.platform, room.place.community) == [
        room.place.__class__(room.place.platform, room.place.community, room.place.room)
    ]
    assert await posts.board_post(room.place) is None
    await posts.keep_board_post(room.place, row.id, "77", row.plies)
    assert await posts.board_post(room.place) == Post(row.id, "77", row.plies)
    await posts.board_shown(room.place, row.plies + 1)
    assert await posts.board_post(room.place) == Post(row.id, "77", row.plies + 1)
    await posts.drop_board_post(room.place)
    assert await posts.board_post(room.place) is None
    await posts.keep_board_post(room.place, row.id, "78")
    await service.room_gone(room.place)
    assert await posts.board_post(room.place) is None
    assert await store.games.active_in(row.room_id) is None
    assert (await store.games.load(row.id)).status == "cancelled"
    assert await service.rooms_in(room.place.platform, room.place.community) == []


async def test_take_send_counts_a_shared_window(store: Store) -> None:
    posts = Posts(store)
    assert await posts.take_send("-1", 2, 60.0, 1000.0) == (0, (1000.0,))
    assert await posts.take_send("-1", 2, 60.0, 1001.0) == (0, (1000.0, 1001.0))
    assert await posts.take_send("-1", 2, 60.0, 1002.0) == (58.0, (1000.0, 1001.0))
    # what a process sent while the count was away is counted when it is told
    assert await posts.take_send("-2", 2, 60.0, 1003.0, [1002.0]) == (0, (1002.0, 1003.0))


async def test_timers_fired_through_the_service(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    service = room.service
    assert [fired async for fired in service.fire_due()] == []
    room.clock.advance(16 * 60)  # the lobby nobody began
    assert [t.kind for t in await store.timers.due(room.clock())] == ["lobby"]
    other = GameService(store, clock=room.clock)  # another process, at the same moment
    [fired] = [fired async for fired in service.fire_due()]
    assert fired[0] == room.place.__class__("console", "local", "mesa")
    assert any("closed" in getattr(e, "text", "") for e in fired[1])
    assert [fired async for fired in other.fire_due()] == []  # fired once, by one process
    assert await store.timers.due(room.clock()) == []
    room.clock.advance(24 * 3600)  # the next day: the fired timers' rows go
    assert [fired async for fired in service.fire_due()] == []
    assert await store.timers.pending(1) == []


async def test_offers_show_nobody_else_a_hand(store: Store) -> None:
    """A look at the moves of the person to move is theirs alone: not for the same id in
    another room, on another platform, nor for them once a computer has their seat."""
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    mover = [e for e in room.log if isinstance(e, Hand)][-1].person
    assert await room.service.offers(room.place, room.person(mover.name))
    elsewhere = replace(room.place, room="otra-mesa")
    assert await room.service.offers(elsewhere, room.person(mover.name)) == ()
    other_platform = replace(room.place, platform="telegram")
    assert await room.service.offers(other_platform, room.person(mover.name)) == ()
    await room.say(mover.name, "/leave")  # a computer plays the seat until they come back
    assert await room.service.offers(room.place, room.person(mover.name)) == ()
